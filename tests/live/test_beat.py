"""The beat's loop, run as `celery beat` runs it (Celery's `beat.Service`) with the
project's schedule and scheduler: it sends each entry when due and sleeps in between,
where Celery's own scheduler spun through the last 10 ms before each due entry
(project/backends/beat.py)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from celery import beat

from project.backends.beat import Scheduler
from project.celery import app


class Watched(Scheduler):
    """The project's scheduler, its ticks counted and its sends recorded instead of
    published (a broker's queue is not what this test is about)."""

    ticks = 0
    sent: list[tuple[str, float]] = []

    def tick(self, *args: Any, **kwargs: Any) -> float:
        type(self).ticks += 1
        return super().tick(*args, **kwargs)

    def apply_async(self, entry: Any, producer: Any = None, advance: bool = True, **kwargs: Any) -> None:
        type(self).sent.append((entry.name, time.monotonic()))


def test_the_beat_sleeps_between_due_entries(tmp_path: Path) -> None:
    assert app.conf.beat_scheduler == "project.backends.beat:Scheduler"
    assert app.conf.beat_schedule["cacho-sweep-deadlines"]["schedule"] == 1.0
    Watched.ticks, Watched.sent = 0, []
    service = beat.Service(app, scheduler_cls=Watched, schedule_filename=str(tmp_path / "beat"))
    loop = threading.Thread(target=service.start, daemon=True)
    started = time.monotonic()
    loop.start()

    def sweeps() -> list[float]:
        return [at - started for name, at in Watched.sent if name == "cacho-sweep-deadlines"]

    while len(sweeps()) < 3:  # the deadline sweep, once a second
        assert time.monotonic() - started < 10, Watched.sent
        time.sleep(0.05)
    service.stop()
    loop.join(timeout=5)

    # Three seconds' sweeps in about three seconds (a loaded machine may wake the loop late).
    assert 1.5 < sweeps()[2] - sweeps()[0] < 4, sweeps()
    # A few ticks a sent entry (Celery's own scheduler: 150 to 200 a second, 670 in 4.5 s).
    assert Watched.ticks <= 4 * len(Watched.sent) + 10, (Watched.ticks, len(Watched.sent))
