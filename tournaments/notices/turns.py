"""The "it is your turn" notice: the match server tells (`CACHO_TURN_STARTED`, after the
commit, held a second with PostgreSQL) who is on turn; a player whose match page is hidden
(`HiddenTab`) is told, by the channels they chose for this kind (push by default)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from cacho.models import Seat
from tournaments.notices import kinds
from tournaments.notices.delivery import notify
from tournaments.notices.models import HiddenTab


def turn_started(match_id: Any, version: int, player: str) -> None:
    hidden = HiddenTab.objects.filter(match_id=match_id)
    if not hidden.exists():  # the usual case: one indexed read
        return
    user_id = Seat.objects.filter(match_id=match_id, name=player).values_list("user_id", flat=True).first()
    if user_id is None or not hidden.filter(user_id=user_id).exists():
        return
    link = reverse("frontend:match", args=[str(match_id)])
    notify([user_id], kinds.YOUR_TURN, f"turn:{match_id}:{version}", {"match": str(match_id)}, link)
