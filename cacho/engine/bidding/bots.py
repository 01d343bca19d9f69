"""A player that picks random legal moves: for tests, benchmarks and demo tables.

Randomness is an input (any object with `randrange` and `random`, such as
`random.Random`), so the engine itself stays deterministic.
"""

from __future__ import annotations

from typing import Protocol

from cacho.engine.bidding.commands import (
    AnnouncePaso,
    AnnounceSalpicon,
    CallCalza,
    CallDudo,
    Command,
    DenySalpicon,
    PlaceBid,
    StartRound,
    TimeOut,
)
from cacho.engine.bidding.legal import legal_actions
from cacho.engine.bidding.state import MatchState


class Chooser(Protocol):
    def randrange(self, start: int, stop: int, /) -> int: ...

    def random(self) -> float: ...


def roll(state: MatchState, chooser: Chooser) -> StartRound:
    return StartRound(
        tuple(tuple(chooser.randrange(1, 7) for _ in range(count)) for count in state.dice_counts)
    )


def random_command(
    state: MatchState, chooser: Chooser, *, timeout_rate: float = 0.05, raise_weight: int = 2
) -> Command:
    """A legal command for the player on turn (or the dice of the next round).

    `raise_weight` is how many times a raise counts against each other legal action:
    higher values make longer rounds."""
    current = state.round
    if current is None:
        return roll(state, chooser)
    player = state.config.players[current.to_act]
    if chooser.random() < timeout_rate:
        return TimeOut(player)
    legal = legal_actions(state, player)
    options: list[Command] = []
    minimums: dict[int, int | None] = legal["bid_minimums"] or {}
    maximums: dict[int, int | None] = legal["bid_maximums"] or {}
    biddable = [(face, least) for face, least in minimums.items() if least is not None]
    if biddable:
        face, least = biddable[chooser.randrange(0, len(biddable))]
        top = min(maximums[face] or least, least + 2)
        quantity = chooser.randrange(least, top + 1)
        direction = None
        if "directions" in legal:
            direction = "cw" if chooser.random() < 0.5 else "ccw"
        chosen = PlaceBid(player, quantity, face, direction=direction)  # type: ignore[arg-type]
        options.extend([chosen] * raise_weight)
    singles: dict[str, Command] = {
        "dudo": CallDudo(player),
        "calza": CallCalza(player),
        "paso": AnnouncePaso(player),
        "salpicon": AnnounceSalpicon(player),
        "deny": DenySalpicon(player),
    }
    options.extend(command for name, command in singles.items() if name in legal["actions"])
    return options[chooser.randrange(0, len(options))]
