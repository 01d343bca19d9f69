"""Open tables' matches: the bots' strengths a ruleset offers, a casual table's match made,
who sits where, whether a bot plays, the match's status."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from cacho.engine.games import game_for
from cacho.models import Match, Seat
from cacho.services import matches as match_service
from cacho.services import players
from cacho.services.bot_play import mark_bots


def bot_strengths(ruleset: str) -> tuple[str, ...]:
    """The strengths of the game's bots, the plainest first."""
    return game_for(ruleset).bot_strengths


def create_open_match(
    ruleset: str,
    seat_names: Sequence[str],
    users: Sequence[Any],
    bots: dict[int, str],
    *,
    options: dict[str, Any],
    turn_seconds: int,
    created_by: Any,
) -> uuid.UUID:
    """A casual match for an open table, its accounts seated by their player ids: users
    (or None) take their seats and bots of
    their strengths play the seats in `bots`, all in the caller's transaction (the bots
    must be known before the first commit's work runs). The opener is drawn."""
    names = [
        name if user is None else players.seat_name(user)
        for name, user in zip(seat_names, users, strict=True)
    ]
    match = match_service.create_match(
        ruleset, names, options=options, turn_seconds=turn_seconds, created_by=created_by
    )
    for index, user in enumerate(users):
        if user is not None:
            match_service.take_seat(match.pk, index, user)
    mark_bots(match.pk, bots)
    return match.pk


def seat_users_by_index(match_id: Any) -> dict[int, Any]:
    """Seat index -> the id of the account holding it."""
    rows = Seat.objects.filter(match_id=match_id, user__isnull=False).values_list("index", "user_id")
    return dict(rows)


def has_bots(match_id: Any) -> bool:
    return Seat.objects.filter(match_id=match_id).exclude(bot="").exists()


def match_status(match_id: Any) -> str | None:
    """The match's status, `live` or `finished` (None: no such match)."""
    return Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
