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


def legal_bidding_move(state: Any, rng: Any) -> tuple[str, dict[str, Any]]:
    """A random legal command for the player on turn of a bidding match."""
    from cacho.engine import bidding

    player = state.config.players[state.round.to_act]
    legal = bidding.legal_actions(state, player)
    options: list[dict[str, Any]] = []
    if "bid" in legal["actions"]:
        for face, low in legal["bid_minimums"].items():
            if low is not None:
                options.append({"type": "bid", "quantity": low, "face": int(face)})
    for action in legal["actions"]:
        if action in ("dudo", "calza", "paso", "salpicon", "deny"):
            options.append({"type": action})
    return player, rng.choice(options)


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
