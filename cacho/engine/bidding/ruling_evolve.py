"""How a referee's ruling changes a bidding match's state: facts only, decided in
`bidding/rulings.py`. Shared by `evolve` and `replay` (which folds `evolve` from a
match's first ruling on)."""

from __future__ import annotations

from dataclasses import replace

from cacho.engine.bidding.ruling_events import (
    DecidedAtTime,
    DiceChanged,
    MatchPaused,
    MatchResumed,
    PlayersSetAside,
    ResultAwarded,
    RoundVoided,
    RulingUpheld,
    TimeCalled,
)
from cacho.engine.bidding.state import MatchState, TableState, TimeCall


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
        start = table.round_starts[index].table
        restored = replace(
            start,
            round_starts=table.round_starts[:index],
            rounds_started=table.rounds_started,  # round numbers (and dice scopes) never repeat
            paused=table.paused,
            time=_time_after_void(table, start, event.round),
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
    if isinstance(event, TimeCalled):
        # the round owed at a physical table counts as begun before the call (T-1)
        call = TimeCall(event.policy, table.rounds_started + (1 if event.round_under_way else 0))
        return MatchState(state.config, replace(table, time=call), current)
    if isinstance(event, PlayersSetAside):
        assert table.time is not None
        players = state.config.players
        counts = list(table.dice_counts)
        aside = list(table.time.set_aside or (0,) * len(players))
        for name, dice in event.players:
            seat = players.index(name)
            counts[seat] -= dice
            aside[seat] += dice
        time = replace(table.time, set_aside=tuple(aside))
        starter = players.index(event.next_starter)
        return MatchState(
            state.config, replace(table, dice_counts=tuple(counts), next_starter=starter, time=time), None
        )
    if isinstance(event, DecidedAtTime):
        assert table.time is not None
        decided = replace(table, time=replace(table.time, decided=True), next_starter=None)
        return MatchState(state.config, decided, None)
    raise TypeError(f"not a ruling event: {event!r}")


def _time_after_void(table: TableState, start: TableState, voided: int) -> TimeCall | None:
    """A time call outlives the rounds a referee voids (or reopens from), and the table is
    undecided again (docs/rules.md §9.1, T-5): the dice set aside are those of the table the
    void restores. The voided rounds begun before the call are played again first, as an
    Alalay reopen replays the turns owed at the call, so that the policy decides where the
    table stood when time was called; the voided rounds begun after it no longer count among
    the rounds the policy lets be played. `round` then counts the replays in (a round not yet
    begun, which `at_time.after_time` waits for)."""
    time = table.time
    if time is None:
        return None
    set_aside = start.time.set_aside if start.time is not None else ()
    if voided <= time.round:
        called_at = table.rounds_started + time.round - voided + 1
    else:
        called_at = time.round + table.rounds_started - (voided - 1)
    return replace(time, round=called_at, set_aside=set_aside, decided=False)
