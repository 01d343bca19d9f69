"""Where a turn's deadline goes once its append has committed.

The write path only says "match M at version V has a turn due at D"; what keeps that
deadline is the shell's, and the shell names it here at start-up (`register`): Celery
(`cacho.tasks`, an ETA task) when `CACHO_TIMERS` is "celery", the serving process's own
timer thread (`cacho.live.timers`) when it is "in-process"; "off" keeps none (tests
that drive `expire_turn` themselves). Whichever fires calls the write path's
`expire_turn`, which acts only if the match is still at V and D has passed: a late,
repeated or duplicated timer does nothing, and the periodic sweep catches a lost one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cacho.eventlog import store
from cacho.process.hot_settings import setting

Scheduler = Callable[[Any, int, int], None]  # (match id, version, deadline in ms)
_SCHEDULERS: dict[str, Scheduler] = {}


def register(mode: str, scheduler: Scheduler) -> None:
    """`scheduler` keeps the deadlines when `CACHO_TIMERS` is `mode` (apps' `ready`)."""
    _SCHEDULERS[mode] = scheduler


def mode() -> str:
    return str(setting("CACHO_TIMERS", "in-process"))


def schedule(match_id: Any, version: int, deadline_ms: int) -> None:
    current = mode()
    if current == "off":
        return
    try:
        scheduler = _SCHEDULERS[current]
    except KeyError:
        raise LookupError(f"no turn timers registered for CACHO_TIMERS={current!r}") from None
    scheduler(match_id, version, deadline_ms)


def schedule_if_current(match_id: Any, version: int, deadline_ms: int) -> bool:
    """`schedule`, unless the turn was played meanwhile, maybe through another server
    process (whose moves this process never sees): one indexed read is cheaper than a
    broker publish."""
    if not store.is_at(match_id, version):
        return False
    schedule(match_id, version, deadline_ms)
    return True


def pending(match_id: Any, version: int, at_ms: int) -> int | None:
    """The deadline of the turn still waiting at `version`, if it is after `at_ms`."""
    deadline = store.turn_deadline(match_id, version)
    return deadline if deadline is not None and deadline > at_ms else None
