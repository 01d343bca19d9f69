"""After-commit work that must not hold up the caller.

* `call`: blocking work (the projection upsert, the Celery timer) on one daemon thread
  with its own database connection, in order. A call given a `key` replaces a pending
  call with the same key: a projection or a timer superseded before it ran is never
  worth running (a match that moves three times while the thread is busy gets one
  projection write and one timer). `after` holds a call back that many seconds, and a
  replacement starts the wait again: a timer is handed to the broker only once its turn
  has lasted a moment (most turns of a fast table end before, and a broker publish costs
  more CPU than the whole append). With `restart=False` a replacement keeps the pending
  call's time instead: a projection runs at most once a hold, however often its match
  moves, and never later than a hold after the first move it waited for. Calls of the
  same `transaction` group that are due together run in one database transaction (one
  commit for many matches).
  Projections are rebuildable and only ever move forward, so a late write is harmless
  and one lost with a dying process is repaired by `manage.py rebuild_projections`.
(Channel-layer notices are not sent from here: they have a loop of their own,
cacho.services.notices.)

`inline = True` runs the work on the caller's thread instead (benchmarks, debugging).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, NamedTuple

from django.db import close_old_connections, connections, transaction

logger = logging.getLogger(__name__)

Call = tuple[str | None, Callable[[], Any]]
Pending = tuple[float, str | None, Callable[[], Any]]


class Queued(NamedTuple):
    """A call handed to `Dispatcher.call_each`."""

    function: Callable[[], Any]
    key: Hashable | None = None
    transaction: str | None = None
    after: float = 0.0
    restart: bool = True  # a replacement starts the hold again (False: keeps its time)


class Dispatcher:
    CHECK_EVERY = 256

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """`clock`: seconds, for the holds (a test passes its own and moves it)."""
        self.clock = clock
        self._pending: OrderedDict[Hashable, Pending] = OrderedDict()
        # When each pending slot is due, earliest first; an entry whose slot was replaced
        # or taken meanwhile is stale and skipped (a busy process has a few pending calls
        # per live match: a scan of them all at every wake cost more than the calls).
        self._due: list[tuple[float, int, Hashable]] = []
        self._has_work = threading.Condition(threading.Lock())
        self._serial = itertools.count()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()
        self._wakes_at = float("inf")  # when the waiting worker will look again by itself
        self._unchecked = 0
        self.inline = False
        _DISPATCHERS.add(self)

    # ---------------------------------------------------------------- blocking calls

    def call(
        self,
        function: Callable[[], Any],
        *,
        key: Hashable | None = None,
        transaction: str | None = None,
        after: float = 0.0,
        restart: bool = True,
    ) -> None:
        """Run a blocking callable on the worker thread, after what was queued before
        (a keyed call takes the place of the pending one with its key)."""
        self.call_each((Queued(function, key, transaction, after, restart),))

    def call_each(self, calls: Iterable[Queued]) -> None:
        """`call` for each of `calls`, under one lock (a committed move queues its
        projection and its timer together)."""
        if self.inline:
            for function, *_ in calls:
                _guarded(function)
            return
        self._ensure_worker()
        with self._has_work:
            now = self.clock()
            for function, key, transaction, after, restart in calls:
                slot = ("key", key) if key is not None else ("call", next(self._serial))
                replaced = self._pending.pop(slot, None)
                not_before = now + after
                if replaced is not None and not restart and replaced[0] <= not_before:
                    # It keeps the time its heap entry already has: no new entry, no wake.
                    self._pending[slot] = (replaced[0], transaction, function)
                    continue
                self._pending[slot] = (not_before, transaction, function)
                heapq.heappush(self._due, (not_before, next(self._serial), slot))
                # A held call replacing a held one (a match's next move) is due no sooner
                # than the worker wakes anyway: waking it now would only cost both threads
                # the GIL.
                if not_before < self._wakes_at:
                    self._has_work.notify()

    def look_again(self) -> None:
        """Have the worker read its clock at once. A clock that jumps (a test moves its own)
        can make a waiting worker's wake time wrong; a monotonic one never does."""
        with self._has_work:
            self._has_work.notify()

    def _ensure_worker(self) -> None:
        # The usual case costs no lock and no liveness check: the worker never returns
        # (every call is guarded), a forked child starts without one (`_after_fork`), and
        # it is looked at every `CHECK_EVERY` calls all the same.
        if self._worker is not None:
            self._unchecked += 1
            if self._unchecked < self.CHECK_EVERY:
                return
            self._unchecked = 0
            if self._worker.is_alive():
                return
        with self._lock:
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._work, name="cacho-dispatch", daemon=True)
                self._worker.start()

    def _after_fork(self) -> None:
        """In a forked child: the parent's worker thread does not exist here, and its locks
        may have been held at the fork; what the parent queued is the parent's to run."""
        self._pending = OrderedDict()
        self._due = []
        self._has_work = threading.Condition(threading.Lock())
        self._lock = threading.Lock()
        self._worker = None
        self._wakes_at = float("inf")

    def _take(self) -> list[Call]:
        """The calls that are due, in the order they were queued; waits for one."""
        with self._has_work:
            while True:
                now = self.clock()
                due: dict[Hashable, int] = {}  # slot: when it was last queued
                while self._due and self._due[0][0] <= now:
                    not_before, serial, slot = heapq.heappop(self._due)
                    entry = self._pending.get(slot)
                    if entry is not None and entry[0] == not_before:
                        due[slot] = max(serial, due.get(slot, serial))
                if due:
                    self._wakes_at = 0.0  # busy: every new call must be looked at
                    return [self._pending.pop(slot)[1:] for slot in sorted(due, key=due.__getitem__)]
                self._drop_stale()
                wakes_at = self._due[0][0] if self._due else now + 60
                self._wakes_at = max(now + 0.001, wakes_at)
                self._has_work.wait(timeout=self._wakes_at - now)

    def _drop_stale(self) -> None:
        """Forget the heap's entries for slots replaced or taken since (a match moving
        every second leaves one per move): the heap stays about as long as the pending calls."""
        while self._due:
            not_before, _, slot = self._due[0]
            entry = self._pending.get(slot)
            if entry is not None and entry[0] == not_before:
                return
            heapq.heappop(self._due)
        if len(self._due) > 2 * len(self._pending) + 64:
            self._due = [item for item in self._due if self._pending.get(item[2], (None,))[0] == item[0]]
            heapq.heapify(self._due)

    def _work(self) -> None:
        while True:
            batch = self._take()
            ok = True
            for group, calls in itertools.groupby(batch, key=lambda item: item[0]):
                functions = [function for _, function in calls]
                if group is None or len(functions) == 1:
                    for function in functions:
                        ok = _guarded(function) and ok
                else:
                    ok = _in_one_transaction(functions) and ok
            with self._has_work:
                idle = not self._pending
            if idle:  # give the connection back (a held one blocks dropping a database)
                _guarded(connections.close_all)
            elif not ok:
                # Busy, the connection is kept from batch to batch (giving it back to the
                # pool and taking it again costs as much as a query); one an error may
                # have broken goes back, and the pool checks it before lending it again.
                _guarded(close_old_connections)

    def drain(self, timeout: float = 10.0) -> None:
        """Run everything queued so far, held calls included, and wait for it (tests, shutdown)."""
        with self._has_work:
            for slot, (_, group, function) in list(self._pending.items()):
                self._pending[slot] = (0.0, group, function)
                heapq.heappush(self._due, (0.0, next(self._serial), slot))
        done = threading.Event()
        self.call(done.set)
        done.wait(timeout)


def _guarded(function: Callable[[], Any]) -> bool:
    """Run `function`; False (the failure logged) if it raised: this thread must outlive any error."""
    try:
        function()
    except Exception:
        logger.warning("after-commit call failed", exc_info=True)
        return False
    return True


def _in_one_transaction(functions: list[Callable[[], Any]]) -> bool:
    """One commit for the lot; if any fails, each on its own (the failure is only logged).
    False if one failed."""
    try:
        with transaction.atomic():
            for function in functions:
                function()
    except Exception:
        return all([_guarded(function) for function in functions])
    return True


_DISPATCHERS: weakref.WeakSet[Dispatcher] = weakref.WeakSet()


def _reset_after_fork() -> None:
    for dispatcher in list(_DISPATCHERS):
        dispatcher._after_fork()


os.register_at_fork(after_in_child=_reset_after_fork)

DISPATCH = Dispatcher()
