"""A club's log: every change of its members, roles, invitations and details, append-only
and hash-chained per club by the tournament log's primitive (`tournaments.chained_log`), the
head kept on the club row, whose lock the caller holds.

A club has no tournament log of its own to say who made whom a referee; this one does, and
the club's management page shows it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import NotFound
from tournaments.models import Club, ClubEvent

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
    return ClubEvent.record(club, type_, payload, actor)


def verify_chain(club_id: int) -> bool:
    return ClubEvent.verify(club_id)[0]
