"""`evolve(state, event) -> state` and `replay(events)`: apply facts, decide nothing.

A bid, the most frequent event, rebuilds only the small `RoundState`; the
`TableState` changes between rounds. `replay` folds the same facts without the
intermediate states nobody sees: inside a round it keeps the round in plain local
variables and builds the frozen `RoundState` only if the log ends mid-round (a
resolved round leaves nothing behind but its number, direction and timeout counters).
The two share every table transition, and the hypothesis test
`test_replay_equals_live_state_at_every_step` holds them equal after every event.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from cacho.engine.bidding.bids import Bid
from cacho.engine.bidding.events import (
    BidMade,
    Event,
    MatchStarted,
    PasoAnnounced,
    PlayerAbandoned,
    RoundRecorded,
    RoundResolved,
    RoundStarted,
    SalpiconAnnounced,
)
from cacho.engine.bidding.rules import Rules, make_rules
from cacho.engine.bidding.ruling_events import RULING_EVENTS
from cacho.engine.bidding.ruling_evolve import evolve_ruling
from cacho.engine.bidding.state import (
    ActionTaken,
    Direction,
    MatchConfig,
    MatchState,
    Resolution,
    RoundStart,
    RoundState,
    TableState,
    dropped_to_one,
    next_live,
)
from cacho.engine.undo import EntryUndone


@lru_cache(maxsize=64)
def _cached_rules(ruleset: str, options: tuple[tuple[str, object], ...]) -> Rules:
    return make_rules(ruleset, dict(options))


def _rules_of(event: MatchStarted) -> Rules:
    """The match's `Rules`, shared between matches of one ruleset and options (they are
    frozen): building them is most of a short replay's fixed cost."""
    try:
        return _cached_rules(event.ruleset, event.options)
    except TypeError:  # an unhashable option value: `make_rules` says what is wrong with it
        return make_rules(event.ruleset, dict(event.options))


def initial_state(event: MatchStarted) -> MatchState:
    players = event.players
    config = MatchConfig(
        rules=_rules_of(event),
        players=players,
        initial_players=event.initial_players,
        turn_seconds=event.turn_seconds,
        physical=event.physical,
    )
    live = [seat for seat, count in enumerate(event.dice) if count > 0]
    over = len(live) == 1
    table = TableState(
        dice_counts=event.dice,
        calzo_disabled=event.calzo_disabled,
        next_starter=None if over else players.index(event.starter),
        next_mode=event.mode,
        direction=event.direction,
        timeouts=(0,) * len(players),
        palifico_used=frozenset([players.index(name) for name in event.palifico_used]),
        winner=live[0] if over else None,
    )
    return MatchState(config, table)


def _with_timeouts(timeouts: tuple[int, ...], seat: int, timed_out: bool) -> tuple[int, ...]:
    value = timeouts[seat] + 1 if timed_out else 0
    if timeouts[seat] == value:
        return timeouts
    return (*timeouts[:seat], value, *timeouts[seat + 1 :])


def evolve(state: MatchState, event: Event) -> MatchState:
    if state.config.physical:
        return _evolve_physical(state, event)
    return _evolve(state, event)


def _evolve_physical(state: MatchState, event: Event) -> MatchState:
    """At a physical table each entry keeps the state before it, which `EntryUndone` gives
    back; a ruling is no entry, and nothing before it can be undone."""
    if isinstance(event, EntryUndone):
        if state.undo is None:
            raise ValueError("entry_undone with no entry to undo")
        return state.undo
    after = _evolve(state, event)
    if isinstance(event, RULING_EVENTS):
        return after if after.undo is None else MatchState(after.config, after.table, after.round)
    before = state if state.undo is None else MatchState(state.config, state.table, state.round)
    return MatchState(after.config, after.table, after.round, before)


def _evolve(state: MatchState, event: Event) -> MatchState:
    if type(event) is BidMade:
        return _bid_made(state, event)
    if isinstance(event, RoundStarted):
        return _round_started(state, event)
    if isinstance(event, RoundResolved):
        current = state.round
        assert current is not None
        table = _resolved(
            state.config, state.table, state.table.rounds_started, current.direction, current.timeouts, event
        )
        return MatchState(state.config, table, None)
    if isinstance(event, PasoAnnounced | SalpiconAnnounced):
        return _announced(state, event)
    if isinstance(event, PlayerAbandoned):
        current = state.round
        assert current is not None
        table = _abandoned(
            state.config, state.table, state.table.rounds_started, current.direction, current.timeouts, event
        )
        return MatchState(state.config, table, None)
    if isinstance(event, RoundRecorded):
        return MatchState(state.config, _recorded(state.config, state.table, event), None)
    if isinstance(event, MatchStarted):
        return initial_state(event)
    if isinstance(event, RULING_EVENTS):
        return evolve_ruling(state, event)
    raise TypeError(f"not a bidding event: {event!r}")


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
    return MatchState(state.config, _round_begins(table, event.number), current)


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
        next_live(state.table.dice_counts, seat, direction),  # to_act
        _with_timeouts(current.timeouts, seat, event.timed_out),  # timeouts
        (*current.actions, ActionTaken("bid", seat, bid, event.timed_out)),  # actions
        bid,
        seat,  # bidder
        current.pasos,
        current.salpicon_by,
        False,  # salpicon_pending
        event.deadline,
    )
    return MatchState(state.config, state.table, current)


def _announced(state: MatchState, event: PasoAnnounced | SalpiconAnnounced) -> MatchState:
    current = state.round
    assert current is not None
    seat = state.config.seat(event.player)
    paso = isinstance(event, PasoAnnounced)
    current = RoundState(
        current.number,
        current.mode,
        current.starter,
        current.direction,
        current.dice,
        next_live(state.table.dice_counts, seat, current.direction),  # to_act
        _with_timeouts(current.timeouts, seat, False),  # timeouts
        (*current.actions, ActionTaken("paso" if paso else "salpicon", seat)),  # actions
        current.bid,
        current.bidder,
        current.pasos | {seat} if paso else current.pasos,
        current.salpicon_by if paso else seat,  # salpicon_by
        current.salpicon_pending if paso else True,  # salpicon_pending
        event.deadline,
    )
    return MatchState(state.config, state.table, current)


# ------------------------------------------------------------ table transitions
# Shared by `evolve` and `replay`: what a round leaves behind is its number, its
# direction and its timeout counters, so that is all these take from it. The frozen
# states are built with positional arguments (keywords cost ~50 ns a field here).


def _with_rounds(table: TableState, number: int, round_starts: tuple[RoundStart, ...]) -> TableState:
    return TableState(
        table.dice_counts,
        table.calzo_disabled,
        table.next_starter,
        table.next_mode,
        table.direction,
        table.timeouts,
        table.palifico_used,
        table.abandoned,
        number,  # rounds_started
        table.last_resolution,
        table.winner,
        round_starts,
        table.paused,
        table.disqualified,
        table.awarded,
        table.time,
    )


def _round_begins(table: TableState, number: int) -> TableState:
    """The table once round `number` has started: it remembers what the round started
    from, which a void-round or a reopen restores. (Built positionally: two
    `dataclasses.replace` here were most of a replay's time.)"""
    start = RoundStart(number, _with_rounds(table, table.rounds_started, ()))
    return _with_rounds(table, number, (*table.round_starts, start))


def _applied_dice_change(
    config: MatchConfig, table: TableState, change: tuple[tuple[str, int], ...]
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """The table's dice counts after a round's change by player name, and that change by seat."""
    counts = list(table.dice_counts)
    by_seat = []
    for name, delta in change:
        seat = config.players.index(name)
        counts[seat] += delta
        by_seat.append((seat, delta))
    return tuple(counts), tuple(by_seat)


def _resolved(
    config: MatchConfig,
    table: TableState,
    rounds_started: int,
    direction: Direction,
    timeouts: tuple[int, ...],
    event: RoundResolved,
) -> TableState:
    index = config.players.index
    after, dice_change = _applied_dice_change(config, table, event.dice_change)
    caller = index(event.caller)
    palifico_used = table.palifico_used
    if event.next_mode == "palifico" and config.rules.palifico_once_per_player:
        palifico_used = palifico_used | set(dropped_to_one(table.dice_counts, after))
    quantity, face = event.quantity, event.face
    next_starter = None if event.next_starter is None else index(event.next_starter)
    resolution = Resolution(
        event.result,
        caller,
        index(event.target),  # target
        Bid(quantity, face) if quantity is not None and face is not None else None,  # bid
        event.count,
        tuple([(index(name), dice) for name, dice in event.revealed]),  # revealed
        dice_change,
        tuple([index(name) for name in event.eliminated]),  # eliminated
        next_starter,
        event.next_mode,
        None
        if event.counted is None
        else tuple([(index(name), positions) for name, positions in event.counted]),
    )
    return TableState(
        after,  # dice_counts
        event.calzo_disabled,
        next_starter,
        event.next_mode or table.next_mode,
        direction,
        _with_timeouts(timeouts, caller, event.timed_out),  # timeouts
        palifico_used,
        table.abandoned,
        rounds_started,
        resolution,  # last_resolution
        None if event.winner is None else index(event.winner),  # winner
        table.round_starts,
        table.paused,
        table.disqualified,
        table.awarded,
        table.time,
    )


def _abandoned(
    config: MatchConfig,
    table: TableState,
    rounds_started: int,
    direction: Direction,
    timeouts: tuple[int, ...],
    event: PlayerAbandoned,
) -> TableState:
    players = config.players
    seat = players.index(event.player)
    next_starter = None if event.next_starter is None else players.index(event.next_starter)
    resolution = Resolution(
        "restart",  # result
        None,  # caller
        seat,  # target
        None,  # bid
        None,  # count
        (),  # revealed
        ((seat, -event.dice_lost),),  # dice_change
        (seat,),  # eliminated
        next_starter,
        event.next_mode,
    )
    return TableState(
        (*table.dice_counts[:seat], 0, *table.dice_counts[seat + 1 :]),  # dice_counts
        event.calzo_disabled,
        next_starter,
        event.next_mode or table.next_mode,
        event.direction or direction,
        timeouts,
        table.palifico_used,
        table.abandoned | {seat},  # abandoned
        rounds_started,
        resolution,  # last_resolution
        None if event.winner is None else players.index(event.winner),  # winner
        table.round_starts,
        table.paused,
        table.disqualified,
        table.awarded,
        table.time,
    )


def _recorded(config: MatchConfig, table: TableState, event: RoundRecorded) -> TableState:
    """A round entered by its outcome: it begins and ends at once (no die is known)."""
    begun = _round_begins(table, event.number)
    index = config.players.index
    after, dice_change = _applied_dice_change(config, table, event.dice_change)
    palifico_used = table.palifico_used
    if event.next_mode == "palifico" and config.rules.palifico_once_per_player:
        palifico_used = palifico_used | set(dropped_to_one(table.dice_counts, after))
    abandoned = table.abandoned
    restart = event.result == "restart"
    if restart and event.caller is not None:
        abandoned = abandoned | {index(event.caller)}
    next_starter = None if event.next_starter is None else index(event.next_starter)
    resolution = Resolution(
        event.result,
        None if restart or event.caller is None else index(event.caller),  # caller
        index(event.caller)  # the leaver, in the target's place
        if restart and event.caller is not None
        else None
        if event.target is None
        else index(event.target),
        None,  # bid
        None,  # count
        (),  # revealed
        dice_change,
        tuple([index(name) for name in event.eliminated]),
        next_starter,
        event.next_mode,
    )
    return TableState(
        after,  # dice_counts
        event.calzo_disabled,
        next_starter,
        event.next_mode or table.next_mode,
        event.direction,
        begun.timeouts,
        palifico_used,
        abandoned,
        event.number,  # rounds_started
        resolution,  # last_resolution
        None if event.winner is None else index(event.winner),  # winner
        begun.round_starts,
        table.paused,
        table.disqualified,
        table.awarded,
        table.time,
    )


# ------------------------------------------------------------------------ replay


def replay(events: Iterable[Event]) -> MatchState:
    """The state after `events`: equal to folding `evolve` over them, built faster.

    Between rounds it holds the frozen `TableState` (the transitions above), kept with
    an empty `round_starts`: that table is what the next `RoundStart` records, so a
    round's start builds no table, and the round starts gather in a list attached once
    at the end. Inside a round it holds plain locals: the `RoundStarted`, the actions
    so far, the direction and the timeout counters in a list; bids, pasos and
    salpicones only touch those. The `RoundState` is built from them once, if the log
    ends mid-round.
    """
    iterator = iter(events)
    first = next(iterator)
    if not isinstance(first, MatchStarted):
        raise ValueError("a match starts with match_started")
    state = initial_state(first)
    if state.config.physical:  # an entry keeps the state before it: fold `evolve`
        for event in iterator:
            state = evolve(state, event)
        return state
    config, table = state.config, state.table
    round_starts: list[RoundStart] = []  # `initial_state` starts none
    seat_of = {name: seat for seat, name in enumerate(config.players)}
    start: RoundStarted | None = None  # the round in play, if any ...
    actions: list[BidMade | PasoAnnounced | SalpiconAnnounced] = []  # ... its actions so far
    timeouts: list[int] = []
    direction: Direction = table.direction
    for event in iterator:
        if type(event) is BidMade:
            if start is None:
                raise ValueError("bid_made outside a round")
            seat = seat_of[event.player]
            if event.direction:
                direction = event.direction
            timeouts[seat] = timeouts[seat] + 1 if event.timed_out else 0
            actions.append(event)
        elif isinstance(event, RoundStarted):
            if start is not None:  # a round that never ended still counts as started
                table = _with_rounds(table, start.number, ())
            start = event
            round_starts.append(RoundStart(event.number, table))
            actions = []
            timeouts = list(table.timeouts)
            direction = table.direction
        elif isinstance(event, RoundResolved):
            if start is None:
                raise ValueError("round_resolved outside a round")
            table = _resolved(config, table, start.number, direction, tuple(timeouts), event)
            start = None
        elif isinstance(event, PasoAnnounced | SalpiconAnnounced):
            if start is None:
                raise ValueError(f"{event.TYPE} outside a round")
            timeouts[seat_of[event.player]] = 0
            actions.append(event)
        elif isinstance(event, PlayerAbandoned):
            if start is None:
                raise ValueError("player_abandoned outside a round")
            table = _abandoned(config, table, start.number, direction, tuple(timeouts), event)
            start = None
        elif isinstance(event, RoundRecorded):
            whole = _recorded(config, _whole_table(table, start, round_starts), event)
            round_starts = list(whole.round_starts)
            table = _with_rounds(whole, whole.rounds_started, ())
            start = None
        elif isinstance(event, MatchStarted):
            state = initial_state(event)
            config, table = state.config, state.table
            round_starts = []
            seat_of = {name: seat for seat, name in enumerate(config.players)}
            start = None
        elif isinstance(event, RULING_EVENTS):
            # Rulings are rare: from the first one on, fold `evolve` (which they define).
            table = _whole_table(table, start, round_starts)
            state = _replayed(config, table, start, actions, seat_of, direction, timeouts)
            state = evolve_ruling(state, event)
            for later in iterator:
                state = evolve(state, later)
            return state
        else:
            raise TypeError(f"not a bidding event: {event!r}")
    table = _whole_table(table, start, round_starts)
    return _replayed(config, table, start, actions, seat_of, direction, timeouts)


def _whole_table(table: TableState, start: RoundStarted | None, round_starts: list[RoundStart]) -> TableState:
    """`replay`'s table, kept without its round starts, as `evolve` holds it: with them,
    and counting the round in play as started."""
    number = table.rounds_started if start is None else start.number
    if not round_starts and number == table.rounds_started:
        return table
    return _with_rounds(table, number, tuple(round_starts))


def _replayed(
    config: MatchConfig,
    table: TableState,
    start: RoundStarted | None,
    actions: list[BidMade | PasoAnnounced | SalpiconAnnounced],
    seat_of: dict[str, int],
    direction: Direction,
    timeouts: list[int],
) -> MatchState:
    if start is None:
        return MatchState(config, table, None)
    current = _round_state(start, actions, seat_of, table, direction, tuple(timeouts))
    return MatchState(config, table, current)


def _round_state(
    start: RoundStarted,
    events: list[BidMade | PasoAnnounced | SalpiconAnnounced],
    seat_of: dict[str, int],
    table: TableState,
    direction: Direction,
    timeouts: tuple[int, ...],
) -> RoundState:
    """The `RoundState` that `evolve` builds from `start` and the round's `events`."""
    starter = seat_of[start.starter]
    actions: list[ActionTaken] = []
    bid: Bid | None = None
    bidder: int | None = None
    pasos: set[int] = set()
    salpicon_by: int | None = None
    salpicon_pending = False
    seat = starter
    for event in events:
        seat = seat_of[event.player]
        if type(event) is BidMade:
            bid = Bid(event.quantity, event.face)
            bidder = seat
            salpicon_pending = False
            actions.append(ActionTaken("bid", seat, bid, event.timed_out))
        elif isinstance(event, PasoAnnounced):
            pasos.add(seat)
            actions.append(ActionTaken("paso", seat))
        else:
            salpicon_by = seat
            salpicon_pending = True
            actions.append(ActionTaken("salpicon", seat))
    # each action passes the turn on from its seat in the direction of that moment;
    # only a bid changes the direction, and its own pass already used the new one
    to_act = next_live(table.dice_counts, seat, direction) if events else starter
    return RoundState(
        start.number,
        start.mode,
        starter,
        direction,
        start.dice,
        to_act,
        timeouts,
        tuple(actions),
        bid,
        bidder,
        frozenset(pasos),
        salpicon_by,
        salpicon_pending,
        events[-1].deadline if events else start.deadline,
    )
