"""Embedded mode's turn timers (cacho/live/timers.py) stop on demand, as a process does before
it drops its database (the test run's end), and start again at the next deadline."""

from __future__ import annotations

import threading
import uuid

from cacho.live.timers import InProcessTimers
from cacho.process.clock import now_ms


def timer_threads() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if thread.name == "cacho-turn-timers"}


def test_the_timers_stop_and_start_again_at_the_next_deadline(committed_db: None) -> None:
    timers = InProcessTimers()
    others = timer_threads()  # the process's own timers, which this test leaves alone

    timers.schedule(uuid.uuid4(), 1, now_ms() + 60_000)
    (first,) = timer_threads() - others
    assert first.is_alive()
    timers.stop()
    assert not first.is_alive()
    assert timer_threads() - others == set()

    timers.schedule(uuid.uuid4(), 1, now_ms() + 60_000)
    (second,) = timer_threads() - others
    assert second is not first and second.is_alive()
    timers.stop()
    assert not second.is_alive()
    timers.stop()  # stopped already: nothing to do
