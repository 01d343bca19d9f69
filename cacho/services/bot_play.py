"""A bot's move through the one write path (`submit`), as its player's client would send
it: the game's policy of the seat's strength (`Game.bot_payload`) on the state at the
version the move was scheduled for. Idempotent: the command id is the version's, so a
repeat returns the first result, and a match that moved on is left alone."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any

from cacho.engine.errors import RuleError
from cacho.engine.games import game_for
from cacho.models import Match, Seat
from cacho.services.bot_turns import bot_seats
from cacho.services.matches import Result, VersionConflict, load_state, submit

logger = logging.getLogger(__name__)

# The policies draw from the system's source: a bot's next bluff is not computable from
# anything public (a seed made of the match id and version would be).
_RANDOM = random.SystemRandom()


def play_bot_turn(match_id: Any, version: int) -> Result | None:
    """The bot on turn in `match_id` moves, if the match is still at `version`."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.STATUS_LIVE or match.version != version:
        return None
    game = game_for(match.ruleset)
    state = load_state(match, game)
    seat = game.to_act(state)
    strength = bot_seats(match.pk).get(seat) if seat is not None else None
    if seat is None or not strength:
        return None
    payload = game.bot_payload(state, seat, _RANDOM, strength)
    if payload is None:
        return None
    try:
        return submit(match.pk, seat, payload, f"bot-{version}", version, f"bot:{strength}")
    except (VersionConflict, RuleError):
        logger.info("bot move of match %s at version %s not played", match_id, version, exc_info=True)
        return None


def play_bots(match_id: Any, limit: int = 10_000) -> int:
    """Every bot move in a row until a person is on turn or the match ends (tests, demos
    with `CACHO_BOTS = "off"`); the moves made."""
    moved = 0
    while moved < limit:
        version = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
        if version is None or play_bot_turn(match_id, version) is None:
            return moved
        moved += 1
    return moved


def mark_bots(match_id: Any, bots: Mapping[int, str]) -> None:
    """Bots of these strengths play these seats (by index) of a match just created: in the
    transaction that creates it, so that its first commit's work finds them (a match's
    bots never change afterwards). RuleError `unknown-bot-strength` for a strength its
    game has not."""
    match = Match.objects.get(pk=match_id)
    game = game_for(match.ruleset)
    for index, strength in bots.items():
        if strength not in game.bot_strengths:
            raise RuleError("unknown-bot-strength", f"{game.name} has no bot of strength {strength!r}")
        Seat.objects.filter(match=match, index=index, user__isnull=True).update(bot=strength)
