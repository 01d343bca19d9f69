"""`evolve(state, event) -> state` and `replay(events)`: apply facts, decide nothing."""

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
    return MatchState(
        config=config,
        dice_counts=event.dice,
        calzo_disabled=event.calzo_disabled,
        phase="over" if over else "awaiting-dice",
        next_starter=None if over else event.players.index(event.starter),
        next_mode=event.mode,
        direction=event.direction,
        timeouts=tuple(0 for _ in event.players),
        palifico_used=frozenset(event.players.index(name) for name in event.palifico_used),
        winner=live[0] if over else None,
        version=1,
    )


def _with_timeouts(timeouts: tuple[int, ...], seat: int, timed_out: bool) -> tuple[int, ...]:
    value = timeouts[seat] + 1 if timed_out else 0
    if timeouts[seat] == value:
        return timeouts
    return (*timeouts[:seat], value, *timeouts[seat + 1:])


def evolve(state: MatchState, event: Event) -> MatchState:
    if isinstance(event, BidMade):
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
    current = RoundState(
        number=event.number,
        mode=event.mode,
        starter=starter,
        direction=state.direction,
        dice=event.dice,
        to_act=starter,
        deadline=event.deadline,
    )
    return replace(
        state,
        phase="bidding",
        round=current,
        rounds_started=event.number,
        version=state.version + 1,
    )


def _bid_made(state: MatchState, event: BidMade) -> MatchState:
    current = state.round
    assert current is not None
    seat = state.config.seat(event.player)
    direction = event.direction or current.direction
    bid = Bid(event.quantity, event.face)
    current = RoundState(
        number=current.number,
        mode=current.mode,
        starter=current.starter,
        direction=direction,
        dice=current.dice,
        to_act=next_live(state.dice_counts, seat, direction),
        actions=(*current.actions, ActionTaken("bid", seat, bid, event.timed_out)),
        bid=bid,
        bidder=seat,
        pasos=current.pasos,
        salpicon_by=current.salpicon_by,
        salpicon_pending=False,
        deadline=event.deadline,
    )
    return MatchState(
        config=state.config,
        dice_counts=state.dice_counts,
        calzo_disabled=state.calzo_disabled,
        phase=state.phase,
        next_starter=state.next_starter,
        next_mode=state.next_mode,
        direction=direction,
        timeouts=_with_timeouts(state.timeouts, seat, event.timed_out),
        palifico_used=state.palifico_used,
        abandoned=state.abandoned,
        round=current,
        rounds_started=state.rounds_started,
        last_resolution=state.last_resolution,
        winner=state.winner,
        version=state.version + 1,
    )


def _announced(state: MatchState, event: PasoAnnounced | SalpiconAnnounced) -> MatchState:
    current = state.round
    assert current is not None
    seat = state.config.seat(event.player)
    if isinstance(event, PasoAnnounced):
        current = replace(
            current,
            actions=(*current.actions, ActionTaken("paso", seat)),
            pasos=current.pasos | {seat},
            to_act=next_live(state.dice_counts, seat, current.direction),
            deadline=event.deadline,
        )
    else:
        current = replace(
            current,
            actions=(*current.actions, ActionTaken("salpicon", seat)),
            salpicon_by=seat,
            salpicon_pending=True,
            to_act=next_live(state.dice_counts, seat, current.direction),
            deadline=event.deadline,
        )
    return replace(
        state, round=current, timeouts=_with_timeouts(state.timeouts, seat, False), version=state.version + 1
    )


def _round_resolved(state: MatchState, event: RoundResolved) -> MatchState:
    players = state.config.players
    current = state.round
    assert current is not None
    counts = list(state.dice_counts)
    for name, delta in event.dice_change:
        counts[players.index(name)] += delta
    after = tuple(counts)
    caller = players.index(event.caller)
    palifico_used = state.palifico_used
    if event.next_mode == "palifico" and state.rules.palifico_once_per_player:
        palifico_used = palifico_used | set(dropped_to_one(state.dice_counts, after))
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
    over = event.winner is not None
    return replace(
        state,
        dice_counts=after,
        calzo_disabled=event.calzo_disabled,
        phase="over" if over else "awaiting-dice",
        next_starter=resolution.next_starter,
        next_mode=event.next_mode or state.next_mode,
        direction=current.direction,
        timeouts=_with_timeouts(state.timeouts, caller, event.timed_out),
        palifico_used=palifico_used,
        round=None,
        last_resolution=resolution,
        winner=None if event.winner is None else players.index(event.winner),
        version=state.version + 1,
    )


def _abandoned(state: MatchState, event: PlayerAbandoned) -> MatchState:
    players = state.config.players
    seat = players.index(event.player)
    counts = (*state.dice_counts[:seat], 0, *state.dice_counts[seat + 1:])
    current = state.round
    assert current is not None
    over = event.winner is not None
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
    return replace(
        state,
        dice_counts=counts,
        calzo_disabled=event.calzo_disabled,
        phase="over" if over else "awaiting-dice",
        next_starter=resolution.next_starter,
        next_mode=event.next_mode or state.next_mode,
        direction=current.direction,
        abandoned=state.abandoned | {seat},
        round=None,
        last_resolution=resolution,
        winner=None if event.winner is None else players.index(event.winner),
        version=state.version + 1,
    )
