"""Turn timers on Celery: the task that plays a timed-out turn, and the scheduler that the
write path's deadlines use when `CACHO_TIMERS` is "celery" (registered in `CachoConfig.ready`).

Tasks take ids, never model instances, and are idempotent: `services.matches.expire_turn`
acts only if the match is still at the version the timer was made for.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from celery import shared_task

from cacho.process.clock import now_ms
from cacho.services import deadlines
from cacho.services.bot_play import play_bot_turn
from cacho.services.matches import expire_turn as expire

EARLY_RETRY_MS = 5


@shared_task(name="cacho.expire_turn", ignore_result=True)
def expire_turn(match_id: str, version: int) -> int | None:
    """Play the timed-out turn of `match_id` if it is still at `version`. An ETA that
    fires a little early re-schedules itself for the deadline."""
    result = expire(match_id, version)
    if result is None:
        # Run eagerly (tasks in-process), an ETA is not waited for: a retry would run at
        # once, find the turn not due yet and retry again, deeper each time. The sweep of
        # deadlines plays that turn instead.
        deadline = None if expire_turn.request.is_eager else deadlines.pending(match_id, version, now_ms())
        if deadline is not None:
            schedule_deadline(match_id, version, deadline + EARLY_RETRY_MS)
        return None
    return result.version


def schedule_deadline(match_id: Any, version: int, deadline_ms: int) -> None:
    eta = dt.datetime.fromtimestamp(deadline_ms / 1000, tz=dt.UTC)
    expire_turn.apply_async((str(match_id), version), eta=eta)


@shared_task(name="cacho.play_bot_turn", ignore_result=True)
def bot_turn(match_id: str, version: int) -> int | None:
    """The bot on turn in `match_id` moves if the match is still at `version` (idempotent)."""
    result = play_bot_turn(match_id, version)
    return None if result is None else result.version


def schedule_bot(match_id: Any, version: int, delay_ms: int) -> None:
    bot_turn.apply_async((str(match_id), version), countdown=delay_ms / 1000)


@shared_task(name="cacho.anchor_heads", ignore_result=True)
def anchor_heads() -> int | None:
    """A signed digest of the match heads that moved (cacho.anchors): its id, or None."""
    from cacho.anchors.service import anchor_heads as anchor

    made = anchor()
    return made.pk if made is not None else None
