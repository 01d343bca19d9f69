"""Forfeits and bots: what a withdrawn entry has left forfeited, a bot's move played, and
which matches are under way."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from cacho.engine.errors import RuleError
from cacho.engine.games import game_for
from cacho.models import Event, Match, Seat
from cacho.services import matches as match_service


def _seat_name(match_id: Any, seat: int) -> str | None:
    return Seat.objects.filter(match_id=match_id, index=seat).values_list("name", flat=True).first()


def forfeit_seat(match_id: Any, seat: int, command_id: str) -> bool:
    """The player at seat `seat` leaves the match for good (an abandon); False when it
    cannot (the match is over or the seat has already left)."""
    name = _seat_name(match_id, seat)
    if name is None:
        return False
    try:
        match_service.submit(match_id, name, {"type": "abandon"}, command_id, actor="tournament")
    except (RuleError, match_service.VersionConflict, match_service.MatchNotFound):
        return False
    return True


def bot_move(match_id: Any, bots: Iterable[int], rng: random.Random, command_id: str) -> bool:
    """If a bot (by seat index) is on turn in this match, make it act through the write path."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.STATUS_LIVE:
        return False
    game = game_for(match.ruleset)
    state = match_service.load_state(match, game)
    seat = game.to_act(state)
    names = set(Seat.objects.filter(match=match, index__in=list(bots)).values_list("name", flat=True))
    if seat is None or seat not in names:
        return False
    payload = game.bot_payload(state, seat, rng)
    if payload is None:
        return False
    try:
        match_service.submit(match_id, seat, payload, command_id, expected_version=match.version)
    except match_service.VersionConflict:
        return False
    return True


# Events a match is created with (before anyone at the table has acted).
SETUP_EVENTS = ("match_started", "round_started")


def under_way_among(match_ids: Sequence[Any]) -> set[Any]:
    """The matches among `match_ids` in which something was played (an event beyond the
    setup), for the console's waiting / playing tables."""
    rows = Event.objects.filter(stream_id__in=list(match_ids)).exclude(type__in=SETUP_EVENTS)
    return set(rows.values_list("stream_id", flat=True).distinct())
