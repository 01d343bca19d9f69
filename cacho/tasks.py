"""Turn timers: the seam between the write path and Celery.

`schedule_deadline(match_id, version, deadline_ms)` is called after commit. With
Celery (REDIS_URL set) it enqueues `expire_turn` with an ETA; embedded, a daemon thread
of the serving process keeps the deadlines (`cacho.live.timers`).
Tasks take ids, never model instances, and are idempotent: `services.matches.expire_turn`
acts only if the match is still at the version the timer was made for.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from celery import shared_task
from django.conf import settings

EARLY_RETRY_MS = 5


@shared_task(name="cacho.expire_turn", ignore_result=True)
def expire_turn(match_id: str, version: int) -> int | None:
    """Play the timed-out turn of `match_id` if it is still at `version`. An ETA that
    fires a little early re-schedules itself for the deadline."""
    from cacho.services.matches import expire_turn as expire
    from cacho.services.matches import pending_deadline

    result = expire(match_id, version)
    if result is None:
        deadline = pending_deadline(match_id, version)
        if deadline is not None:
            schedule_deadline(match_id, version, deadline + EARLY_RETRY_MS)
        return None
    return result.version


def schedule_deadline(match_id: Any, version: int, deadline_ms: int) -> None:
    timers = getattr(settings, "CACHO_TIMERS", "in-process")
    if timers == "off":  # tests that drive `expire_turn` themselves
        return
    if timers != "celery":
        from cacho.live.timers import TIMERS

        TIMERS.schedule(match_id, version, deadline_ms)  # embedded: a thread of this process
        return
    eta = dt.datetime.fromtimestamp(deadline_ms / 1000, tz=dt.UTC)
    expire_turn.apply_async((str(match_id), version), eta=eta)
