"""`{% nav_items as nav %}`: which of the site menu's role pages the viewer may use.

A menu item the viewer cannot use is a dead end, so the menu shows it only to the roles
that page serves (the pages and the API still check every request on their own)."""

from __future__ import annotations

from typing import Any

from django import template

from cacho.talk.policy import MODERATE
from tournaments.clubs.roles import DESK
from tournaments.models import Membership
from tournaments.services.physical import KEEPERS

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_items(context: template.Context) -> dict[str, bool]:
    request = context.get("request")
    user: Any = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"organise": False, "scorekeeper": False, "disputes": False, "talk": False}
    roles = set(Membership.objects.filter(user=user).values_list("role", flat=True))
    return {
        "organise": bool(roles & set(DESK)),
        "scorekeeper": bool(roles & set(KEEPERS)),
        "disputes": bool(roles & set(Membership.REFEREES)),
        # Reported table talk: the club's referees, and the site moderators (docs/table-talk.md).
        "talk": bool(roles & set(Membership.REFEREES)) or user.has_perm(MODERATE),
    }
