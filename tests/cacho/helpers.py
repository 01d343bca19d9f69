"""Small helpers for the match-server tests: play commands through the one write path."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from asgiref.sync import async_to_sync

from cacho.engine.games import game_for
from cacho.models import Match
from cacho.services import matches

_ids = itertools.count(1)


def command_id() -> str:
    return f"cmd-{next(_ids)}"


def state_of(match: Match | Any) -> Any:
    match_id = match.pk if isinstance(match, Match) else match
    fresh = Match.objects.get(pk=match_id)
    return matches.load_state(fresh, game_for(fresh.ruleset))


def play(match: Match, seat: str, **payload: Any) -> matches.Result:
    return matches.submit(match.pk, seat, payload, command_id())


def bot_move(state: Any, rng: Any) -> tuple[str, dict[str, Any]]:
    """The player on turn and the payload the engine's one bot policy sends for them
    (`Game.bot_payload`): what the live bots, the demo and the benches play too."""
    game = game_for(state.rules.ruleset)
    player = game.to_act(state)
    assert player is not None, "nobody is on turn"
    payload = game.bot_payload(state, player, rng)
    assert payload is not None, "the player on turn always has a move"
    return player, payload


# The name the tests of other branches still call.
legal_bidding_move = bot_move


def version_of(match: Match | Any) -> int:
    match_id = match.pk if isinstance(match, Match) else match
    version: int = Match.objects.values_list("version", flat=True).get(pk=match_id)
    return version


# ---------------------------------------------------------------- notices


def wire(version: int) -> dict[str, Any]:
    return {"v": version, "t": "bid_made", "payload": {}, "public": {}, "at": 0, "hash": str(version)}


def notice(group: str, version: int) -> dict[str, Any]:
    return {"type": "match.events", "group": group, "version": version, "events": [wire(version)]}


def receive(layer: Any, channel: str, timeout: float = 2.0) -> dict[str, Any]:
    async def one() -> dict[str, Any]:
        return await asyncio.wait_for(layer.receive(channel), timeout)  # type: ignore[no-any-return]

    return async_to_sync(one)()
