"""The beat's scheduler: Celery's persistent one, which sleeps until an entry is due
instead of spinning the last 10 ms before it.

Celery's scheduler wakes 10 ms early (`adjust`: a delay less its drift of 10 ms). Woken
early, an entry is not due yet, and the few milliseconds it still asks for, less the same
10 ms, became a negative delay, which the beat's loop does not sleep on: it ticked 150
to 200 times in the last 10 ms before each due entry. With the deadline sweep due every
second that was 8 to 9 ms of CPU a second, most of an idle worker's cost. Here a delay
that the drift would make negative is slept as it is.
"""

from __future__ import annotations

from celery.beat import PersistentScheduler


class Scheduler(PersistentScheduler):  # type: ignore[misc]
    def adjust(self, n: float | None, drift: float = -0.010) -> float | None:
        if n and n > 0:
            early = n + drift
            return early if early > 0 else n
        return n
