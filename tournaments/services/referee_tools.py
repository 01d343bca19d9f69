"""What a club with several referees needs around a dispute: who handles it (claimed by a
referee, or assigned by one to another), notes only the referees read, and a ruled
dispute appealed (by a party) or revised (by a referee) as a new dispute linked to it.

Claims and assignments are events of the tournament log (the public trail says who
handles the dispute); the notes are rows of their own (`RefereeNote`), never in the log,
which anyone may export. A refusal stores nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.appeals.models import RefereeNote
from tournaments.errors import TournamentError
from tournaments.models import Dispute
from tournaments.services import disputes, log
from tournaments.services.lifecycle import locked

DISPUTE_ASSIGNED = "dispute-assigned"
DISPUTE_APPEALED = "dispute-appealed"  # in the first dispute's trail: the appeal filed on it


def claim(dispute_id: Any, by: Any) -> Dispute:
    """The calling referee takes the dispute."""
    return assign(dispute_id, by, by.get_username() if by is not None else None)


def assign(dispute_id: Any, by: Any, referee: str | None) -> Dispute:
    """A referee hands the dispute to a referee of the club (`referee` a username), or
    leaves it to nobody (None)."""
    dispute = disputes.visible_to_referee(dispute_id, by)
    target = None
    if referee:
        target = get_user_model().objects.filter(username=referee).first()
        if target is None or not disputes.is_referee(target, dispute.tournament):
            raise TournamentError(
                "dispute-referee-unknown", _("Assign the dispute to one of the club's referees.")
            )
    with transaction.atomic():
        tournament = locked(dispute.tournament_id)
        dispute = Dispute.objects.select_for_update().select_related("tournament", "table").get(pk=dispute.pk)
        if dispute.status != Dispute.OPEN:
            raise TournamentError("dispute-closed", _("This dispute is closed."), 409)
        if dispute.assigned_to_id == (target.pk if target else None):
            return dispute
        dispute.assigned_to = target
        dispute.save(update_fields=["assigned_to"])
        payload = {"dispute": dispute.pk, "referee": target.get_username() if target else None}
        log.record(tournament, DISPUTE_ASSIGNED, payload, log.actor_of(by))
        disputes.announce(dispute)
    return dispute


def notes(dispute_id: Any, by: Any) -> list[RefereeNote]:
    dispute = disputes.visible_to_referee(dispute_id, by)
    return list(RefereeNote.objects.filter(dispute=dispute).select_related("author"))


def add_note(dispute_id: Any, by: Any, text: str) -> RefereeNote:
    """A note for the club's referees only (any time, open or closed)."""
    dispute = disputes.visible_to_referee(dispute_id, by)
    text = (text or "").strip()
    if not text:
        raise TournamentError("comment-empty", _("Write something first."))
    if len(text) > disputes.TEXT_LENGTH:
        raise TournamentError("dispute-text-too-long", _("Say it in at most 2000 characters."))
    return RefereeNote.objects.create(dispute=dispute, author=by, text=text)


def appeal(dispute_id: Any, by: Any, text: str, reason: str | None = None) -> Dispute:
    """A new dispute on the same table and pin, linked to the ruled one: a party appeals
    the ruling, a referee revises it. Within the table's appeal window, like any filing;
    one open appeal at a time."""
    first = disputes.visible(dispute_id, by)
    if first.status != Dispute.RULED:
        raise TournamentError("dispute-not-ruled", _("Only a ruled dispute can be appealed."), 409)
    if Dispute.objects.filter(appeal_of=first, status=Dispute.OPEN).exists():
        raise TournamentError("dispute-appealed-already", _("This ruling is already under appeal."), 409)
    with transaction.atomic():
        second = disputes.file_dispute(
            first.match_id,
            by,
            reason=reason or first.reason,
            text=text,
            round=first.pinned_round,
            turn=first.pinned_turn,
            version=first.pinned_version,
            appeal_of=first,
        )
        tournament = locked(first.tournament_id)
        log.record(tournament, DISPUTE_APPEALED, {"dispute": first.pk, "appeal": second.pk}, log.actor_of(by))
    return second


__all__ = ["DISPUTE_APPEALED", "DISPUTE_ASSIGNED", "add_note", "appeal", "assign", "claim", "notes"]
