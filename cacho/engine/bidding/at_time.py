"""Rounds at time in the bidding games (docs/rules.md §9.1, T-1, T-2, T-4).

A director's `call-time` ruling leaves `time_called`; from then on, whenever no round is
under way (the round in play resolved, or time was called between rounds), the policy
says what happens next: `dice-left` decides the table, `two-more-rounds` lets up to two
rounds begun after the call be played first, `sudden-death` sets aside everyone behind
the leaders and lets the leaders play on alone until one leads on dice. The decision is
`decided_at_time`; the engine draws it (and `players_set_aside`) itself, so a record
states only the call and replaying it draws them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from cacho.engine.bidding.commands import RecordOutcome, StateAtTime
from cacho.engine.bidding.entries import outcomes_offered, owes_round
from cacho.engine.bidding.events import Event, RoundRecorded
from cacho.engine.bidding.evolve import evolve
from cacho.engine.bidding.outcomes import between_rounds, direction_of, record_outcome
from cacho.engine.bidding.rules import MAX_DICE
from cacho.engine.bidding.ruling_events import DecidedAtTime, PlayersSetAside, TimeCalled
from cacho.engine.bidding.ruling_evolve import evolve_ruling
from cacho.engine.bidding.state import Direction, MatchState, next_live
from cacho.engine.errors import RuleError
from cacho.engine.rulings import Rule

POLICIES = ("dice-left", "two-more-rounds", "sudden-death")
DEFAULT_POLICY = "dice-left"
EXTRA_ROUNDS = 2  # "two more rounds": rounds begun after the call


def call_time(state: MatchState, rule: Rule) -> list[Event]:
    """The events of a `call-time` ruling: the call, and the decision when no round is
    under way and the policy decides at once."""
    policy = rule.get("policy") or DEFAULT_POLICY
    if policy not in POLICIES:
        raise RuleError("time-policy-unknown", f"{policy!r} is not a time policy of the bidding games")
    if state.phase == "over":
        raise RuleError("ruling-match-over", "the match is over")
    if state.table.time is not None:
        raise RuleError("time-already-called", "time has been called on this table already")
    # Between two entries a physical table's engine sees no round, yet the real table is
    # mostly in the middle of one (T-1): that round is owed unless the call says otherwise.
    # A record states it (absent: false), so records written before it replay as they did.
    under_way = state.round is None and bool(rule.get("round_under_way", state.config.physical))
    called = TimeCalled(policy, rule.reason, under_way)
    return [called, *after_time(evolve_ruling(state, called))]


def state_at_time(state: MatchState, command: StateAtTime) -> RoundRecorded:
    """The scorekeeper's state at time (T-6): the dice each player holds once the round
    under way at the call has ended, for the round the call owes. The sheet bounds it: the
    dice are those held now (no round changed them) or those one outcome of this round can
    leave, exactly as `record_outcome` draws them (a player a die fewer; a calza's caller a
    die more or its penalty fewer), so nobody gains a die but by an exact calza. Nobody is
    named: it is an `at-time` round with the consequences of such an outcome."""
    between_rounds(state, "the state at time")
    if not owes_round(state):
        raise RuleError(
            "time-no-round-owed",
            "the state at time is entered for the round under way when time was called, before it is entered",
        )
    players = state.config.players
    given = dict(command.dice)
    for name, count in given.items():
        if name not in players:
            raise RuleError("unknown-player", f"{name!r} is not seated in this match")
        if type(count) is not int or not 0 <= count <= MAX_DICE:
            raise RuleError("state-at-time-dice", f"{name} holds from 0 to {MAX_DICE} dice")
    live = [players[seat] for seat in state.live_seats()]
    if set(given) != set(live):
        raise RuleError(
            "state-at-time-players", "give the dice of every player holding dice, and only theirs"
        )
    change = {
        name: given[name] - state.dice_counts[players.index(name)]
        for name in live
        if given[name] != state.dice_counts[players.index(name)]
    }
    directions: list[Direction] = (
        [direction_of(state, command.direction)]
        if command.direction is not None or not state.rules.starter_chooses_direction
        else [state.direction, "ccw" if state.direction == "cw" else "cw"]
    )
    assert state.next_starter is not None
    if not change:  # no round was under way, or nothing the sheet knows changed
        return RoundRecorded(
            number=state.rounds_started + 1,
            starter=players[state.next_starter],
            mode=state.next_mode,
            direction=directions[0],
            result="at-time",
            caller=None,
            target=None,
            dice_change=(),
            eliminated=(),
            next_starter=players[state.next_starter],
            next_mode=state.next_mode,
            calzo_disabled=state.calzo_disabled,
            winner=None,
        )
    fitting = [option for option in outcomes_offered(state, directions) if option["dice_change"] == change]
    if not fitting:
        raise RuleError(
            "state-at-time-impossible",
            "no outcome of this round leaves these dice: one player a die fewer, a calza's caller "
            "a die more or its penalty fewer, or the dice as they are",
        )
    # Every fitting outcome moves the same dice, so the same player opens next; where the
    # direction is chosen, the inherited one is taken first.
    option = min(fitting, key=lambda found: found["direction"] != directions[0])
    side = {"exact": option["exact"]} if "exact" in option else {"loser": option["loser"]}
    event = record_outcome(
        state, RecordOutcome(option["call"], option["by"], direction=option["direction"], **side)
    )
    return replace(event, result="at-time", caller=None, target=None)


def followed(state: MatchState, events: Sequence[Event]) -> list[Event]:
    """`events` decided on `state`, with what the time called on the table draws from them."""
    if state.table.time is None or not events:
        return list(events)
    after = state
    for event in events:
        after = evolve(after, event)
    return [*events, *after_time(after)]


def after_time(state: MatchState) -> list[Event]:
    """What the time call draws from a table with no round under way (nothing otherwise)."""
    time = state.table.time
    if time is None or time.decided or state.round is not None or state.phase == "over":
        return []
    if state.rounds_started < time.round:
        return []  # a referee voided rounds begun before the call: they are played again first
    if time.policy == "two-more-rounds" and state.rounds_started - time.round < EXTRA_ROUNDS:
        return []
    held = time.held(state.dice_counts)
    players = state.config.players
    if time.policy == "sudden-death":
        most = max(held)
        leaders = [seat for seat, dice in enumerate(held) if dice == most]
        if len(leaders) > 1:
            behind = [
                (players[seat], count) for seat, count in enumerate(state.dice_counts) if 0 < count < most
            ]
            if not behind:
                return []  # only the leaders hold dice: they play on as they are
            return [PlayersSetAside(tuple(behind), players[_starter(state, leaders)])]
    standing = tuple((players[seat], dice) for seat, dice in enumerate(held) if dice > 0)
    return [DecidedAtTime(time.policy, standing)]


def _starter(state: MatchState, leaders: list[int]) -> int:
    """Who opens the leaders' next round: the next starter, or the leader after them."""
    starter = state.next_starter
    assert starter is not None
    if starter in leaders:
        return starter
    counts = tuple(count if seat in leaders else 0 for seat, count in enumerate(state.dice_counts))
    return next_live(counts, starter, state.direction)


def placements(state: MatchState) -> dict[int, int] | None:
    """Seat -> place of the players still in at a decision at time (None: not decided)."""
    time = state.table.time
    if time is None or not time.decided or state.table.awarded is not None:
        return None  # a referee's award after the decision places the table instead (T-5)
    held = time.held(state.dice_counts)
    ranks = sorted({dice for dice in held if dice > 0}, reverse=True)
    out: dict[int, int] = {}
    place = 1
    for dice in ranks:
        tier = [seat for seat, count in enumerate(held) if count == dice]
        for seat in tier:
            out[seat] = place
        place += len(tier)
    return out
