"""Physical tables in the engine (docs/engine.md, "Physical tables"), over random matches
(hypothesis): rounds entered by their outcome, dice entered by the scorekeeper, the undo
of the last entry, and no clock."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.engine import alalay, bidding
from cacho.engine.alalay import Throw
from cacho.engine.alalay import TimeOut as AlalayTimeOut
from cacho.engine.bidding import RecordOutcome, RoundRecorded, StartRound
from cacho.engine.bidding.bots import random_command
from cacho.engine.bidding.commands import Abandon, TimeOut
from cacho.engine.bidding.state import MatchState, next_live
from cacho.engine.errors import RuleError
from cacho.engine.games import GAMES
from cacho.engine.record import replay_record
from cacho.engine.undo import EntryUndone, Undo, without_undone
from tests.engine.alalay.helpers import random_step
from tests.engine.bidding.test_properties import OPTION_CHOICES

KEBAB = re.compile(r"^[a-z]+(-[a-z]+)*$")
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DUDO = GAMES["dudo"]
ALALAY = GAMES["alalay"]


@st.composite
def physical_games(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[str], int]:
    ruleset = draw(st.sampled_from(bidding.RULESETS))
    options = {name: draw(st.sampled_from(values)) for name, values in OPTION_CHOICES[ruleset].items()}
    count = draw(st.integers(min_value=2, max_value=6))
    return ruleset, options, [f"p{i}" for i in range(count)], draw(st.integers(0, 2**32))


def physical_start(ruleset: str, players: list[str], options: dict[str, Any], starter: str) -> Any:
    return replace(bidding.start_match(ruleset, players, starter=starter, options=options), physical=True)


def strip(state: Any) -> Any:
    return replace(state, undo=None)


def apply(state: Any, command: Any, log: list[Any], game: Any = DUDO) -> tuple[Any, list[Any]]:
    events = game.decide(state, command)
    for event in events:
        state = game.evolve(state, event)
    log.extend(events)
    return state, events


def bidding_step(state: MatchState, rng: random.Random, outcome_rate: float) -> Any:
    """A random legal entry: a round's outcome or its dice between rounds, a move in a round."""
    options = DUDO.entry_options(state)
    if state.round is None:
        if options["outcomes"] and rng.random() < outcome_rate:
            chosen = rng.choice(options["outcomes"])
            side = {"exact": chosen["exact"]} if "exact" in chosen else {"loser": chosen["loser"]}
            return RecordOutcome(chosen["call"], chosen["by"], direction=chosen["direction"], **side)
        return random_command(state, rng, timeout_rate=0.0)  # the round's dice
    return random_command(state, rng, timeout_rate=0.0)


def play_physical(ruleset: str, options: dict[str, Any], players: list[str], seed: int, undo_rate: float):
    """Yield (state_before, command, events, state_after) over a whole physical match."""
    rng = random.Random(seed)
    first = physical_start(ruleset, players, options, players[rng.randrange(len(players))])
    state = bidding.initial_state(first)
    yield None, None, [first], state
    outcome_rate = rng.random()
    steps = 0
    while state.phase != "over":
        steps += 1
        assert steps < 5000
        if state.undo is not None and rng.random() < undo_rate:
            command: Any = Undo()
        elif state.round is None and rng.random() < 0.03:
            live = [players[seat] for seat in state.live_seats()]
            command = Abandon(rng.choice(live))
        else:
            command = bidding_step(state, rng, outcome_rate)
        log: list[Any] = []
        after, events = apply(state, command, log)
        yield state, command, events, after
        state = after


@FAST
@given(physical_games(), st.floats(min_value=0.0, max_value=0.3))
def test_outcome_rounds_account_for_every_die(game: tuple[Any, ...], undo_rate: float) -> None:
    ruleset, options, players, seed = game
    rules = bidding.make_rules(ruleset, options)
    for before, _command, events, after in play_physical(ruleset, options, players, seed, undo_rate):
        if before is None or not isinstance(events[-1], RoundRecorded):
            continue
        (event,) = events
        assert isinstance(event, RoundRecorded)
        changed = dict(event.dice_change)
        for seat, name in enumerate(players):
            assert after.dice_counts[seat] - before.dice_counts[seat] == changed.get(name, 0)
            assert 0 <= after.dice_counts[seat] <= 5
        if event.result == "restart":
            assert changed == {event.caller: -before.dice_counts[players.index(event.caller)]}
        elif event.result == "calza":
            held = before.dice_counts[players.index(event.caller)]
            assert set(changed) <= {event.caller}
            assert changed.get(event.caller, 0) in (0 if held == 5 else 1, -min(held, rules.calza_penalty))
        else:
            assert len(changed) == 1 and list(changed.values()) == [-1]
            assert set(changed) <= {event.caller, event.target}
        # eliminations are exactly the players who went from some dice to none
        gone = [players[s] for s in range(len(players)) if before.dice_counts[s] > 0 == after.dice_counts[s]]
        assert sorted(event.eliminated) == sorted(gone)
        live = after.live_seats()
        assert (event.winner is not None) == (len(live) == 1)
        if event.winner is None:
            # the loser (or the calza's caller) opens next, or the next player holding dice
            designated = event.caller if event.result in ("calza", "restart") else next(iter(changed))
            if event.result == "restart":
                designated = players[before.next_starter]
            seat = players.index(designated)
            if after.dice_counts[seat] == 0:
                seat = next_live(after.dice_counts, seat, event.direction)
            assert event.next_starter == players[seat] == players[after.next_starter]
            assert after.round is None and after.phase == "awaiting-dice"


@FAST
@given(physical_games(), st.floats(min_value=0.0, max_value=0.3))
def test_replay_equals_live_and_undo_gives_back_the_state_before(
    game: tuple[Any, ...], undo_rate: float
) -> None:
    ruleset, options, players, seed = game
    log: list[Any] = []
    history: list[Any] = []  # the stripped state before each entry still in effect
    for before, command, events, after in play_physical(ruleset, options, players, seed, undo_rate):
        log.extend(events)
        assert bidding.replay(log) == after
        for event in events:
            assert bidding.event_from_dict(json.loads(json.dumps(bidding.event_to_dict(event)))) == event
        if before is None:
            continue
        if isinstance(command, Undo):
            assert events == [EntryUndone()]
            assert after == history.pop()  # undo then replay: the state before the entry
            assert after.undo is None
            with pytest.raises(RuleError) as refused:  # once, until the next entry
                bidding.decide(after, Undo())
            assert refused.value.code == "nothing-to-undo"
        else:
            history = [strip(before)]
            assert after.undo == strip(before)
    # an undone entry never happened: the log without them replays to the same table
    kept = without_undone(log)
    assert not any(isinstance(event, EntryUndone) for event in kept)
    assert strip(bidding.replay(kept)) == strip(bidding.replay(log))


@FAST
@given(physical_games(), st.floats(min_value=0.0, max_value=0.3))
def test_physical_record_round_trip(game: tuple[Any, ...], undo_rate: float) -> None:
    ruleset, options, players, seed = game
    log: list[Any] = []
    final: Any = None
    for _before, _command, events, after in play_physical(ruleset, options, players, seed, undo_rate):
        log.extend(events)
        final = after
    record = bidding.write_record(log)
    json.dumps(record)
    outcome = replay_record(json.loads(json.dumps(record)))
    assert outcome["valid"], outcome
    assert outcome["dice"] == dict(zip(players, final.dice_counts, strict=True))
    assert outcome["winner"] == players[final.winner]
    again = DUDO.record_events(record, physical=True)
    replayed = bidding.replay(again)
    assert replayed.dice_counts == final.dice_counts and replayed.winner == final.winner
    assert DUDO.write_record(again) == record
    results = DUDO.results(log)
    assert [r.placement for r in results if r.seat == final.winner] == [1]
    assert DUDO.results(log) == DUDO.results(without_undone(log))


@FAST
@given(physical_games())
def test_every_offered_outcome_is_accepted_and_every_other_refused(game: tuple[Any, ...]) -> None:
    ruleset, options, players, seed = game
    rng = random.Random(seed)
    for before, _command, _events, _after in play_physical(ruleset, options, players, seed, 0.0):
        if before is None or before.round is not None or before.phase == "over":
            continue
        offered = DUDO.entry_options(before)["outcomes"]
        keys = {(o["call"], o["by"], o["direction"], o.get("loser"), o.get("exact")) for o in offered}
        for _ in range(8):
            call = rng.choice(["dudo", "calza", "paso", "salpicon"])
            by = rng.choice(players)
            direction = rng.choice(["cw", "ccw"])
            side: dict[str, Any] = (
                {"exact": rng.random() < 0.5} if call == "calza" else {"loser": rng.choice(players)}
            )
            command = RecordOutcome(call, by, direction=direction, **side)  # type: ignore[arg-type]
            try:
                bidding.decide(before, command)
            except RuleError as exc:
                assert KEBAB.match(exc.code)
                assert (call, by, direction, side.get("loser"), side.get("exact")) not in keys
            else:
                assert (call, by, direction, side.get("loser"), side.get("exact")) in keys


def test_entered_dice_are_validated_and_nothing_changes() -> None:
    state = bidding.initial_state(physical_start("dudo", ["ana", "beto"], {}, "ana"))
    for dice, code in (
        (((1, 2, 3, 4), (1, 2, 3, 4, 5)), "dice-mismatch"),
        (((1, 2, 3, 4, 7), (1, 2, 3, 4, 5)), "invalid-face"),
        (((1, 2, 3, 4, 5),), "dice-mismatch"),
    ):
        with pytest.raises(RuleError) as refused:
            bidding.decide(state, StartRound(dice))
        assert refused.value.code == code
    with pytest.raises(RuleError) as refused:
        DUDO.parse_entry(state, {"type": "dice", "dice": {"ana": [1, 2], "zoe": [3]}})
    assert refused.value.code == "unknown-player"
    command = DUDO.parse_entry(state, {"type": "dice", "dice": {"ana": [1, 2, 3, 4, 5], "beto": [6] * 5}})
    (started,) = bidding.decide(state, command)
    assert started.dice == ((1, 2, 3, 4, 5), (6,) * 5) and started.deadline is None


def test_outcome_rules_are_the_rules_words() -> None:
    state = bidding.initial_state(physical_start("cacho-online", ["ana", "beto", "caro"], {}, "ana"))
    cases = [
        (RecordOutcome("calza", "ana", exact=True), "calza-with-five-dice"),
        (RecordOutcome("paso", "ana", loser="ana"), "action-not-in-ruleset"),
        (RecordOutcome("dudo", "beto", loser="caro"), "outcome-loser"),
        (RecordOutcome("dudo", "beto", loser="ana", against="caro"), "outcome-wrong-target"),
        (RecordOutcome("dudo", "beto"), "outcome-loser-missing"),
        (RecordOutcome("dudo", "zoe", loser="ana"), "unknown-player"),
    ]
    for command, code in cases:
        with pytest.raises(RuleError) as refused:
            bidding.decide(state, command)
        assert refused.value.code == code, command
    # beto doubts ana's bid (the player before him) in the direction the starter chose
    (event,) = bidding.decide(state, RecordOutcome("dudo", "beto", loser="beto", direction="ccw"))
    assert event.target == "caro" and event.next_starter == "beto"


def test_an_online_match_takes_no_outcome_no_undo_and_no_entry() -> None:
    state = bidding.initial_state(bidding.start_match("dudo", ["ana", "beto"], starter="ana"))
    for command, code in (
        (RecordOutcome("dudo", "beto", loser="ana"), "outcome-not-physical"),
        (Undo(), "undo-not-physical"),
    ):
        with pytest.raises(RuleError) as refused:
            bidding.decide(state, command)
        assert refused.value.code == code
    with pytest.raises(RuleError) as refused:
        DUDO.parse_entry(state, {"type": "undo"})
    assert refused.value.code == "not-physical"


def test_a_physical_table_has_no_clock_and_no_bot() -> None:
    log: list[Any] = []
    state = bidding.initial_state(physical_start("dudo", ["ana", "beto"], {}, "ana"))
    assert DUDO.dice_needed(state, 0) is None
    state, _ = apply(state, StartRound(((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))), log)
    assert DUDO.turn_key(state) is None and DUDO.deadline(state, 1000, 30) is None
    assert DUDO.bot_payload(state, "ana", random.Random(1)) is None
    with pytest.raises(RuleError) as refused:
        bidding.decide(state, TimeOut("ana", at=10**15))
    assert refused.value.code == "timeout-at-physical-table"


# ---------------------------------------------------------------- Alalay


def alalay_physical(players: list[str], seed: int, undo_rate: float):
    rng = random.Random(seed)
    (first,) = alalay.start_match(players, first=rng.randrange(len(players)))
    first = replace(first, physical=True)
    state = alalay.initial_state(first)
    yield None, None, [first], state
    steps = 0
    while not state.over:
        steps += 1
        assert steps < 3000
        command = (
            Undo() if state.undo is not None and rng.random() < undo_rate else random_step(state, rng, 0.01)
        )
        log: list[Any] = []
        after, events = apply(state, command, log, ALALAY)
        yield state, command, events, after
        state = after


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32), st.floats(min_value=0.0, max_value=0.3))
def test_alalay_undo_replay_and_record(count: int, seed: int, undo_rate: float) -> None:
    players = [f"e{i}" for i in range(count)]
    log: list[Any] = []
    history: list[Any] = []
    final: Any = None
    for before, command, events, after in alalay_physical(players, seed, undo_rate):
        log.extend(events)
        assert alalay.replay(log) == after
        for event in events:
            assert alalay.event_from_dict(json.loads(json.dumps(alalay.event_to_dict(event)))) == event
        if before is not None and isinstance(command, Undo):
            assert after == history.pop() and after.undo is None
        elif before is not None:
            history = [strip(before)]
        final = after
    record = alalay.write_record(log)
    outcome = replay_record(json.loads(json.dumps(record)))
    assert outcome["valid"], outcome
    assert outcome["totals"] == dict(zip(players, final.totals, strict=True))
    again = alalay.replay(ALALAY.record_events(record, physical=True))
    assert {e.name: t for e, t in zip(again.entries, again.totals, strict=True)} == outcome["totals"]
    assert ALALAY.results(log) == ALALAY.results(
        without_undone(log, lambda e: isinstance(e, alalay.MatchEnded))
    )


def test_alalay_entries_and_no_clock() -> None:
    (first,) = alalay.start_match(["ana", "beto"])
    state = alalay.initial_state(replace(first, physical=True))
    assert ALALAY.turn_key(state) is None and ALALAY.deadline(state, 1000, 30) is None
    with pytest.raises(RuleError) as refused:
        alalay.decide(state, AlalayTimeOut("ana", at=1000))
    assert refused.value.code == "timeout-at-physical-table"
    with pytest.raises(RuleError) as refused:
        alalay.decide(state, ALALAY.parse_entry(state, {"type": "throw", "by": "ana", "dice": [1, 2, 3, 4]}))
    assert refused.value.code == "wrong-dice-count"
    command = ALALAY.parse_entry(state, {"type": "throw", "by": "ana", "dice": [2, 3, 4, 5, 6]})
    assert command == Throw("ana", (2, 3, 4, 5, 6))
    assert ALALAY.entry_options(state)["legal"]["throw"] is True
    with pytest.raises(RuleError) as refused:
        alalay.decide(state, Undo())
    assert refused.value.code == "nothing-to-undo"


@pytest.mark.parametrize(
    ("outcome", "code"),
    [
        ({"by": "ana", "call": "calza", "loser": "ana", "exact": True}, "unknown-field"),
        ({"by": "ana", "call": "calza"}, "missing-field"),
        ({"by": "ana", "call": "dudo"}, "missing-field"),
        ({"by": "ana", "call": "calzo", "exact": True}, "unknown-value"),
        ({"by": "ana", "abandon": False}, "unknown-value"),
        ({"by": "ana", "abandon": True, "loser": "ana"}, "unknown-field"),
        ({"by": "ana", "call": "dudo", "loser": "beto", "abandon": True}, "action-kind"),
        ({"by": 3, "call": "dudo", "loser": "beto"}, "wrong-type"),
    ],
)
def test_outcome_rounds_of_the_wrong_shape_are_not_records(outcome: dict[str, Any], code: str) -> None:
    from cacho.engine.errors import RecordFormatError

    record = {
        "format": "cacho-match/1",
        "game": "dudo",
        "ruleset": "dudo",
        "players": ["ana", "beto"],
        "rounds": [{"outcome": outcome}],
    }
    with pytest.raises(RecordFormatError) as refused:
        replay_record(record)
    assert refused.value.code == code


def test_a_player_at_a_physical_table_is_offered_no_move() -> None:
    from cacho.engine.viewer import Viewer

    log: list[Any] = []
    state = bidding.initial_state(physical_start("dudo", ["ana", "beto"], {}, "ana"))
    state, _ = apply(state, StartRound(((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))), log)
    assert bidding.view(state, Viewer.of_player("ana"))["legal"]["actions"] == []
    assert DUDO.entry_options(state)["legal"]["actions"]  # the scorekeeper enters them
    (first,) = alalay.start_match(["ana", "beto"])
    table = alalay.initial_state(replace(first, physical=True))
    assert alalay.view(table, Viewer.of_player("ana"))["turn"]["legal"]["throw"] is False
    assert ALALAY.entry_options(table)["legal"]["throw"] is True


def test_an_online_record_with_timeouts_imports_as_a_physical_match() -> None:
    """A record states the timeouts an online match had; imported, it replays them (no clock
    time), and its match still runs no clock."""
    import pathlib

    folder = pathlib.Path(__file__).parent / "fixtures" / "records"
    for name in ("cacho-online-timeout-raises-same-face", "alalay-timeout-tie-scores-the-first-box"):
        record = json.loads((folder / f"{name}.json").read_text())
        game = GAMES[record["game"]]
        events = game.record_events(record, physical=True)
        state = game.replay(events)
        assert game.is_physical(state) and game.turn_key(state) is None
        assert replay_record(game.write_record(events)) == replay_record(record)
