"""How a referee's ruling changes a bidding match's state: facts only, decided in
`bidding/rulings.py`. Shared by `evolve` and `replay` (which folds `evolve` from a
match's first ruling on)."""

from __future__ import annotations

from dataclasses import replace

from cacho.engine.bidding.ruling_events import (
    DiceChanged,
    MatchPaused,
    MatchResumed,
    ResultAwarded,
    RoundVoided,
    RulingUpheld,
)
from cacho.engine.bidding.state import MatchState


def evolve_ruling(state: MatchState, event: object) -> MatchState:
    """The state after a ruling `event` (TypeError for any other event)."""
    table, current = state.table, state.round
    if isinstance(event, MatchPaused):
        return MatchState(state.config, replace(table, paused=event.reason), current)
    if isinstance(event, MatchResumed):
        if current is not None:
            current = replace(current, deadline=event.deadline)
        return MatchState(state.config, replace(table, paused=None), current)
    if isinstance(event, RulingUpheld):
        return state
    if isinstance(event, RoundVoided):
        index = next(i for i, start in enumerate(table.round_starts) if start.number == event.round)
        restored = replace(
            table.round_starts[index].table,
            round_starts=table.round_starts[:index],
            rounds_started=table.rounds_started,  # round numbers (and dice scopes) never repeat
            paused=table.paused,
        )
        return MatchState(state.config, restored, None)
    if isinstance(event, DiceChanged):
        players = state.config.players
        seat = players.index(event.player)
        counts = list(table.dice_counts)
        counts[seat] += event.delta
        changed = replace(
            table,
            dice_counts=tuple(counts),
            calzo_disabled=event.calzo_disabled,
            next_starter=None if event.next_starter is None else players.index(event.next_starter),
            next_mode=event.next_mode or table.next_mode,
            direction=state.direction,
            timeouts=state.timeouts,
            winner=None if event.winner is None else players.index(event.winner),
            disqualified=table.disqualified | {seat} if event.ruling == "disqualify" else table.disqualified,
        )
        return MatchState(state.config, changed, None)
    if isinstance(event, ResultAwarded):
        places = tuple(place for _, place in event.placements)
        awarded = replace(table, awarded=places, winner=places.index(1), next_starter=None)
        return MatchState(state.config, awarded, None)
    raise TypeError(f"not a ruling event: {event!r}")
