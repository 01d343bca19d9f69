"""What makes a file not a bidding record (exit 2), and what is a rule error (exit 1)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cacho.engine.errors import RecordFormatError
from cacho.engine.record import replay_record
from tests.engine.bidding.helpers import bid, dudo, record

BASE = record(
    "dudo",
    [{"dice": {"A": [2, 3, 4, 5, 6], "B": [2, 2, 3, 4, 5]}, "actions": [bid("A", 3, 2), dudo("B")]}],
    players=["A", "B"],
)


def altered(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    change(data)
    return data


def _set(path: list[Any], value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


NOT_RECORDS = [
    ("unknown top-level field", _set(["turns"], [])),
    ("missing rounds", lambda d: d.pop("rounds")),
    ("missing players", lambda d: d.pop("players")),
    ("unknown option", _set(["options"], {"salpicon": True})),
    ("option of another ruleset", _set(["options"], {"paso_aces_wild": True})),
    ("unknown option value", _set(["options"], {"raise_rule": "lenient"})),
    ("option of the wrong type", _set(["options"], {"calza_out_of_turn": "yes"})),
    ("options not an object", _set(["options"], [])),
    ("players not a list", _set(["players"], "A,B")),
    ("duplicate player", _set(["players"], ["A", "A"])),
    ("empty player name", _set(["players"], ["A", ""])),
    ("one player", _set(["players"], ["A"])),
    ("seven players in dudo", _set(["players"], list("ABCDEFG"))),
    ("unknown round field", _set(["rounds", 0, "bids"], [])),
    ("round without dice", lambda d: d["rounds"][0].pop("dice")),
    ("dice not lists", _set(["rounds", 0, "dice", "A"], "23456")),
    ("a die that is not a number", _set(["rounds", 0, "dice", "A"], [2, 3, "4", 5, 6])),
    ("unknown direction", _set(["rounds", 0, "direction"], "left")),
    ("unknown action field", _set(["rounds", 0, "actions", 0, "raise"], [3, 2])),
    ("action without by", lambda d: d["rounds"][0]["actions"][0].pop("by")),
    ("action with two kinds", _set(["rounds", 0, "actions", 1, "paso"], True)),
    ("action with no kind", lambda d: d["rounds"][0]["actions"][1].pop("call")),
    ("unknown call", _set(["rounds", 0, "actions", 1, "call"], "liar")),
    ("paso other than true", _set(["rounds", 0, "actions", 1], {"by": "B", "paso": False})),
    ("timeout other than true", _set(["rounds", 0, "actions", 1], {"by": "B", "timeout": 1})),
    ("bid of three numbers", _set(["rounds", 0, "actions", 0, "bid"], [3, 2, 1])),
    ("bid with a boolean", _set(["rounds", 0, "actions", 0, "bid"], [True, 2])),
    ("by not a string", _set(["rounds", 0, "actions", 0, "by"], 0)),
    ("setup with more than 5 dice", _set(["setup"], {"dice": {"A": 6, "B": 5}})),
    ("setup dice missing a player", _set(["setup"], {"dice": {"A": 5}})),
    ("setup starter holding no dice", _set(["setup"], {"dice": {"A": 5, "B": 0}, "starter": "B"})),
    ("setup starter not seated", _set(["setup"], {"starter": "Z"})),
    ("setup mode the ruleset lacks", _set(["setup"], {"mode": "blind"})),
    ("setup palifico nobody at one die", _set(["setup"], {"mode": "palifico"})),
    ("setup unknown mode", _set(["setup"], {"mode": "crazy"})),
    ("setup calzo_disabled outside cacho-online", _set(["setup"], {"calzo_disabled": True})),
    ("setup unknown field", _set(["setup"], {"round": 3})),
]


@pytest.mark.parametrize("change", [c for _, c in NOT_RECORDS], ids=[n for n, _ in NOT_RECORDS])
def test_not_a_record(change: Any) -> None:
    with pytest.raises(RecordFormatError):
        replay_record(altered(change))


def test_the_base_record_is_valid() -> None:
    assert replay_record(copy.deepcopy(BASE))["valid"] is True


def _online(setup: dict[str, Any]) -> dict[str, Any]:
    return record("cacho-online", [], players=["A", "B", "C"], setup=setup)


def test_cacho_online_calzo_disabled_must_match_the_threshold() -> None:
    # three players: T = 8; 7 dice on the table is below it
    below = {"dice": {"A": 3, "B": 2, "C": 2}}
    assert replay_record(_online({**below, "calzo_disabled": True}))["calzo_disabled"] is True
    with pytest.raises(RecordFormatError):
        replay_record(_online({**below, "calzo_disabled": False}))
    with pytest.raises(RecordFormatError):
        replay_record(_online({"dice": {"A": 5, "B": 5, "C": 5}, "calzo_disabled": True}))


def test_cacho_chileno_mode_follows_the_dice_by_default() -> None:
    data = record("cacho-chileno", [], players=["A", "B"], setup={"dice": {"A": 1, "B": 5}, "mode": "normal"})
    with pytest.raises(RecordFormatError):
        replay_record(data)
    data["options"] = {"obligado_first_round_only": True}
    assert replay_record(data)["valid"] is True


RULE_ERRORS = [
    ("a face of 7 is exit 1 at its action", _set(["rounds", 0, "actions", 0, "bid"], [3, 7]), 0, 0),
    ("a quantity of 0 is exit 1 at its action", _set(["rounds", 0, "actions", 0, "bid"], [0, 2]), 0, 0),
    (
        "calza in liars-dice",
        lambda d: d.update(
            ruleset="liars-dice",
            rounds=[
                {"dice": d["rounds"][0]["dice"], "actions": [bid("A", 3, 2), {"by": "B", "call": "calza"}]}
            ],
        ),
        0,
        1,
    ),
    ("paso outside cacho-chileno", _set(["rounds", 0, "actions", 1], {"by": "B", "paso": True}), 0, 1),
    ("salpicon outside cacho-online", _set(["rounds", 0, "actions", 1], {"by": "B", "salpicon": True}), 0, 1),
    ("deny outside cacho-online", _set(["rounds", 0, "actions", 1], {"by": "B", "deny": True}), 0, 1),
    ("a by naming nobody", _set(["rounds", 0, "actions", 1, "by"], "Z"), 0, 1),
    ("wrong number of dice", _set(["rounds", 0, "dice", "A"], [2, 3, 4, 5]), 0, None),
    ("a die of 0", _set(["rounds", 0, "dice", "A"], [0, 3, 4, 5, 6]), 0, None),
    ("dice for an unseated player", _set(["rounds", 0, "dice", "Z"], [1]), 0, None),
    ("an action after the resolution", lambda d: d["rounds"][0]["actions"].append(bid("A", 1, 3)), 0, 2),
    (
        "a round after the match",
        lambda d: d.update(
            setup={"dice": {"A": 5, "B": 1}},
            rounds=[
                {"dice": {"A": [2, 3, 4, 5, 6], "B": [6]}, "actions": [bid("A", 2, 6), dudo("B")]},
                {"dice": {"A": [2, 3, 4, 5, 6]}, "actions": []},
            ],
        ),
        1,
        None,
    ),
    (
        "an unresolved round followed by another",
        lambda d: d.update(
            rounds=[
                {"dice": {"A": [2, 3, 4, 5, 6], "B": [2, 2, 3, 4, 5]}, "actions": [bid("A", 3, 2)]},
                {"dice": {"A": [2, 3, 4, 5, 6], "B": [2, 2, 3, 4, 5]}, "actions": []},
            ]
        ),
        0,
        None,
    ),
]


@pytest.mark.parametrize(
    ("change", "round_index", "action"),
    [(c, r, a) for _, c, r, a in RULE_ERRORS],
    ids=[n for n, *_ in RULE_ERRORS],
)
def test_rule_errors_are_reported_at_their_place(change: Any, round_index: int, action: int | None) -> None:
    outcome = replay_record(altered(change))
    assert outcome["valid"] is False
    assert (outcome["error"]["round"], outcome["error"]["action"]) == (round_index, action)
    assert outcome["error"]["code"] and outcome["error"]["message"]
