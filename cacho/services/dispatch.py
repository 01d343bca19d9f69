"""After-commit work that must not hold up the caller.

* `call`: blocking work (the projection upsert, the Celery timer) on one daemon thread
  with its own database connection, in order. A call given a `key` replaces a pending
  call with the same key: a projection or a timer superseded before it ran is never
  worth running (a match that moves three times while the thread is busy gets one
  projection write and one timer). `after` holds a call back that many seconds, and a
  replacement starts the wait again: a timer is handed to the broker only once its turn
  has lasted a moment (most turns of a fast table end before, and a broker publish costs
  more CPU than the whole append). Calls of the same `transaction` group that are due
  together run in one database transaction (one commit for many matches).
  Projections are rebuildable and only ever move forward, so a late write is harmless
  and one lost with a dying process is repaired by `manage.py rebuild_projections`.
* `notify`: the channel-layer notice on Redis, from one long-lived event loop thread.
  `async_to_sync(group_send)` from a plain thread builds a fresh loop per call, and
  channels-redis a fresh connection per loop (~7 ms a notice here); this loop keeps its
  connection. Notices to one group that pile up while the loop is busy are merged into
  one (their events concatenated), and the loop is woken once per burst, not per notice.
  Delivery is at-most-once anyway: clients detect version gaps and catch up.
  (The in-memory layer lives on the server's own loop: it is not sent from here.)

`inline = True` runs the work on the caller's thread instead (benchmarks, debugging).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

logger = logging.getLogger(__name__)

Call = tuple[str | None, Callable[[], Any]]
Pending = tuple[float, str | None, Callable[[], Any]]


class Dispatcher:
    def __init__(self) -> None:
        self._pending: OrderedDict[Hashable, Pending] = OrderedDict()
        self._has_work = threading.Condition(threading.Lock())
        self._serial = itertools.count()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._notices: dict[str, tuple[Any, dict[str, Any]]] = {}
        self._notices_lock = threading.Lock()
        self._flushing = False
        self.inline = False

    # ---------------------------------------------------------------- blocking calls

    def call(
        self,
        function: Callable[[], Any],
        *,
        key: Hashable | None = None,
        transaction: str | None = None,
        after: float = 0.0,
    ) -> None:
        """Run a blocking callable on the worker thread, after what was queued before
        (a keyed call takes the place of the pending one with its key)."""
        if self.inline:
            _guarded(function)
            return
        self._ensure_worker()
        with self._has_work:
            slot = ("key", key) if key is not None else ("call", next(self._serial))
            self._pending.pop(slot, None)
            self._pending[slot] = (time.monotonic() + after, transaction, function)
            self._has_work.notify()

    def _ensure_worker(self) -> None:
        with self._lock:
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._work, name="cacho-dispatch", daemon=True)
                self._worker.start()

    def _take(self) -> list[Call]:
        """The calls that are due, in order; waits for one."""
        with self._has_work:
            while True:
                now = time.monotonic()
                due = [slot for slot, (not_before, _, _) in self._pending.items() if not_before <= now]
                if due:
                    return [self._pending.pop(slot)[1:] for slot in due]
                wait = min((entry[0] for entry in self._pending.values()), default=now + 60) - now
                self._has_work.wait(timeout=max(0.001, wait))

    def _work(self) -> None:
        from django.db import close_old_connections, connections

        while True:
            batch = self._take()
            _guarded(close_old_connections)  # this thread must outlive any error
            for group, calls in itertools.groupby(batch, key=lambda item: item[0]):
                functions = [function for _, function in calls]
                if group is None or len(functions) == 1:
                    for function in functions:
                        _guarded(function)
                else:
                    _in_one_transaction(functions)
            with self._has_work:
                idle = not self._pending
            if idle:  # give the connection back (a held one blocks dropping a database)
                _guarded(connections.close_all)

    def drain(self, timeout: float = 10.0) -> None:
        """Run everything queued so far, held calls included, and wait for it (tests, shutdown)."""
        with self._has_work:
            for slot, (_, group, function) in list(self._pending.items()):
                self._pending[slot] = (0.0, group, function)
        done = threading.Event()
        self.call(done.set)
        done.wait(timeout)
        if self._loop is not None and self._loop.is_running():
            sent = threading.Event()

            async def after_notices() -> None:
                while self._flushing:
                    await asyncio.sleep(0.001)
                sent.set()

            asyncio.run_coroutine_threadsafe(after_notices(), self._loop)
            sent.wait(timeout)

    # ---------------------------------------------------------------- notices

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

    def notify(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        """`layer.group_send(group, message)` on the dispatch loop, not waited for."""
        with self._notices_lock:
            waiting = self._notices.get(group)
            self._notices[group] = (layer, merge_notices(waiting[1], message) if waiting else message)
            if self._flushing:
                return
            self._flushing = True
        self._ensure_loop().call_soon_threadsafe(lambda: asyncio.ensure_future(self._flush()))

    async def _flush(self) -> None:
        while True:
            with self._notices_lock:
                notices, self._notices = self._notices, {}
                if not notices:
                    self._flushing = False
                    return
            results = await asyncio.gather(
                *(layer.group_send(group, message) for group, (layer, message) in notices.items()),
                return_exceptions=True,
            )
            for result in results:
                if isinstance(result, BaseException):
                    logger.warning("after-commit notice failed", exc_info=result)

    def send(self, factory: Callable[[], Awaitable[Any]]) -> None:
        """Run `factory()` on the dispatch loop, not waited for; failures are logged."""

        async def guarded() -> None:
            try:
                await factory()
            except Exception:
                logger.warning("after-commit notice failed", exc_info=True)

        asyncio.run_coroutine_threadsafe(guarded(), self._ensure_loop())


def merge_notices(earlier: dict[str, Any], later: dict[str, Any]) -> dict[str, Any]:
    """One notice for two: the events of both when they follow each other, else only the
    later version (its receivers see the gap and read the store)."""
    first, second = earlier.get("events"), later.get("events")
    if first and second and first[-1]["v"] + 1 == second[0]["v"]:
        return {**later, "events": [*first, *second]}
    return {key: value for key, value in later.items() if key != "events"}


def _guarded(function: Callable[[], Any]) -> None:
    try:
        function()
    except Exception:
        logger.warning("after-commit call failed", exc_info=True)


def _in_one_transaction(functions: list[Callable[[], Any]]) -> None:
    """One commit for the lot; if any fails, each on its own (the failure is only logged)."""
    from django.db import transaction

    try:
        with transaction.atomic():
            for function in functions:
                function()
    except Exception:
        for function in functions:
            _guarded(function)


DISPATCH = Dispatcher()
