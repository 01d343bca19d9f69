"""Turn deadlines without Celery (embedded mode), and the sweep that is every mode's
safety net.

With Redis, a Celery task with an ETA is the fast path and Celery beat runs
`sweep_deadlines` every second. Embedded, one daemon thread does both: it sleeps
until the nearest known deadline (or at most a second) and then sweeps. Either
way the write path's `expire_turn` acts only if the match is still at the version
the timer was made for, so a late, repeated or duplicated timer is harmless.
"""

from __future__ import annotations

import datetime as dt
import heapq
import logging
import threading
from typing import Any

from django.db import close_old_connections, connections
from django.utils import timezone

from cacho.eventlog import store
from cacho.live import presence_log
from cacho.live.models import LiveConnection
from cacho.process.clock import now_ms
from cacho.services.matches import expire_turn

logger = logging.getLogger(__name__)

SWEEP_EVERY_SECONDS = 1.0
STALE_CONNECTION = dt.timedelta(minutes=2)


def sweep_deadlines(at_ms: int | None = None) -> int:
    """Play every turn whose deadline has passed at `at_ms` (now unless given); returns how
    many were played."""
    at_ms = now_ms() if at_ms is None else at_ms
    played = 0
    for match_id, version in store.due_turns(at_ms):
        try:
            if expire_turn(match_id, version, at_ms) is not None:
                played += 1
        except Exception:  # one broken match must not stop the sweep of the others
            logger.exception("sweep: cannot expire the turn of match %s", match_id)
    return played


def sweep_stale_connections(now: dt.datetime | None = None) -> int:
    """Presence rows whose socket vanished without a goodbye (a crashed server); a seated
    player left without a socket is recorded as disconnected when last heard from."""
    stale = LiveConnection.objects.filter(last_seen__lt=(now or timezone.now()) - STALE_CONNECTION)
    heard: dict[Any, dt.datetime] = {}
    for match_id, last_seen in stale.exclude(seat_name="").values_list("match_id", "last_seen"):
        heard[match_id] = max(last_seen, heard.get(match_id, last_seen))
    deleted, _ = stale.delete()
    for match_id, at in heard.items():
        seated = LiveConnection.objects.filter(match_id=match_id).exclude(seat_name="")
        presence_log.record(match_id, frozenset(seated.values_list("seat_name", flat=True)), at)
    return deleted


class InProcessTimers:
    """A heap of (deadline, match, version) served by one daemon thread."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, str, int]] = []
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()

    def start(self) -> None:
        with self._wake:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stopped = threading.Event()
            self._thread = threading.Thread(
                target=self._run, args=(self._stopped,), name="cacho-turn-timers", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        """End the thread after its current sweep: for a process about to close or drop its
        database (the test run's end), which a later sweep would otherwise query. A deadline
        scheduled afterwards starts it again."""
        with self._wake:
            thread, self._thread = self._thread, None
            self._stopped.set()
            self._wake.notify_all()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)

    def schedule(self, match_id: Any, version: int, deadline_ms: int) -> None:
        self.start()
        with self._wake:
            heapq.heappush(self._heap, (deadline_ms, str(match_id), version))
            self._wake.notify()

    def _next_wait(self) -> float:
        if not self._heap:
            return SWEEP_EVERY_SECONDS
        return max(0.0, min(SWEEP_EVERY_SECONDS, (self._heap[0][0] - now_ms()) / 1000))

    def _run(self, stopped: threading.Event) -> None:
        while True:
            with self._wake:
                if not stopped.is_set():
                    self._wake.wait(timeout=self._next_wait())
                if stopped.is_set():
                    connections.close_all()  # this thread's own
                    return
                due: list[tuple[int, str, int]] = []
                while self._heap and self._heap[0][0] <= now_ms():
                    due.append(heapq.heappop(self._heap))
            try:
                for _deadline, match_id, version in due:
                    expire_turn(match_id, version)
                sweep_deadlines()
            except Exception:  # the thread must survive anything a match throws at it
                logger.exception("in-process turn timers")
            finally:
                close_old_connections()


TIMERS = InProcessTimers()
