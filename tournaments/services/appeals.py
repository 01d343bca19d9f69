"""The appeal period between rounds: once a round finishes, its tables can still be
disputed for `Tournament.round_appeal_minutes` before the next round is drawn from them
(0: drawn at once). The round keeps when the next one may be drawn (`Round.draw_at`);
`lifecycle.advance` draws only then, and not while a referee holds the draw or one of the
round's tables has an open dispute. A round whose end finishes the tournament waits for
nothing (the finished tournament's own window, `Tournament.appeal_minutes`, follows).

The timer is durable: the row says when the draw is due, a task is queued for that time
after commit (Celery's ETA with Redis), and the sweep (Celery beat, or the serving
process's thread embedded) calls the idempotent `advance` every few seconds, so a lost
task or a restart only delays the draw to the next sweep.

The director draws early and a referee holds the draw (`draw_control`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournaments.competition.errors import CompetitionError
from tournaments.models import Dispute, Round, Stage, Tournament
from tournaments.services import formats
from tournaments.services.stage_rows import stage_input


def default_minutes() -> int:
    """The period of a tournament created without one (setting CACHO_ROUND_APPEAL_MINUTES)."""
    return int(getattr(settings, "CACHO_ROUND_APPEAL_MINUTES", 2))


def draws_a_round(tournament: Tournament, stage: Stage) -> bool:
    """Whether advancing after `stage`'s latest round draws another round (in this stage or
    the next) rather than finishing the tournament: the same test as the draw's."""
    data = stage_input(tournament, stage)
    if len(data.active(data.entrants)) >= 2 or data.rounds:
        try:
            if formats.next_round(data) is not None:
                return True
        except CompetitionError:
            return True  # the draw itself will say what is wrong; the period runs meanwhile
    return tournament.stages.filter(number=stage.number + 1).exists()


def open_period(tournament: Tournament, rnd: Round) -> None:
    """The round has just finished (the caller holds the tournament's lock): the next round
    is due after the appeal period, if one will be drawn."""
    minutes = tournament.round_appeal_minutes
    if not minutes or not draws_a_round(tournament, rnd.stage):
        return
    rnd.draw_at = (rnd.finished_at or timezone.now()) + dt.timedelta(minutes=minutes)
    rnd.save(update_fields=["draw_at"])
    draw_at, tournament_id = rnd.draw_at, tournament.pk
    transaction.on_commit(lambda: _schedule(tournament_id, draw_at))


def _schedule(tournament_id: int, at: dt.datetime) -> None:
    if current_app.conf.task_always_eager:
        return  # eagerly the task would run now; the sweep draws when the time comes
    # by its name: the task lives in `lifecycle`, which draws through this module
    current_app.send_task("tournaments.advance_tournament", (tournament_id,), eta=at)


def disputed(rnd: Round) -> bool:
    return Dispute.objects.filter(table__round=rnd, status=Dispute.OPEN).exists()


def may_draw(rnd: Round, now: dt.datetime | None = None) -> bool:
    """The finished round lets the next one be drawn: its period is over, no referee holds
    the draw and none of its tables is under an open dispute."""
    now = now or timezone.now()
    if rnd.draw_held_at is not None or disputed(rnd):
        return False
    return rnd.draw_at is None or rnd.draw_at <= now


def view(rnd: Round, now: dt.datetime | None = None) -> dict[str, Any]:
    """What the end screen and the console show of the round's appeal period: when the next
    round is drawn (`draw_at`, null when at once or not yet known), whether a referee holds
    it, whether a dispute holds it, and the period's length."""
    now = now or timezone.now()
    tournament = rnd.tournament
    drawn = Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number).exists()
    waiting = rnd.status == Round.FINISHED and not drawn and tournament.status == Tournament.RUNNING
    return {
        "minutes": tournament.round_appeal_minutes,
        "next_drawn": drawn,
        "waiting": waiting,  # finished, the next round not drawn yet
        "draw_at": rnd.draw_at.isoformat() if waiting and rnd.draw_at else None,
        "remaining_ms": max(0, int((rnd.draw_at - now).total_seconds() * 1000))
        if waiting and rnd.draw_at
        else 0,
        "held": rnd.draw_held_at is not None and not drawn,
        "disputed": disputed(rnd) if not drawn else False,
        "server_time": now.isoformat(),
    }


__all__ = ["default_minutes", "disputed", "draws_a_round", "may_draw", "open_period", "view"]
