"""The bot of the bidding games: one policy for the live bots, the tournament bots, the
benches and the tests.

`bot_payload(legal, rng)` answers with the payload a player's client would send, from
that player's legal actions (`legal_actions(state, player)`, the `legal` of their view,
as it arrives over the wire or not): a raise (`raise_weight` times as likely as each
other action) of a random face by up to two above its least quantity, in a random
direction where the starter chooses one, or one of dudo, calza, paso, salpicón and
deny where legal. It never abandons. Randomness is an input (`BotRandom`), so the
engine stays deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cacho.engine.bidding.commands import (
    AnnouncePaso,
    AnnounceSalpicon,
    CallCalza,
    CallDudo,
    Command,
    DenySalpicon,
    PlaceBid,
    PlayerCommand,
    StartRound,
    TimeOut,
)
from cacho.engine.bidding.legal import legal_actions
from cacho.engine.bidding.state import MatchState
from cacho.engine.bots import BotRandom, pick

Chooser = BotRandom  # the name callers of `random_command` know

ANSWERS: dict[str, Callable[[str], PlayerCommand]] = {
    "dudo": CallDudo,
    "calza": CallCalza,
    "paso": AnnouncePaso,
    "salpicon": AnnounceSalpicon,
    "deny": DenySalpicon,
}


def _faces(limits: Mapping[Any, int | None] | None) -> dict[int, int]:
    # Over the wire the faces are JSON object keys: strings.
    return {int(face): value for face, value in (limits or {}).items() if value is not None}


def bot_payload(legal: Mapping[str, Any], rng: BotRandom, *, raise_weight: int = 2) -> dict[str, Any] | None:
    """The bot's next payload for the player these legal actions are for (None: not on turn)."""
    if not legal.get("on_turn"):
        return None
    actions = legal.get("actions") or []
    choices: list[dict[str, Any]] = []
    least = _faces(legal.get("bid_minimums"))
    most = _faces(legal.get("bid_maximums"))
    if "bid" in actions and least:
        face = pick(rng, sorted(least))
        top = min(most.get(face, least[face]), least[face] + 2)
        bid: dict[str, Any] = {"type": "bid", "quantity": rng.randrange(least[face], top + 1), "face": face}
        directions = legal.get("directions")
        if directions:
            bid["direction"] = pick(rng, list(directions))
        choices += [bid] * raise_weight
    choices += [{"type": name} for name in ANSWERS if name in actions]
    return pick(rng, choices) if choices else None


def command_of_payload(player: str, payload: Mapping[str, Any]) -> PlayerCommand:
    """The command a bot payload stands for (the service parses it with `Game.parse_command`)."""
    if payload["type"] == "bid":
        return PlaceBid(player, payload["quantity"], payload["face"], payload.get("direction"))
    return ANSWERS[payload["type"]](player)


def roll(state: MatchState, chooser: BotRandom) -> StartRound:
    return StartRound(
        tuple(tuple(chooser.randrange(1, 7) for _ in range(count)) for count in state.dice_counts)
    )


def random_command(
    state: MatchState, chooser: BotRandom, *, timeout_rate: float = 0.05, raise_weight: int = 2
) -> Command:
    """The bot's command for the player on turn, or the dice of the next round; with
    `timeout_rate` the turn runs out instead (tests and benches play the clock too)."""
    current = state.round
    if current is None:
        return roll(state, chooser)
    player = state.config.players[current.to_act]
    if chooser.random() < timeout_rate:
        return TimeOut(player)
    payload = bot_payload(legal_actions(state, player), chooser, raise_weight=raise_weight)
    assert payload is not None, "the player on turn always has a legal action"
    return command_of_payload(player, payload)
