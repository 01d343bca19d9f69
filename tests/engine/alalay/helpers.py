"""Shared helpers for the Alalay engine tests."""

from __future__ import annotations

import random
from typing import Any

from cacho.engine.alalay import (
    Command,
    Event,
    Reroll,
    State,
    Throw,
    apply,
    legal_actions,
)


def record(turns: list[dict[str, Any]], players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "cacho-match/1",
        "game": "alalay",
        "ruleset": "alalay",
        "players": ["P0"] if players is None else players,
        "turns": turns,
    }
    data.update(extra)
    return data


def play(state: State, *commands: Command) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for command in commands:
        state, more = apply(state, command)
        events += more
    return state, events


def random_step(state: State, rng: random.Random, abandon_rate: float = 0.0) -> Command:
    """A random legal command for the entry on turn (dice from `rng`)."""
    assert state.turn is not None
    entry = state.entries[state.turn.seat].name
    legal = legal_actions(state, entry)
    if abandon_rate and rng.random() < abandon_rate:
        live = [e.name for e, left in zip(state.entries, state.left, strict=True) if not left]
        from cacho.engine.alalay import Abandon

        return Abandon(rng.choice(live))
    if legal.throw:
        return Throw(entry, tuple(rng.randint(1, 6) for _ in range(5)))
    options: list[Command] = [
        c for c in legal.commands() if type(c).__name__ in ("TurnDie", "Score", "Scratch")
    ]
    if legal.reroll and (not options or rng.random() < 0.6):
        first = list(legal.dice)
        kept = [d for d in first if rng.random() < 0.5]
        if len(kept) == 5:
            kept.pop(rng.randrange(5))
        rng.shuffle(kept)
        return Reroll(entry, tuple(kept), tuple(rng.randint(1, 6) for _ in range(5 - len(kept))))
    assert options, legal
    return rng.choice(options)
