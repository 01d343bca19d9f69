"""An account by the username someone typed, refused with `user-unknown` when there is none
(a leaf: entries, members and teams all look accounts up so)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError


def user_by_username(username: Any) -> Any:
    username = str(username or "").strip()
    user = get_user_model().objects.filter(username=username).first() if username else None
    if user is None:
        raise TournamentError("user-unknown", _("No account has that username."))
    return user
