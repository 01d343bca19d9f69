"""Time called at a physical table between two entries (docs/rules.md §9.1, T-1 and T-6;
docs/physical.md, "At time"): the round under way at the real table is owed, entered by
its outcome, die by die, or as the scorekeeper's state at time, which the sheet bounds;
then the policy decides. Rows of the rule, then a property over random physical play with
a time call at a random moment (hypothesis): dice are only lost (but a calza's gain),
replay equals live, events survive JSON, the record replays to the same end."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.engine import alalay, bidding
from cacho.engine.bidding import RecordOutcome, RoundRecorded, StateAtTime
from cacho.engine.bidding.ruling_events import DecidedAtTime, TimeCalled
from cacho.engine.errors import RecordFormatError, RuleError
from cacho.engine.games import GAMES
from cacho.engine.rulings import parse_ruling
from tests.engine.test_physical import bidding_step, physical_games

DUDO = GAMES["dudo"]


def call(policy: str = "dice-left") -> Any:
    return parse_ruling({"kind": "call-time", "policy": policy})


class Sheet:
    """A physical match driven through the game adapter, keeping its events."""

    def __init__(
        self, ruleset: str = "dudo", seats: tuple[str, ...] = ("a", "b", "c"), physical: bool = True
    ) -> None:
        first = bidding.start_match(ruleset, list(seats), starter=seats[0])
        self.events: list[Any] = [replace(first, physical=physical)]
        self.state = DUDO.replay(self.events)

    def apply(self, command: Any) -> list[Any]:
        out = DUDO.decide(self.state, command)
        for event in out:
            self.state = DUDO.evolve(self.state, event)
            self.events.append(event)
        return out

    def entry(self, **payload: Any) -> list[Any]:
        return self.apply(DUDO.parse_entry(self.state, payload))

    def outcome(self) -> list[Any]:
        """The first outcome offered: its caller loses a die."""
        chosen = next(o for o in DUDO.entry_options(self.state)["outcomes"] if "loser" in o)
        return self.apply(RecordOutcome(chosen["call"], chosen["by"], loser=chosen["by"]))

    def refused(self, code: str, **payload: Any) -> None:
        before = (self.state, list(self.events))
        with pytest.raises(RuleError) as refusal:
            self.entry(**payload)
        assert refusal.value.code == code
        assert (self.state, self.events) == before  # nothing stored on a refusal


@pytest.mark.parametrize("ruleset", bidding.RULESETS)
def test_t1_time_called_between_entries_waits_for_the_round_under_way(ruleset: str) -> None:
    sheet = Sheet(ruleset)
    sheet.outcome()
    assert sheet.apply(call()) == [TimeCalled("dice-left", "", round_under_way=True)]
    assert not DUDO.is_over(sheet.state)
    options = DUDO.entry_options(sheet.state)
    assert options["state_at_time"] == options["dice"] and options["outcomes"]
    events = sheet.outcome()  # the round under way, entered by its outcome
    assert isinstance(events[0], RoundRecorded) and isinstance(events[-1], DecidedAtTime)
    assert DUDO.is_over(sheet.state)


def test_t1_the_round_under_way_may_be_entered_die_by_die() -> None:
    sheet = Sheet()
    sheet.apply(call())
    assert not DUDO.is_over(sheet.state)  # nothing entered yet: the first round is under way
    sheet.entry(type="dice", dice={name: [2] * 5 for name in ("a", "b", "c")})
    assert DUDO.entry_options(sheet.state)["state_at_time"] is None  # its dice are entered
    sheet.entry(type="bid", by="a", quantity=1, face=2)
    events = sheet.entry(type="dudo", by="b")
    assert isinstance(events[-1], DecidedAtTime) and DUDO.is_over(sheet.state)


def test_t6_the_state_at_time_decides_by_the_dice_it_gives() -> None:
    sheet = Sheet()
    sheet.outcome()  # a: 4 dice
    sheet.apply(call())
    events = sheet.entry(type="state-at-time", dice={"a": 4, "b": 4, "c": 5})
    recorded, decided = events
    assert isinstance(recorded, RoundRecorded) and recorded.result == "at-time"
    assert recorded.caller is None and recorded.dice_change == (("b", -1),)
    assert decided == DecidedAtTime("dice-left", (("a", 4), ("b", 4), ("c", 5)))
    places = {r.name: r.placement for r in DUDO.results(sheet.events)}
    assert places == {"c": 1, "a": 2, "b": 2} and all(r.at_time for r in DUDO.results(sheet.events))


def test_t6_dice_as_they_are_say_no_round_changed_them() -> None:
    sheet = Sheet()
    sheet.outcome()
    sheet.apply(call())
    events = sheet.entry(type="state-at-time", dice={"a": 4, "b": 5, "c": 5})
    assert events[0].dice_change == () and isinstance(events[-1], DecidedAtTime)


def test_t6_a_calza_s_gain_is_a_round_s_change() -> None:
    sheet = Sheet("cacho-chileno")
    sheet.outcome()  # a: 4 dice; an exact calza gives one back
    sheet.apply(call())
    events = sheet.entry(type="state-at-time", dice={"a": 5, "b": 5, "c": 5})
    assert events[0].dice_change == (("a", 1),)


def test_t6_two_more_rounds_follow_the_state_at_time() -> None:
    sheet = Sheet()
    sheet.outcome()
    sheet.apply(call("two-more-rounds"))
    sheet.entry(type="state-at-time", dice={"a": 4, "b": 5, "c": 4})
    assert not DUDO.is_over(sheet.state) and DUDO.entry_options(sheet.state)["state_at_time"] is None
    sheet.outcome()
    assert not DUDO.is_over(sheet.state)
    assert isinstance(sheet.outcome()[-1], DecidedAtTime)


def test_t6_a_state_no_round_could_leave_is_refused_and_nothing_stored() -> None:
    sheet = Sheet()
    sheet.refused("time-no-round-owed", type="state-at-time", dice={"a": 5, "b": 5, "c": 5})  # no call
    sheet.outcome()
    sheet.apply(call())
    sheet.refused("state-at-time-impossible", type="state-at-time", dice={"a": 5, "b": 4, "c": 5})  # swapped
    sheet.refused("state-at-time-impossible", type="state-at-time", dice={"a": 4, "b": 4, "c": 4})  # two lost
    sheet.refused("state-at-time-impossible", type="state-at-time", dice={"a": 4, "b": 3, "c": 5})  # two dice
    sheet.refused("state-at-time-players", type="state-at-time", dice={"a": 4, "b": 5})
    sheet.refused("unknown-player", type="state-at-time", dice={"a": 4, "b": 5, "c": 5, "z": 1})
    sheet.refused("state-at-time-dice", type="state-at-time", dice={"a": 4, "b": 5, "c": 6})
    sheet.refused("invalid-field", type="state-at-time", dice={"a": "4", "b": 5, "c": 5})
    sheet.outcome()  # the round under way entered: the table is decided, nothing is owed
    sheet.refused("match-over", type="state-at-time", dice={"a": 3, "b": 5, "c": 5})


def test_an_online_match_owes_no_round_and_takes_no_state_at_time() -> None:
    sheet = Sheet(physical=False)
    sheet.apply(bidding.StartRound(((2,) * 5,) * 3))
    sheet.apply(bidding.PlaceBid("a", 1, 2))
    sheet.apply(bidding.CallDudo("b"))
    assert sheet.apply(call())[0] == TimeCalled("dice-left", "")  # between rounds: at once
    assert DUDO.is_over(sheet.state)
    with pytest.raises(RuleError) as refusal:
        DUDO.decide(sheet.state, StateAtTime((("a", 5),)))
    assert refusal.value.code in ("match-over", "outcome-not-physical")


def test_the_record_states_the_owed_round_and_old_records_replay_as_they_did() -> None:
    sheet = Sheet()
    sheet.outcome()
    sheet.apply(call())
    sheet.entry(type="state-at-time", dice={"a": 4, "b": 4, "c": 5})
    record = json.loads(json.dumps(DUDO.write_record(sheet.events)))
    assert record["rounds"][0]["actions"][0]["ruling"]["round_under_way"] is True
    assert record["rounds"][1]["outcome"] == {"at_time": {"a": 4, "b": 4, "c": 5}}
    replayed = DUDO.replay_record(record)
    assert replayed["valid"] and replayed["time_called"]["decided_at_time"] is True
    assert replayed["rounds"][1]["result"] == "at-time"
    assert DUDO.record_events(record) == sheet.events
    # a record without the flag is one written before owed rounds: decided at once
    del record["rounds"][0]["actions"][0]["ruling"]["round_under_way"]
    old = DUDO.replay_record({**record, "rounds": record["rounds"][:1]})
    assert old["time_called"]["decided_at_time"] is True
    assert DUDO.replay_record(record)["error"]["code"] == "match-over"


@pytest.mark.parametrize("entry", ["state-at-time", "dice", "outcome"])
def test_a_call_before_the_first_entry_owes_the_first_round_and_the_record_keeps_it(entry: str) -> None:
    sheet = Sheet()
    sheet.apply(call())
    if entry == "state-at-time":
        sheet.entry(type="state-at-time", dice={"a": 5, "b": 4, "c": 5})
    elif entry == "dice":
        sheet.entry(type="dice", dice={name: [2] * 5 for name in ("a", "b", "c")})
        sheet.entry(type="bid", by="a", quantity=1, face=2)
        sheet.entry(type="dudo", by="b")
    else:
        sheet.outcome()
    assert isinstance(sheet.events[-1], DecidedAtTime) and DUDO.is_over(sheet.state)
    record = json.loads(json.dumps(DUDO.write_record(sheet.events)))
    assert record["rulings"] == [
        {"ruling": {"kind": "call-time", "policy": "dice-left", "round_under_way": True}, "reason": ""}
    ]
    assert list(record) == ["format", "game", "ruleset", "options", "players", "setup", "rulings", "rounds"]
    replayed = DUDO.replay_record(record)
    assert replayed["valid"] and replayed["time_called"]["decided_at_time"] is True
    assert len(replayed["rounds"]) == 1 and replayed["rounds"][0]["result"] is not None
    assert DUDO.record_events(record, physical=True) == sheet.events
    assert DUDO.record_events(record) == sheet.events  # a ruling before the first round: physical


def test_a_record_in_progress_with_only_a_call_replays_waiting_for_its_first_round() -> None:
    sheet = Sheet()
    sheet.apply(call("two-more-rounds"))
    record = json.loads(json.dumps(DUDO.write_record(sheet.events)))
    assert record["rounds"] == [] and record["rulings"][0]["ruling"]["policy"] == "two-more-rounds"
    replayed = DUDO.replay_record(record)
    assert replayed["valid"] and replayed["rounds"] == [] and replayed["winner"] is None
    assert replayed["time_called"] == {
        "policy": "two-more-rounds",
        "decided_at_time": False,
        "placements": None,
    }
    assert DUDO.record_events(record) == sheet.events


def test_rulings_before_the_first_round_are_judged_in_order_and_hold_rulings_only() -> None:
    sheet = Sheet()
    sheet.apply(call())
    record = json.loads(json.dumps(DUDO.write_record(sheet.events)))
    record["rulings"].append(record["rulings"][0])  # a second call, as live play refuses it
    replayed = DUDO.replay_record(record)
    assert replayed["valid"] is False
    assert {k: replayed["error"][k] for k in ("round", "action", "code")} == {
        "round": None,
        "action": 1,
        "code": "time-already-called",
    }
    for wrong, code in (({"by": "a", "bid": [1, 2]}, "action-kind"), ("call-time", "action-kind")):
        with pytest.raises(RecordFormatError) as refusal:
            DUDO.replay_record({**record, "rulings": [wrong]})
        assert refusal.value.code == code
    with pytest.raises(RecordFormatError) as refusal:
        DUDO.replay_record({**record, "rulings": {}})
    assert refusal.value.code == "wrong-type"


@pytest.mark.parametrize("first", [0, 1])
def test_an_alalay_call_before_the_first_throw_is_the_record_s_first_item(first: int) -> None:
    alalay_game = GAMES["alalay"]
    events: list[Any] = alalay_game.start("alalay", {}, ["a", "b", "c"], first, 30, physical=True)
    state = alalay_game.replay(events)
    for command in (
        parse_ruling({"kind": "call-time"}),
        alalay.Throw(alalay_game.to_act(state), (2, 3, 4, 5, 6)),
        alalay.Score(alalay_game.to_act(state), "straight"),
    ):
        for event in alalay_game.decide(state, command):
            state = alalay_game.evolve(state, event)
            events.append(event)
    assert state.over and state.win_reason == "at-time"  # the turn under way, then the end
    record = json.loads(json.dumps(alalay_game.write_record(events)))
    assert record["turns"][0] == {
        "ruling": {"kind": "call-time", "policy": "sheet-as-it-stands"},
        "reason": "",
    }
    replayed = alalay_game.replay_record(record)
    assert replayed["valid"] and replayed["win_reason"] == "at-time"
    assert replayed["time_called"] == {"policy": "sheet-as-it-stands", "decided_at_time": True}
    again = alalay_game.record_events(record, physical=True)  # the seats from the first thrower
    if first == 0:
        assert again == events
    places = {r.name: (r.placement, r.at_time) for r in alalay_game.results(events)}
    assert {r.name: (r.placement, r.at_time) for r in alalay_game.results(again)} == places


# ---------------------------------------------------------------- property


def _state_at_time(state: Any, rng: random.Random) -> StateAtTime:
    """A random state at time: one an offered outcome leaves, the dice as they are, or noise."""
    players = state.config.players
    held = {players[seat]: state.dice_counts[seat] for seat in state.live_seats()}
    roll = rng.random()
    outcomes = DUDO.entry_options(state)["outcomes"]
    if roll < 0.5 and outcomes:
        for name, delta in rng.choice(outcomes)["dice_change"].items():
            held[name] += delta
    elif roll < 0.8:
        name = rng.choice(list(held))
        held[name] = rng.randrange(0, 6)
    return StateAtTime(tuple(held.items()))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    physical_games(),
    st.sampled_from(["dice-left", "two-more-rounds", "sudden-death"]),
    st.integers(0, 30),
)
def test_physical_time_calls_lose_dice_only_as_a_round_can_and_replay(
    game: tuple[Any, ...], policy: str, call_after: int
) -> None:
    ruleset, options, players, seed = game
    rng = random.Random(seed)
    first = replace(bidding.start_match(ruleset, players, starter=players[0], options=options), physical=True)
    events: list[Any] = [first]
    state = bidding.initial_state(first)
    called = False
    steps = 0
    while state.phase != "over" and steps < 3000:
        steps += 1
        # call_after 0: the call comes before the first entry, written in the record's `rulings`
        if steps > call_after and not called:
            command: Any = call(policy)
            called = True
        elif DUDO.entry_options(state)["state_at_time"] is not None and rng.random() < 0.5:
            command = _state_at_time(state, rng)
        else:
            command = bidding_step(state, rng, outcome_rate=0.7)
        before = state
        try:
            out = DUDO.decide(state, command)
        except RuleError:
            assert isinstance(command, StateAtTime)  # only the noise is refused
            continue
        for event in out:
            state = DUDO.evolve(state, event)
        events.extend(out)
        if isinstance(command, StateAtTime):
            recorded = out[0]
            assert isinstance(recorded, RoundRecorded) and recorded.result == "at-time"
            change = dict(recorded.dice_change)
            offered = [o["dice_change"] for o in DUDO.entry_options(before)["outcomes"]]
            assert not change or change in offered  # exactly one round's worth, or none
            assert all(delta < 0 or delta == 1 for delta in change.values())  # a gain: a calza's die
            held_before = before.table.time.held(before.dice_counts)
            held_after = state.table.time.held(state.dice_counts)
            assert sum(held_after) - sum(held_before) == sum(change.values())  # nothing else moves
            assert all(0 <= dice <= 5 for dice in held_after)
        if isinstance(command, type(call())) and before.round is None:
            assert out[0].round_under_way  # a physical table between entries owes its round
        assert DUDO.replay(events) == state
    restored = [DUDO.event_from_dict(json.loads(json.dumps(DUDO.event_to_dict(e)))) for e in events]
    assert DUDO.replay(restored) == DUDO.replay(events)
    record = json.loads(json.dumps(DUDO.write_record(events)))
    replayed = DUDO.replay_record(record)
    assert replayed["valid"] is True
    assert DUDO.record_events(record, physical=True) == events
    if called and state.table.time is not None:
        assert replayed["time_called"]["decided_at_time"] == state.table.time.decided
