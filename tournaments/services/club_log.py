"""A club's log: every change of its members, roles, invitations and details, append-only
and hash-chained per club like the tournament log (`log`): the same hash over canonical
JSON, the head kept on the club row, whose lock the caller holds.

A club has no tournament log of its own to say who made whom a referee; this one does, and
the club's management page shows it.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Club, ClubEvent
from tournaments.services.errors import NotFound
from tournaments.services.log import event_hash

CLUB_CREATED = "club-created"
CLUB_UPDATED = "club-updated"
MEMBER_ADDED = "member-added"
ROLES_CHANGED = "roles-changed"
MEMBER_REMOVED = "member-removed"
INVITED = "invited"
INVITATION_CANCELLED = "invitation-cancelled"
INVITATION_ACCEPTED = "invitation-accepted"


def locked_club(club_id: Any) -> Club:
    try:
        return Club.objects.select_for_update().get(pk=int(club_id))
    except (Club.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFound(_("No such club.")) from exc


def record(club: Club, type_: str, payload: dict[str, Any], actor: str = "") -> ClubEvent:
    """Append one event after the club's head (the caller holds the club's row lock)."""
    at = timezone.now()
    version = club.version + 1
    digest = event_hash(club.head_hash, club.pk, version, type_, payload, actor, at)
    event = ClubEvent.objects.create(
        club=club, version=version, type=type_, payload=payload, actor=actor, recorded_at=at, hash=digest
    )
    club.version, club.head_hash = version, digest
    Club.objects.filter(pk=club.pk).update(version=version, head_hash=digest)
    return event


def verify_chain(club_id: int) -> bool:
    previous = ""
    for expected, event in enumerate(ClubEvent.objects.filter(club_id=club_id).order_by("version"), 1):
        digest = event_hash(
            previous, club_id, event.version, event.type, event.payload, event.actor, event.recorded_at
        )
        if event.version != expected or digest != event.hash:
            return False
        previous = digest
    return True
