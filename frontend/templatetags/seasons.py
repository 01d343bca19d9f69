"""The seasons of a club, for its page (`{% club_seasons club_id as seasons %}`: their
names and dates only), and whether the viewer may create one (`{% manages_club club_id %}`)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.clubs.roles import has_role
from tournaments.models import Membership
from tournaments.seasons.models import Season

register = template.Library()


@register.simple_tag
def club_seasons(club_id: int) -> list[Any]:
    return list(Season.objects.filter(club_id=club_id).order_by("-starts_on", "name"))


@register.simple_tag(takes_context=True)
def manages_club(context: Any, club_id: int) -> bool:
    request = context.get("request")
    return has_role(getattr(request, "user", None), club_id, Membership.MANAGERS)
