"""The director and the referees over the appeal period between rounds
(`services.appeals`): the director draws the next round now, without appeals
(`draw_now`); a referee holds the draw while a player writes a dispute (`hold`) and lets
it go (`release`). Each is an event of the tournament's log; a refusal stores nothing."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from tournaments.clubs.roles import DESK, require_role
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Membership, Round, Tournament
from tournaments.services import log
from tournaments.services.appeals import disputed
from tournaments.services.lifecycle import advance, advance_tournament, locked

DRAW_HELD = "draw-held"
DRAW_RELEASED = "draw-released"
APPEALS_WAIVED = "appeals-waived"  # the director drew the next round before the period ended


def _latest(tournament: Tournament) -> Round:
    rnd = tournament.rounds.order_by("-number").select_related("stage").first()
    if rnd is None:
        raise TournamentError("round-none", _("No round has been drawn yet."), 409)
    return Round.objects.select_for_update().select_related("stage").get(pk=rnd.pk)


def _round_tournament(round_id: Any) -> int:
    try:
        found = Round.objects.filter(pk=int(round_id)).values_list("tournament_id", flat=True).first()
    except (TypeError, ValueError):
        found = None
    if found is None:
        raise NotFound(_("No such round."))
    return int(found)


def draw_now(tournament_id: Any, by: Any) -> int | None:
    """The director draws the next round now, without waiting for appeals. Refused while
    the round plays (`round-not-finished`), while a referee holds the draw (`draw-held`)
    or a table of the round is under dispute (`draw-disputed`). The round drawn, or None
    when the tournament finished instead."""
    with transaction.atomic():
        tournament = locked(_tournament_pk(tournament_id))
        require_role(by, tournament.club_id, DESK)
        if tournament.status != Tournament.RUNNING:
            raise TournamentError("tournament-not-running", _("The tournament is not running."), 409)
        rnd = _latest(tournament)
        if rnd.status != Round.FINISHED:
            raise TournamentError(
                "round-not-finished", _("The round is still being played: nothing to draw yet."), 409
            )
        if rnd.draw_held_at is not None:
            raise TournamentError(
                "draw-held", _("A referee holds the draw while a dispute is written: release it first."), 409
            )
        if disputed(rnd):
            raise TournamentError(
                "draw-disputed", _("A table of this round is under dispute: rule on it first."), 409
            )
        waived = rnd.draw_at is not None and rnd.draw_at > timezone.now()
        rnd.draw_at = None
        rnd.save(update_fields=["draw_at"])
        if waived:
            log.record(tournament, APPEALS_WAIVED, {"round": rnd.number}, log.actor_of(by))
        return advance(tournament.pk)


def hold(round_id: Any, by: Any, reason: str = "") -> Round:
    """A referee holds the next round's draw (a player is writing a dispute)."""
    return _hold_or_release(round_id, by, holding=True, reason=(reason or "").strip()[:500])


def release(round_id: Any, by: Any) -> Round:
    """The hold ends; the next round is drawn if its period is over."""
    return _hold_or_release(round_id, by, holding=False, reason="")


def _hold_or_release(round_id: Any, by: Any, *, holding: bool, reason: str) -> Round:
    tournament_id = _round_tournament(round_id)
    with transaction.atomic():
        tournament = locked(tournament_id)
        require_role(by, tournament.club_id, Membership.REFEREES)
        rnd = Round.objects.select_for_update().get(pk=int(round_id))
        if Round.objects.filter(tournament=tournament, number__gt=rnd.number).exists():
            raise TournamentError("draw-done", _("The next round has been drawn already."), 409)
        if tournament.status != Tournament.RUNNING:
            raise TournamentError("tournament-not-running", _("The tournament is not running."), 409)
        if holding == (rnd.draw_held_at is not None):
            raise TournamentError(
                "draw-already-held" if holding else "draw-not-held",
                _("The draw is held already.") if holding else _("The draw is not held."),
                409,
            )
        rnd.draw_held_at = timezone.now() if holding else None
        rnd.save(update_fields=["draw_held_at"])
        payload: dict[str, Any] = {"round": rnd.number}
        if holding:
            payload["reason"] = reason
        log.record(tournament, DRAW_HELD if holding else DRAW_RELEASED, payload, log.actor_of(by))
        if not holding and rnd.status == Round.FINISHED:
            transaction.on_commit(lambda: advance_tournament.delay(tournament_id))
    return rnd


def _tournament_pk(value: Any) -> int:
    if not plain_digits(value):
        raise NotFound(_("No such tournament."))
    return int(value)


__all__ = ["APPEALS_WAIVED", "DRAW_HELD", "DRAW_RELEASED", "draw_now", "hold", "release"]
