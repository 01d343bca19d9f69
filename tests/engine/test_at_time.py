"""Rounds at time (docs/rules.md §9.1, T-1 to T-4) in every ruleset: the rows of the
rules, then properties over random play with a time call at a random moment (hypothesis):
dice are conserved, replay equals the live state, the written record replays to the same
end, and the placements follow the policy."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.engine import alalay, bidding
from cacho.engine.bidding.bots import random_command
from cacho.engine.bidding.ruling_events import DecidedAtTime, PlayersSetAside, TimeCalled
from cacho.engine.errors import RuleError
from cacho.engine.games import GAMES
from cacho.engine.rulings import parse_ruling
from cacho.engine.viewer import Viewer

BIDDING = GAMES["dudo"]
ALALAY = GAMES["alalay"]
TURN = 30


def call(policy: str | None = None) -> Any:
    return parse_ruling({"kind": "call-time"} if policy is None else {"kind": "call-time", "policy": policy})


class Table:
    """A live match driven through the game adapter, keeping its events."""

    def __init__(self, game: Any, ruleset: str, seats: list[str]) -> None:
        self.game = game
        self.events = game.start(ruleset, {}, seats, 0, TURN)
        self.state = game.replay(self.events)

    def apply(self, command: Any) -> list[Any]:
        out = self.game.decide(self.state, command)
        for event in out:
            self.state = self.game.evolve(self.state, event)
            self.events.append(event)
        return out

    def deal(self, face: int = 2) -> None:
        self.apply(bidding.StartRound(tuple((face,) * count for count in self.state.dice_counts)))

    def dudo_round(self) -> list[Any]:
        """The opener bids one die of the face everyone holds; the next player doubts it: the
        doubter loses a die."""
        if self.state.round is None:
            self.deal()
        opener = self.game.to_act(self.state)
        self.apply(bidding.PlaceBid(opener, 1, 2))
        return self.apply(bidding.CallDudo(self.game.to_act(self.state)))


# ---------------------------------------------------------------- bidding rows


@pytest.mark.parametrize("ruleset", bidding.RULESETS)
def test_t1_the_round_under_way_plays_to_its_end_then_dice_left_decides(ruleset: str) -> None:
    table = Table(BIDDING, ruleset, ["a", "b", "c"])
    table.deal()
    assert table.apply(call()) == [TimeCalled("dice-left", "")]
    assert table.state.round is not None and not BIDDING.is_over(table.state)
    view = BIDDING.view(table.state, Viewer.spectator())
    assert view["time_called"] == {"policy": "dice-left", "decided_at_time": False, "set_aside": {}}
    events = table.dudo_round()
    assert isinstance(events[-1], DecidedAtTime)
    assert BIDDING.is_over(table.state)
    assert BIDDING.dice_needed(table.state, 0) is None  # no new round starts
    results = BIDDING.results(table.events)
    assert all(r.at_time for r in results)
    # the doubter lost a die: the two others share the first place on 5 dice
    assert sorted(r.placement for r in results) == [1, 1, 3]
    assert {r.dice_left: r.placement for r in results} == {5: 1, 4: 3}
    assert set(BIDDING.winners(table.state)) == {r.name for r in results if r.placement == 1}


@pytest.mark.parametrize("ruleset", bidding.RULESETS)
def test_t2_players_out_earlier_keep_their_places_below(ruleset: str) -> None:
    table = Table(BIDDING, ruleset, ["a", "b", "c"])
    table.deal()
    table.apply(bidding.Abandon("c"))  # c is out before time
    table.deal()
    table.apply(call("dice-left"))
    table.dudo_round()
    places = {r.name: r.placement for r in BIDDING.results(table.events)}
    assert places["c"] == 3
    assert sorted([places["a"], places["b"]]) == [1, 2]


@pytest.mark.parametrize("ruleset", bidding.RULESETS)
def test_t2_time_called_between_rounds_decides_at_once(ruleset: str) -> None:
    table = Table(BIDDING, ruleset, ["a", "b"])
    events = table.apply(call())
    assert isinstance(events[-1], DecidedAtTime)
    assert [r.placement for r in BIDDING.results(table.events)] == [1, 1]


@pytest.mark.parametrize("ruleset", bidding.RULESETS)
def test_t2_two_more_rounds_are_played_first(ruleset: str) -> None:
    table = Table(BIDDING, ruleset, ["a", "b", "c"])
    table.deal()
    table.apply(call("two-more-rounds"))
    for _ in range(2):
        assert not isinstance(table.dudo_round()[-1], DecidedAtTime)
    assert isinstance(table.dudo_round()[-1], DecidedAtTime)
    assert table.state.rounds_started == 3


@pytest.mark.parametrize("ruleset", bidding.RULESETS)
def test_t2_sudden_death_leaders_play_on_alone(ruleset: str) -> None:
    table = Table(BIDDING, ruleset, ["a", "b", "c"])
    table.deal()
    table.apply(call("sudden-death"))
    events = table.dudo_round()
    aside = events[-1]
    assert isinstance(aside, PlayersSetAside)
    (loser, held), *_ = aside.players
    assert held == 4
    assert sum(table.state.dice_counts) == 10  # only the two leaders play
    assert BIDDING.view(table.state, Viewer.spectator())["time_called"]["set_aside"] == {loser: 4}
    events = table.dudo_round()
    assert isinstance(events[-1], DecidedAtTime)
    results = BIDDING.results(table.events)
    assert sum(r.dice_left for r in results) == 13  # the set-aside dice count
    assert [r.placement for r in results if r.dice_left == 5] == [1]
    assert sorted(r.placement for r in results if r.dice_left == 4) == [2, 2]


def test_t4_errors_leave_nothing_changed() -> None:
    table = Table(BIDDING, "dudo", ["a", "b"])
    table.deal()
    with pytest.raises(RuleError) as unknown:
        table.apply(call("sheet-as-it-stands"))
    assert unknown.value.code == "time-policy-unknown"
    table.apply(call())
    with pytest.raises(RuleError) as twice:
        table.apply(call())
    assert twice.value.code == "time-already-called"


# ---------------------------------------------------------------- Alalay rows


def alalay_turn(table: Table, dice: tuple[int, ...] = (1, 2, 3, 4, 6)) -> list[Any]:
    entry = ALALAY.to_act(table.state)
    if table.state.turn.phase == "await":
        table.apply(alalay.Throw(entry, dice))
    legal = alalay.legal_actions(table.state, entry)
    return table.apply(alalay.Score(entry, legal.score[0]))


def test_t3_sheet_as_it_stands_ends_after_the_turn_under_way() -> None:
    table = Table(ALALAY, "alalay", ["a", "b", "c"])
    alalay_turn(table)
    table.apply(alalay.Throw("b", (1, 2, 3, 4, 6)))
    table.apply(call())
    assert not table.state.over
    ended = alalay_turn(table)[-1]
    assert ended == alalay.MatchEnded(("a", "b"), "at-time")
    results = ALALAY.results(table.events)
    assert [r.placement for r in results] == [1, 1, 3]  # c's open boxes count 0
    assert all(r.at_time for r in results)
    assert ALALAY.view(table.state, Viewer.spectator())["time_called"] == {
        "policy": "sheet-as-it-stands",
        "decided_at_time": True,
    }


def test_t3_finish_the_round_of_turns_gives_everyone_as_many_turns() -> None:
    table = Table(ALALAY, "alalay", ["a", "b", "c"])
    alalay_turn(table)
    table.apply(call("finish-round-of-turns"))
    assert alalay_turn(table)[-1].TYPE != "match_ended"  # a's turn was b's
    assert alalay_turn(table)[-1] == alalay.MatchEnded(("a", "b", "c"), "at-time")
    assert table.state.turns_played == (1, 1, 1)


def test_t3_alalay_refuses_a_bidding_policy_and_a_second_call() -> None:
    table = Table(ALALAY, "alalay", ["a", "b"])
    with pytest.raises(RuleError) as wrong:
        table.apply(call("dice-left"))
    assert wrong.value.code == "time-policy-unknown"
    table.apply(call())
    with pytest.raises(RuleError) as twice:
        table.apply(call())
    assert twice.value.code == "time-already-called"


# ---------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    ruleset=st.sampled_from(bidding.RULESETS),
    players=st.integers(2, 5),
    policy=st.sampled_from(["dice-left", "two-more-rounds", "sudden-death"]),
    call_after=st.integers(0, 40),
)
def test_bidding_time_calls_conserve_dice_and_replay(
    seed: int, ruleset: str, players: int, policy: str, call_after: int
) -> None:
    rng = random.Random(seed)
    table = Table(BIDDING, ruleset, [f"p{i}" for i in range(players)])
    steps = 0
    called = False
    while not BIDDING.is_over(table.state) and steps < 600:
        # online the service always has a round in play (only a physical table waits for its first)
        if steps >= call_after and not called and table.state.rounds_started:
            before = sum(table.state.dice_counts)
            table.apply(call(policy))
            called = True
            time = table.state.table.time
            assert sum(time.held(table.state.dice_counts)) == before  # dice conserved
            continue
        steps += 1
        table.apply(random_command(table.state, rng))
        if called:
            time = table.state.table.time
            held = time.held(table.state.dice_counts)
            assert all(0 <= dice <= 5 for dice in held)
        assert BIDDING.replay(table.events) == table.state
    restored = [
        BIDDING.event_from_dict(json.loads(json.dumps(BIDDING.event_to_dict(e)))) for e in table.events
    ]
    assert BIDDING.replay(restored) == table.state
    record = BIDDING.write_record(table.events)
    assert BIDDING.replay_record(json.loads(json.dumps(record)))["valid"] is True
    assert BIDDING.record_events(record) == table.events
    if called and BIDDING.is_over(table.state) and table.state.winner is None:
        results = BIDDING.results(table.events)
        still_in = [r for r in results if r.dice_left > 0]
        for r in still_in:  # by dice held, most first, equal dice sharing
            assert r.placement == 1 + sum(1 for o in still_in if o.dice_left > r.dice_left)
        assert all(r.placement > len(still_in) for r in results if r.dice_left == 0)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    policy=st.sampled_from(["sheet-as-it-stands", "finish-round-of-turns"]),
    call_after=st.integers(0, 30),
)
def test_alalay_time_calls_end_the_match_and_replay(
    seed: int, players: int, policy: str, call_after: int
) -> None:
    rng = random.Random(seed)
    table = Table(ALALAY, "alalay", [f"E{i}" for i in range(players)])
    steps = 0
    while not table.state.over and steps < 400:
        if steps == call_after:
            table.apply(call(policy))
        steps += 1
        entry = ALALAY.to_act(table.state)
        payload = ALALAY.bot_payload(table.state, entry, rng)
        command = ALALAY.parse_command(entry, payload, 0)
        if hasattr(command, "build"):
            command = command.build(tuple(rng.randint(1, 6) for _ in range(command.count)))
        table.apply(command)
        assert ALALAY.replay(table.events) == table.state
    assert table.state.over
    if table.state.win_reason == "at-time":
        played = [table.state.turns_played[s] for s in range(players)]
        if policy == "finish-round-of-turns":
            assert max(played) - min(played) == 0
        assert all(r.at_time for r in ALALAY.results(table.events))
    record = ALALAY.write_record(table.events)
    out = ALALAY.replay_record(json.loads(json.dumps(record)))
    assert out["valid"] is True and out["win_reason"] == table.state.win_reason
