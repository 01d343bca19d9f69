"""After-commit work that must not hold up the caller.

* `call`: the projection upsert (PostgreSQL). One daemon thread with its own database
  connection does the work in order. Projections are rebuildable and only ever move
  forward, so a late write is harmless and one lost with a dying process is repaired by
  `manage.py rebuild_projections`.
* `send`: the channel-layer notice on Redis, from one long-lived event loop thread.
  `async_to_sync(group_send)` from a plain thread builds a fresh loop per call, and
  channels-redis a fresh connection per loop (~7 ms a notice here); this loop keeps its
  connection. Delivery is at-most-once anyway: clients detect version gaps and catch up.
  (The in-memory layer lives on the server's own loop: it is not sent from here.)

`inline = True` runs the work on the caller's thread instead (benchmarks, debugging).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger(__name__)


class Dispatcher:
    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[Callable[[], Any]] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.inline = False

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or not self._loop.is_running():
                loop = asyncio.new_event_loop()
                ready = threading.Event()

                def run() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    loop.run_forever()

                threading.Thread(target=run, name="cacho-dispatch-loop", daemon=True).start()
                ready.wait(5)
                self._loop = loop
            return self._loop

    def send(self, factory: Callable[[], Awaitable[Any]]) -> None:
        """Run `factory()` on the dispatch loop, not waited for; failures are logged."""

        async def guarded() -> None:
            try:
                await factory()
            except Exception:
                logger.warning("after-commit notice failed", exc_info=True)

        asyncio.run_coroutine_threadsafe(guarded(), self._ensure_loop())

    def _ensure_worker(self) -> None:
        with self._lock:
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._work, name="cacho-dispatch", daemon=True)
                self._worker.start()

    def _work(self) -> None:
        from django.db import connections

        while True:
            function = self._calls.get()
            try:
                function()
            except Exception:
                logger.warning("after-commit call failed", exc_info=True)
            finally:
                if self._calls.empty():
                    # Idle: give the connection back (a held one blocks dropping a database).
                    connections.close_all()

    def call(self, function: Callable[[], Any]) -> None:
        """Run a blocking callable on the worker thread, after what was queued before."""
        if self.inline:
            try:
                function()
            except Exception:
                logger.warning("after-commit call failed", exc_info=True)
            return
        self._ensure_worker()
        self._calls.put(function)

    def drain(self, timeout: float = 10.0) -> None:
        """Wait until everything queued so far has run (tests, shutdown)."""
        done = threading.Event()
        self.call(done.set)
        done.wait(timeout)
        if self._loop is not None and self._loop.is_running():
            sent = threading.Event()
            self._loop.call_soon_threadsafe(sent.set)
            sent.wait(timeout)


DISPATCH = Dispatcher()
