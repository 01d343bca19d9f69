"""`evolve(state, event) -> state` and `replay(events)`: apply facts, decide nothing.

A bid, the most frequent event, rebuilds only the small `RoundState`; the
`TableState` changes between rounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from cacho.engine.bidding.bids import Bid
from cacho.engine.bidding.events import (
    BidMade,
    Event,
    MatchStarted,
    PasoAnnounced,
    PlayerAbandoned,
    RoundResolved,
    RoundStarted,
    SalpiconAnnounced,
)
from cacho.engine.bidding.rules import make_rules
from cacho.engine.bidding.state import (
    ActionTaken,
    MatchConfig,
    MatchState,
    Resolution,
    RoundState,
    TableState,
    dropped_to_one,
    next_live,
)


def initial_state(event: MatchStarted) -> MatchState:
    config = MatchConfig(
        rules=make_rules(event.ruleset, dict(event.options)),
        players=event.players,
        initial_players=event.initial_players,
        turn_seconds=event.turn_seconds,
    )
    live = [seat for seat, count in enumerate(event.dice) if count > 0]
    over = len(live) == 1
    table = TableState(
        dice_counts=event.dice,
        calzo_disabled=event.calzo_disabled,
        next_starter=None if over else event.players.index(event.starter),
        next_mode=event.mode,
        direction=event.direction,
        timeouts=tuple(0 for _ in event.players),
        palifico_used=frozenset(event.players.index(name) for name in event.palifico_used),
        winner=live[0] if over else None,
    )
    return MatchState(config, table)


def _with_timeouts(timeouts: tuple[int, ...], seat: int, timed_out: bool) -> tuple[int, ...]:
    value = timeouts[seat] + 1 if timed_out else 0
    if timeouts[seat] == value:
        return timeouts
    return (*timeouts[:seat], value, *timeouts[seat + 1 :])


def evolve(state: MatchState, event: Event) -> MatchState:
    if type(event) is BidMade:
        return _bid_made(state, event)
    if isinstance(event, RoundStarted):
        return _round_started(state, event)
    if isinstance(event, RoundResolved):
        return _round_resolved(state, event)
    if isinstance(event, PasoAnnounced | SalpiconAnnounced):
        return _announced(state, event)
    if isinstance(event, PlayerAbandoned):
        return _abandoned(state, event)
    if isinstance(event, MatchStarted):
        return initial_state(event)
    raise TypeError(f"not a bidding event: {event!r}")


def replay(events: Iterable[Event]) -> MatchState:
    iterator = iter(events)
    first = next(iterator)
    if not isinstance(first, MatchStarted):
        raise ValueError("a match starts with match_started")
    state = initial_state(first)
    for event in iterator:
        state = evolve(state, event)
    return state


def _round_started(state: MatchState, event: RoundStarted) -> MatchState:
    starter = state.config.seat(event.starter)
    table = state.table
    current = RoundState(
        number=event.number,
        mode=event.mode,
        starter=starter,
        direction=table.direction,
        dice=event.dice,
        to_act=starter,
        timeouts=table.timeouts,
        deadline=event.deadline,
    )
    return MatchState(state.config, replace(table, rounds_started=event.number), current)


def _bid_made(state: MatchState, event: BidMade) -> MatchState:
    current = state.round
    assert current is not None
    seat = state.config.players.index(event.player)
    direction = event.direction or current.direction
    bid = Bid(event.quantity, event.face)
    current = RoundState(
        current.number,
        current.mode,
        current.starter,
        direction,
        current.dice,
        next_live(state.table.dice_counts, seat, direction),
        _with_timeouts(current.timeouts, seat, event.timed_out),
        (*current.actions, ActionTaken("bid", seat, bid, event.timed_out)),
        bid,
        seat,
        current.pasos,
        current.salpicon_by,
        False,
        event.deadline,
    )
    return MatchState(state.config, state.table, current)


def _announced(state: MatchState, event: PasoAnnounced | SalpiconAnnounced) -> MatchState:
    current = state.round
    assert current is not None
    seat = state.config.seat(event.player)
    following = next_live(state.table.dice_counts, seat, current.direction)
    timeouts = _with_timeouts(current.timeouts, seat, False)
    if isinstance(event, PasoAnnounced):
        current = replace(
            current,
            actions=(*current.actions, ActionTaken("paso", seat)),
            pasos=current.pasos | {seat},
            to_act=following,
            timeouts=timeouts,
            deadline=event.deadline,
        )
    else:
        current = replace(
            current,
            actions=(*current.actions, ActionTaken("salpicon", seat)),
            salpicon_by=seat,
            salpicon_pending=True,
            to_act=following,
            timeouts=timeouts,
            deadline=event.deadline,
        )
    return MatchState(state.config, state.table, current)


def _round_resolved(state: MatchState, event: RoundResolved) -> MatchState:
    players = state.config.players
    current = state.round
    assert current is not None
    table = state.table
    counts = list(table.dice_counts)
    for name, delta in event.dice_change:
        counts[players.index(name)] += delta
    after = tuple(counts)
    caller = players.index(event.caller)
    palifico_used = table.palifico_used
    if event.next_mode == "palifico" and state.rules.palifico_once_per_player:
        palifico_used = palifico_used | set(dropped_to_one(table.dice_counts, after))
    bid = Bid(event.quantity, event.face) if event.quantity is not None and event.face is not None else None
    resolution = Resolution(
        result=event.result,
        caller=caller,
        target=players.index(event.target),
        bid=bid,
        count=event.count,
        revealed=tuple((players.index(name), dice) for name, dice in event.revealed),
        dice_change=tuple((players.index(name), delta) for name, delta in event.dice_change),
        eliminated=tuple(players.index(name) for name in event.eliminated),
        next_starter=None if event.next_starter is None else players.index(event.next_starter),
        next_mode=event.next_mode,
    )
    new_table = replace(
        table,
        dice_counts=after,
        calzo_disabled=event.calzo_disabled,
        next_starter=resolution.next_starter,
        next_mode=event.next_mode or table.next_mode,
        direction=current.direction,
        timeouts=_with_timeouts(current.timeouts, caller, event.timed_out),
        palifico_used=palifico_used,
        last_resolution=resolution,
        winner=None if event.winner is None else players.index(event.winner),
    )
    return MatchState(state.config, new_table, None)


def _abandoned(state: MatchState, event: PlayerAbandoned) -> MatchState:
    players = state.config.players
    seat = players.index(event.player)
    table = state.table
    counts = (*table.dice_counts[:seat], 0, *table.dice_counts[seat + 1 :])
    current = state.round
    assert current is not None
    resolution = Resolution(
        result="restart",
        caller=None,
        target=seat,
        bid=None,
        count=None,
        revealed=(),
        dice_change=((seat, -event.dice_lost),),
        eliminated=(seat,),
        next_starter=None if event.next_starter is None else players.index(event.next_starter),
        next_mode=event.next_mode,
    )
    new_table = replace(
        table,
        dice_counts=counts,
        calzo_disabled=event.calzo_disabled,
        next_starter=resolution.next_starter,
        next_mode=event.next_mode or table.next_mode,
        direction=current.direction,
        timeouts=current.timeouts,
        abandoned=table.abandoned | {seat},
        last_resolution=resolution,
        winner=None if event.winner is None else players.index(event.winner),
    )
    return MatchState(state.config, new_table, None)
