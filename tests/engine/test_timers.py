"""Turn timers (docs/rules.md §9): deadlines ride in the events, 5-second turns after three
timeouts in a row, any manual action restores the full turn (CO-7, P-1)."""

from __future__ import annotations

import pytest

from cacho.engine import alalay
from cacho.engine.bidding import (
    PlaceBid,
    StartRound,
    TimeOut,
    decide,
    evolve,
    initial_state,
    start_match,
)
from cacho.engine.bidding.state import MatchState
from cacho.engine.errors import RuleError
from cacho.engine.timers import turn_seconds


def _apply(state: MatchState, command: object) -> MatchState:
    for event in decide(state, command):  # type: ignore[arg-type]
        state = evolve(state, event)
    return state


def test_turn_seconds_drop_to_five_after_three_timeouts() -> None:
    assert [turn_seconds(n, 30) for n in range(5)] == [30, 30, 30, 5, 5]
    assert turn_seconds(0, 45) == 45


def test_bidding_deadlines_follow_timeouts_and_manual_actions() -> None:
    state = initial_state(start_match("dudo", ["A", "B"], starter="A", turn_seconds=30))
    state = _apply(state, StartRound(((2, 3, 4, 5, 6), (2, 3, 4, 5, 6)), at=0))
    assert state.round is not None and state.round.deadline == 30_000
    with pytest.raises(RuleError) as early:
        decide(state, TimeOut("A", at=29_999))
    assert early.value.code == "deadline-not-reached"
    deadlines = []
    for quantity in (2, 4, 6):
        assert state.round is not None
        state = _apply(state, TimeOut("A", at=state.round.deadline))  # A plays on the clock
        assert state.round is not None
        bid_at = state.round.deadline - 30_000 + 1_000  # B answers a second into their turn
        state = _apply(state, PlaceBid("B", quantity, 2, at=bid_at))
        assert state.round is not None
        deadlines.append(state.round.deadline - bid_at)
    # A's turns: 30 s after one and two timeouts, 5 s after the third
    assert deadlines == [30_000, 30_000, 5_000]
    assert state.timeouts[0] == 3
    last_bid_at = state.round.deadline - 5_000
    state = _apply(state, PlaceBid("A", 7, 2, at=last_bid_at + 100))  # a manual action
    assert state.timeouts[0] == 0
    state = _apply(state, PlaceBid("B", 8, 2, at=last_bid_at + 200))
    assert state.round is not None and state.round.deadline == last_bid_at + 200 + 30_000


def test_alalay_counts_turns_ended_on_the_clock() -> None:
    state, _ = alalay.new_match(["A", "B"], first=0)
    rolls = iter([(1, 2, 3, 4, 6)] * 20)
    for box in ("straight", "sixes", "fives"):
        state, _events = alalay.auto_play_turn(state, lambda n: next(rolls)[:n])
        state, _events = alalay.apply(state, alalay.Throw("B", (2, 3, 4, 5, 6)))
        state, _events = alalay.apply(state, alalay.Score("B", box))
    assert state.timeouts == (3, 0)
    assert turn_seconds(state.timeouts[0]) == 5
    state, _events = alalay.apply(state, alalay.Throw("A", (2, 2, 3, 4, 6)))
    state, _events = alalay.apply(state, alalay.Score("A", "twos"))
    assert state.timeouts[0] == 0
