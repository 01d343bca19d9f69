"""A referee's rulings on a table at time (docs/rules.md §9.1, T-5): a decision at time is
an end like any other, so `void-round` is refused on it and `reopen` puts the table back,
time still called and the table undecided; the voided round under way at the call is
played again before the policy decides, and the voided rounds begun after the call no
longer count among those the policy lets be played. Replaying the events gives the same
table."""

from __future__ import annotations

import pytest

from cacho.engine import alalay, bidding
from cacho.engine.bidding.ruling_events import DecidedAtTime, RoundVoided
from cacho.engine.errors import RuleError
from cacho.engine.rulings import parse_ruling
from tests.engine.test_at_time import ALALAY, BIDDING, Table, alalay_turn, call


def ruling(kind: str, number: int) -> object:
    return parse_ruling({"kind": kind, "round": number}, "a die fell off the table")


@pytest.mark.parametrize("ruleset", bidding.RULESETS)
def test_t5_a_table_decided_at_time_is_reopened_not_voided(ruleset: str) -> None:
    table = Table(BIDDING, ruleset, ["a", "b", "c"])
    table.dudo_round()  # round 1, before time
    table.deal()  # round 2 under way when time is called
    table.apply(call())
    assert isinstance(table.dudo_round()[-1], DecidedAtTime)
    assert BIDDING.is_over(table.state)

    with pytest.raises(RuleError) as refused:
        table.apply(ruling("void-round", 2))
    assert refused.value.code == "ruling-match-over"

    # reopened from the round under way at the call: time stands, and that round is owed
    events = table.apply(ruling("reopen", 2))
    assert [type(e) for e in events] == [RoundVoided]
    assert not BIDDING.is_over(table.state)
    assert table.state.table.time is not None and not table.state.table.time.decided
    assert sum(table.state.dice_counts) == 14  # as round 2 began
    assert BIDDING.replay(table.events) == table.state

    # its replay is the round under way: its end decides the table, by the dice then held
    assert isinstance(table.dudo_round()[-1], DecidedAtTime)
    results = BIDDING.results(table.events)
    assert all(r.at_time for r in results) and sum(r.dice_left for r in results) == 13
    assert BIDDING.replay(table.events) == table.state


@pytest.mark.parametrize("ruleset", bidding.RULESETS)
def test_t5_reopening_before_the_call_replays_the_rounds_played_before_it(ruleset: str) -> None:
    table = Table(BIDDING, ruleset, ["a", "b", "c"])
    table.dudo_round()  # round 1
    table.dudo_round()  # round 2
    table.apply(call())  # between rounds: decided at once
    assert BIDDING.is_over(table.state)
    table.apply(ruling("reopen", 1))
    assert sum(table.state.dice_counts) == 15 and not BIDDING.is_over(table.state)
    assert not isinstance(table.dudo_round()[-1], DecidedAtTime)  # round 1 played again
    assert isinstance(table.dudo_round()[-1], DecidedAtTime)  # round 2 again, then time
    assert sum(table.state.dice_counts) == 13 and table.state.rounds_started == 4
    assert BIDDING.replay(table.events) == table.state


@pytest.mark.parametrize("ruleset", bidding.RULESETS)
def test_t5_a_voided_round_after_the_call_is_played_again_under_two_more_rounds(ruleset: str) -> None:
    table = Table(BIDDING, ruleset, ["a", "b", "c"])
    table.deal()  # round 1 under way
    table.apply(call("two-more-rounds"))
    table.dudo_round()  # round 1 ends
    table.dudo_round()  # round 2: the first of the two more
    table.deal()  # round 3: the second, voided while it plays
    voided = table.apply(ruling("void-round", 3))
    assert [type(e) for e in voided] == [RoundVoided]
    assert not BIDDING.is_over(table.state)  # round 3 no longer counts
    assert isinstance(table.dudo_round()[-1], DecidedAtTime)  # round 4 stands for it
    assert table.state.rounds_started == 4
    assert BIDDING.replay(table.events) == table.state


@pytest.mark.parametrize("ruleset", bidding.RULESETS)
def test_t5_voiding_the_round_under_way_at_the_call_owes_it_again(ruleset: str) -> None:
    table = Table(BIDDING, ruleset, ["a", "b", "c"])
    table.deal()
    table.apply(call())
    table.apply(ruling("void-round", 1))
    assert table.state.round is None and not BIDDING.is_over(table.state)  # no decision yet
    assert BIDDING.dice_needed(table.state, 0) is not None  # the round is dealt again
    assert isinstance(table.dudo_round()[-1], DecidedAtTime)


def test_t5_an_alalay_table_decided_at_time_is_reopened_and_replays_the_turns_owed() -> None:
    table = Table(ALALAY, "alalay", ["a", "b"])
    alalay_turn(table)  # a's turn 1
    alalay_turn(table)  # b's turn 1
    table.apply(alalay.Throw("a", (1, 2, 3, 4, 6)))  # a's turn 2 under way
    table.apply(call())
    ended = alalay_turn(table)[-1]
    assert ended.TYPE == "match_ended" and ended.reason == "at-time"

    table.apply(parse_ruling({"kind": "reopen", "turn": 2}, "b's dice fell"))
    assert not ALALAY.is_over(table.state) and table.state.time is not None
    assert alalay_turn(table)[-1].TYPE != "match_ended"  # b's turn 1 again
    assert alalay_turn(table)[-1].reason == "at-time"  # a's turn 2 again, then time
    assert ALALAY.replay(table.events) == table.state
    assert all(r.at_time for r in ALALAY.results(table.events))


def test_t5_a_penalty_on_an_alalay_table_decided_at_time_ranks_it_again_by_totals() -> None:
    table = Table(ALALAY, "alalay", ["a", "b"])
    alalay_turn(table)  # a's turn 1
    table.apply(call())  # b on turn: b's turn is the last
    alalay_turn(table)
    assert ALALAY.is_over(table.state) and table.state.winners == ("a", "b")  # the same throw
    winner, other = "a", "b"
    events = table.apply(parse_ruling({"kind": "penalty", "seat": winner, "points": 100}, "marked dice"))
    assert events[-1] == alalay.MatchEnded((other,), "at-time")
    results = {r.name: r for r in ALALAY.results(table.events)}
    assert results[other].placement == 1 and all(r.at_time for r in results.values())
    assert ALALAY.replay(table.events) == table.state


@pytest.mark.parametrize("game", ["bidding", "alalay"])
def test_t5_a_result_awarded_after_a_decision_at_time_is_the_referees_not_times(game: str) -> None:
    if game == "bidding":
        table = Table(BIDDING, "dudo", ["a", "b", "c"])
        table.deal()
        table.apply(call())
        table.dudo_round()
    else:
        table = Table(ALALAY, "alalay", ["a", "b", "c"])
        table.apply(call())
        alalay_turn(table)
    adapter = table.game
    assert adapter.is_over(table.state)
    award = parse_ruling({"kind": "award-result", "placements": {"a": 3, "b": 1, "c": 2}}, "scores swapped")
    table.apply(award)
    assert adapter.winners(table.state) == ("b",)
    results = {r.name: r for r in adapter.results(table.events)}
    assert {name: r.placement for name, r in results.items()} == {"a": 3, "b": 1, "c": 2}
    assert not any(r.at_time for r in results.values())
    assert adapter.replay(table.events) == table.state
