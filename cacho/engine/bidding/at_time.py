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

from cacho.engine.bidding.events import Event
from cacho.engine.bidding.evolve import evolve
from cacho.engine.bidding.ruling_events import DecidedAtTime, PlayersSetAside, TimeCalled
from cacho.engine.bidding.ruling_evolve import evolve_ruling
from cacho.engine.bidding.state import MatchState, next_live
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
    called = TimeCalled(policy, rule.reason)
    return [called, *after_time(evolve_ruling(state, called))]


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
