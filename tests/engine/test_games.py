"""The game adapters: one interface over the bidding games and Alalay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cacho.engine import alalay, bidding
from cacho.engine.errors import RecordFormatError, RuleError
from cacho.engine.games import GAMES, DiceNeeded, game_for
from cacho.engine.record import replay_record
from cacho.engine.viewer import Viewer
from tests.engine.conformance import record_files


def test_rulesets_pick_their_game() -> None:
    for ruleset in ("dudo", "cacho-chileno", "cacho-online", "liars-dice"):
        assert game_for(ruleset).name == "dudo"
    assert game_for("alalay").name == "alalay"
    with pytest.raises(RuleError) as error:
        game_for("poker")
    assert error.value.code == "unknown-ruleset"


def test_a_bidding_match_waits_for_dice_and_the_adapter_builds_the_round() -> None:
    game = GAMES["dudo"]
    events = game.start("dudo", {}, ["ana", "beto"], 1, 30)
    state = game.initial_state(events[0])
    need = game.dice_needed(state, 1000)
    assert isinstance(need, DiceNeeded) and need.count == 10 and need.scope == "round-1"
    command = need.build(tuple([1, 2, 3, 4, 5, 6, 5, 4, 3, 2]))
    (started,) = game.decide(state, command)
    state = game.evolve(state, started)
    assert game.event_dice(started, state) == (1, 2, 3, 4, 5, 6, 5, 4, 3, 2)
    assert game.dice_scope(state) == "round-1" and game.to_act(state) == "beto"
    assert game.dice_needed(state, 1000) is None
    assert game.deadline(state, None, 30) == 31_000
    spectator = game.view_event(started, state, Viewer.spectator())
    assert spectator["dice"] == {}


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({}, "missing-field"),
        ({"type": 3}, "missing-field"),
        ({"type": "fold"}, "unknown-command-type"),
        ({"type": "bid", "quantity": 2}, "missing-field"),
        ({"type": "bid", "quantity": True, "face": 2}, "invalid-field"),
        ({"type": "bid", "quantity": 2, "face": "2"}, "invalid-field"),
        ({"type": "bid", "quantity": 2, "face": 2, "direction": "up"}, "invalid-field"),
        ({"type": "dudo", "extra": 1}, "unknown-field"),
    ],
)
def test_bidding_payloads_are_parsed_strictly(payload: dict[str, Any], code: str) -> None:
    with pytest.raises(RuleError) as error:
        GAMES["dudo"].parse_command("ana", payload, 0)
    assert error.value.code == code


def test_bidding_payloads_become_commands() -> None:
    game = GAMES["dudo"]
    assert game.parse_command("ana", {"type": "bid", "quantity": 2, "face": 3}, 5) == bidding.PlaceBid(
        "ana", 2, 3, None, 5
    )
    assert game.parse_command("ana", {"type": "calza"}, 5) == bidding.CallCalza("ana", 5)
    assert game.parse_command("ana", {"type": "abandon"}, 5) == bidding.Abandon("ana", 5)


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"type": "throw", "dice": [1, 2, 3, 4, 5]}, "unknown-field"),
        ({"type": "reroll"}, "missing-field"),
        ({"type": "reroll", "keep": [1, "2"]}, "invalid-field"),
        ({"type": "reroll", "keep": [1, 1, 1, 1, 1]}, "nothing-rerolled"),
        ({"type": "turn", "position": "0"}, "invalid-field"),
        ({"type": "score", "box": "yahtzee"}, "unknown-box"),
        ({"type": "bid", "quantity": 1, "face": 1}, "unknown-command-type"),
    ],
)
def test_alalay_payloads_are_parsed_strictly(payload: dict[str, Any], code: str) -> None:
    with pytest.raises(RuleError) as error:
        GAMES["alalay"].parse_command("ana", payload, 0)
    assert error.value.code == code


def test_alalay_throws_need_server_dice_in_the_turn_scope() -> None:
    game = GAMES["alalay"]
    (started,) = game.start("alalay", {}, ["ana", "beto"], 0, 30)
    state = game.initial_state(started)
    need = game.parse_command("ana", {"type": "throw"}, 0)
    assert isinstance(need, DiceNeeded) and need.count == 5 and need.scope is None
    assert game.dice_scope(state) == "turn-0-0"
    (thrown,) = game.decide(state, need.build((2, 3, 4, 5, 6)))
    state = game.evolve(state, thrown)
    reroll = game.parse_command("ana", {"type": "reroll", "keep": [2, 3]}, 0)
    assert isinstance(reroll, DiceNeeded) and reroll.count == 3
    assert reroll.build((1, 1, 1)) == alalay.Reroll("ana", (2, 3), (1, 1, 1))
    assert game.deadline(state, 1000, 30) == 31_000


def test_an_alalay_timeout_is_finished_by_auto_play_steps() -> None:
    game = GAMES["alalay"]
    (started,) = game.start("alalay", {}, ["ana", "beto"], 0, 30)
    state = game.initial_state(started)
    key = game.turn_key(state)
    assert key is not None
    rolls = iter([(2, 3, 4, 5, 6), (1, 2, 3, 4, 5)])
    steps = 0
    while (step := game.timeout_step(state, key, 0)) is not None:
        command = step.build(next(rolls)) if isinstance(step, DiceNeeded) else step
        for event in game.decide(state, command):
            state = game.evolve(state, event)
        steps += 1
    assert steps >= 3 and game.to_act(state) == "beto"
    assert game.scores(state)["totals"]["ana"] > 0


@pytest.mark.parametrize("path", record_files(), ids=lambda path: path.stem)
def test_record_events_replay_to_the_records_outcome(path: Path) -> None:
    data = json.loads(path.read_text())
    try:
        outcome = replay_record(data)
    except RecordFormatError:
        return  # not a record at all: nothing to import
    if not outcome.get("valid"):
        return  # a record that breaks a rule is never imported
    game = game_for(data["ruleset"])
    events = game.record_events(data)
    rewritten = game.write_record(events)
    assert replay_record(rewritten) == outcome
    roundtrip = [game.event_from_dict(game.event_to_dict(event)) for event in events]
    assert roundtrip == events


def test_an_alalay_turn_lasts_five_seconds_after_three_timeouts_in_a_row() -> None:
    """§9 P-1: the same timer machinery as the bidding games (CO-7)."""
    game = GAMES["alalay"]
    (started,) = game.start("alalay", {}, ["ana", "beto"], 0, 30)
    state = game.initial_state(started)
    rolls = iter([(2, 3, 4, 5, 6), (1, 2, 3, 4, 6), (2, 2, 3, 4, 6)])

    def play(*commands: Any) -> None:
        nonlocal state
        for command in commands:
            for event in game.decide(state, command):
                state = game.evolve(state, event)

    deadlines = []
    for box in ("ones", "twos", "threes"):
        assert game.to_act(state) == "ana"
        deadlines.append(game.deadline(state, 1000, 30))
        key = game.turn_key(state)
        assert key is not None
        while (step := game.timeout_step(state, key, 0)) is not None:
            play(step.build(next(rolls)) if isinstance(step, DiceNeeded) else step)
        play(alalay.Throw("beto", (1, 1, 2, 3, 3)), alalay.Score("beto", box))
    assert deadlines == [31_000, 31_000, 31_000]
    assert game.deadline(state, 1000, 30) == 6_000  # after three timed-out turns
    # a turn ana plays herself gives her the full time again
    play(alalay.Throw("ana", (1, 2, 2, 3, 4)), alalay.Score("ana", "fours"))
    play(alalay.Throw("beto", (1, 1, 2, 4, 4)), alalay.Score("beto", "fours"))
    assert game.to_act(state) == "ana" and game.deadline(state, 1000, 30) == 31_000
