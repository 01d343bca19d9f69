"""Clubs, members and roles: who may do what in a club.

A user holds any number of roles in a club (one `Membership` row each). Owners and
organisers manage tournaments; referees check entries in and withdraw them; scorekeepers
keep score at physical tables; players register themselves. Creating a club and changing
its members is `members`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import Forbidden
from tournaments.models import Club, Membership

# Who runs the desk, the console and the clock: the club's managers and its referees.
DESK = (*Membership.MANAGERS, Membership.REFEREE)


def roles_of(user: Any, club: Club | int) -> set[str]:
    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    club_id = club.pk if isinstance(club, Club) else club
    return set(Membership.objects.filter(club_id=club_id, user=user).values_list("role", flat=True))


def has_role(user: Any, club: Club | int, roles: Sequence[str]) -> bool:
    """Only a membership grants a role: site staff and superusers act in a club (as its
    referee, its organiser…) when they hold the role there, like anyone else. Django's
    admin checks their staff status on its own."""
    return bool(roles_of(user, club) & set(roles))


def require_role(user: Any, club: Club | int, roles: Sequence[str]) -> None:
    if not has_role(user, club, roles):
        raise Forbidden(_("You do not have a role in this club that allows this."))
