"""Match records: the shared examples, exit-2 files, exit-1 rule errors, and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cacho.engine.alalay import replay_record
from cacho.engine.errors import RecordFormatError

from .helpers import record

REPO = Path(__file__).resolve().parents[3]
# The shared conformance records are replayed by tests/engine/test_records.py.


T0 = {"by": "P0", "throw": [2, 3, 4, 5, 6], "score": "straight"}

NOT_A_RECORD: list[tuple[str, dict[str, Any]]] = [
    ("unknown top-level key", record([T0], extra=1)),
    ("unknown turn key", record([{**T0, "bid": [1, 2]}])),
    ("unknown reroll key", record([{**T0, "reroll": {"keep": [], "dice": [1] * 5, "x": 1}}])),
    ("unknown box in score", record([{**T0, "score": "poker"}])),
    ("grande_1 is a setup name, not a turn box", record([{**T0, "score": "grande_1"}])),
    ("unknown box in setup", record([T0], setup={"cards": {"P0": {"grande": 50}}})),
    ("unknown player in setup", record([T0], setup={"cards": {"ZZ": {"ones": 1}}})),
    ("unknown setup key", record([T0], setup={"first": "P0"})),
    ("setup 0 is written X", record([T0], setup={"cards": {"P0": {"ones": 0}}})),
    ("setup above the box max", record([T0], setup={"cards": {"P0": {"ones": 6}}})),
    ("setup impossible middle score", record([T0], setup={"cards": {"P0": {"full": 33}}})),
    ("setup wrong type", record([T0], setup={"cards": {"P0": {"ones": "3"}}})),
    ("throw not a list", record([{**T0, "throw": "23456"}])),
    ("die not an integer", record([{**T0, "throw": [2, 3, 4, 5, 6.0]}])),
    ("die is a boolean", record([{**T0, "throw": [True, 3, 4, 5, 6]}])),
    ("by not a string", record([{**T0, "by": 0}])),
    ("turn missing by", record([{"throw": [2, 3, 4, 5, 6]}])),
    ("turn missing throw and abandon", record([{"by": "P0", "score": "ones"}])),
    ("abandon false", record([{"by": "P0", "abandon": False}])),
    ("timeout not true", record([{**T0, "timeout": "yes"}])),
    ("abandon with a throw", record([{**T0, "abandon": True}])),
    ("score and scratch", record([{**T0, "scratch": "ones"}])),
    ("unknown option", record([T0], options={"calzo": True})),
    ("option not a boolean", record([T0], options={"dormida_on_full_reroll": 1})),
    ("players empty", record([T0], players=[])),
    ("duplicate players", record([T0], players=["P0", "P0"])),
    ("turns not a list", record({"by": "P0"})),  # type: ignore[arg-type]
    ("missing turns", {k: v for k, v in record([T0]).items() if k != "turns"}),
    (
        "setup already ends the match",
        record([T0], setup={"cards": {"P0": {"straight": 25, "full": 35, "four": 45, "grande_1": 50}}}),
    ),
]


@pytest.mark.parametrize("data", [d for _, d in NOT_A_RECORD], ids=[n for n, _ in NOT_A_RECORD])
def test_not_a_record_is_exit_2(data: dict[str, Any]) -> None:
    with pytest.raises(RecordFormatError):
        replay_record(data)


THROW_11 = [1, 1, 2, 3, 4]
RULE_ERRORS: list[tuple[str, dict[str, Any], int, str]] = [
    ("a 7 on a die", record([{"by": "P0", "throw": [2, 3, 4, 5, 7], "score": "twos"}]), 0, "invalid-die"),
    ("a 0 on a die", record([{"by": "P0", "throw": [0, 3, 4, 5, 6], "score": "threes"}]), 0, "invalid-die"),
    (
        "six dice",
        record([{"by": "P0", "throw": [2, 3, 4, 5, 6, 6], "score": "sixes"}]),
        0,
        "wrong-dice-count",
    ),
    ("four dice", record([{"by": "P0", "throw": [2, 3, 4, 5]}]), 0, "wrong-dice-count"),
    (
        "kept dice not thrown",
        record([{"by": "P0", "throw": THROW_11, "reroll": {"keep": [6], "dice": [1, 1, 1, 1]}}]),
        0,
        "kept-dice-not-thrown",
    ),
    (
        "kept more of a face than thrown",
        record([{"by": "P0", "throw": THROW_11, "reroll": {"keep": [1, 1, 1], "dice": [2, 2]}}]),
        0,
        "kept-dice-not-thrown",
    ),
    (
        "reroll makes six dice",
        record([{"by": "P0", "throw": THROW_11, "reroll": {"keep": [1, 1], "dice": [2, 2, 2, 2]}}]),
        0,
        "wrong-dice-count",
    ),
    (
        "reroll of no die",
        record([{"by": "P0", "throw": THROW_11, "reroll": {"keep": THROW_11, "dice": []}}]),
        0,
        "nothing-rerolled",
    ),
    (
        "turn without reroll",
        record([{"by": "P0", "throw": THROW_11, "turn": [0], "score": "ones"}]),
        0,
        "turn-without-reroll",
    ),
    (
        "score on a box worth 0",
        record([{"by": "P0", "throw": THROW_11, "score": "sixes"}]),
        0,
        "score-is-zero",
    ),
    (
        "scratch after throw 1",
        record([{"by": "P0", "throw": THROW_11, "scratch": "sixes"}]),
        0,
        "scratch-not-allowed",
    ),
    (
        "by names no seated player",
        record([{"by": "ZZ", "throw": THROW_11, "score": "ones"}]),
        0,
        "unknown-entry",
    ),
    (
        "not your turn",
        record([{"by": "B", "throw": THROW_11, "score": "ones"}], players=["A", "B"]),
        0,
        "not-your-turn",
    ),
    (
        "box already filled",
        record([T0, {"by": "P0", "throw": [2, 3, 4, 5, 6], "score": "straight"}]),
        1,
        "box-not-open",
    ),
    (
        "unfinished turn before another",
        record([{"by": "P0", "throw": THROW_11}, T0]),
        1,
        "turn-unfinished",
    ),
    (
        "turn after the dormida",
        record([{"by": "P0", "throw": [4] * 5}, T0]),
        1,
        "match-over",
    ),
    (
        "score in the dormida turn",
        record([{"by": "P0", "throw": [4] * 5, "score": "fours"}]),
        0,
        "match-over",
    ),
    (
        "three turns",
        record(
            [
                {
                    "by": "P0",
                    "throw": THROW_11,
                    "reroll": {"keep": [1, 1], "dice": [2, 3, 5]},
                    "turn": [0, 1, 2],
                }
            ]
        ),
        0,
        "too-many-turns",
    ),
    (
        "same die turned twice",
        record(
            [{"by": "P0", "throw": THROW_11, "reroll": {"keep": [1, 1], "dice": [2, 3, 5]}, "turn": [2, 2]}]
        ),
        0,
        "die-already-turned",
    ),
    (
        "position outside 0-4",
        record([{"by": "P0", "throw": THROW_11, "reroll": {"keep": [1, 1], "dice": [2, 3, 5]}, "turn": [5]}]),
        0,
        "invalid-position",
    ),
    (
        "abandoned player plays again",
        record(
            [{"by": "A", "abandon": True}, {"by": "A", "throw": THROW_11, "score": "ones"}],
            players=["A", "B", "C"],
        ),
        1,
        "entry-left",
    ),
    (
        "third grande",
        record(
            [
                {
                    "by": "P0",
                    "throw": [2, 2, 2, 2, 3],
                    "reroll": {"keep": [2, 2, 2, 2], "dice": [5]},
                    "turn": [4],
                    "score": "grande",
                }
            ],
            setup={"cards": {"P0": {"grande_1": 50, "grande_2": "X"}}},
        ),
        0,
        "box-not-open",
    ),
]


@pytest.mark.parametrize(
    ("data", "turn", "code"), [(d, t, c) for _, d, t, c in RULE_ERRORS], ids=[n for n, *_ in RULE_ERRORS]
)
def test_rule_error_is_exit_1_at_its_turn(data: dict[str, Any], turn: int, code: str) -> None:
    out = replay_record(data)
    assert out["valid"] is False
    assert out["error"]["turn"] == turn
    assert out["error"]["code"] == code
    assert out["error"]["message"]


def test_output_of_a_match_in_progress() -> None:
    out = replay_record(
        record(
            [T0, {"by": "B", "abandon": True}, {"by": "C", "throw": [1, 1, 2, 3, 4]}],
            players=["P0", "B", "C"],
            setup={"cards": {"C": {"sixes": "X"}}},
        )
    )
    assert out["valid"] is True
    assert out["turns"] == [
        {"by": "P0", "dice": [2, 3, 4, 5, 6], "box": "straight", "points": 25, "de_mano": True},
        {"by": "B", "abandon": True},
    ]
    assert out["totals"] == {"P0": 25, "B": 0, "C": 0}
    assert out["to_act"] == "C"
    assert (out["finished"], out["winner"], out["win_reason"]) == (False, None, None)


def test_everyone_leaves_no_winner() -> None:
    out = replay_record(record([{"by": "A", "abandon": True}], players=["A"]))
    assert (out["valid"], out["finished"], out["winner"], out["win_reason"], out["to_act"]) == (
        True,
        True,
        None,
        None,
        None,
    )


def test_the_last_entry_standing_wins_and_nothing_follows() -> None:
    """P-3: B and C leave during A's turn; A wins there. Its turn stops where it was, then
    the abandonments; a turn after them is refused."""
    turns = [{"by": "A", "throw": THROW_11}, {"by": "B", "abandon": True}, {"by": "C", "abandon": True}]
    out = replay_record(record(turns, players=["A", "B", "C"]))
    assert out["valid"] is True, out
    assert (out["finished"], out["winner"], out["win_reason"], out["to_act"]) == (
        True,
        "A",
        "last-standing",
        None,
    )
    late = replay_record(record([*turns, {"by": "A", "throw": THROW_11}], players=["A", "B", "C"]))
    assert (late["valid"], late["error"]["turn"], late["error"]["code"]) == (False, 3, "match-over")
    both = [{"by": "A", "abandon": True}, {"by": "B", "abandon": True}]
    two = replay_record(record(both, players=["A", "B"]))
    assert (two["valid"], two["error"]["turn"], two["error"]["code"]) == (False, 1, "match-over")


def test_shared_first_place_is_a_list_in_seat_order() -> None:
    full = {
        "ones": 1,
        "twos": 2,
        "threes": 3,
        "fours": 4,
        "fives": 5,
        "sixes": 6,
        "straight": 20,
        "full": 30,
        "four": 40,
        "grande_1": "X",
    }
    out = replay_record(
        record(
            [
                {"by": "A", "throw": [1, 1, 1, 2, 3], "reroll": {"keep": [], "dice": [2, 2, 2, 2, 2]}},
            ],
            players=["B", "A"],
            options={"dormida_on_full_reroll": False},
            setup={"cards": {"A": full, "B": {**full, "grande_2": 50}}},
        )
    )
    # B's card is full: A throws first; a full re-roll five of a kind is a grande de mano (option off).
    assert out["valid"] is True and out["to_act"] == "A"
    out = replay_record(
        record(
            [
                {
                    "by": "A",
                    "throw": [1, 1, 1, 2, 3],
                    "reroll": {"keep": [], "dice": [2, 2, 2, 2, 2]},
                    "score": "grande",
                }
            ],
            players=["B", "A"],
            options={"dormida_on_full_reroll": False},
            setup={"cards": {"A": full, "B": {**full, "grande_2": 50}}},
        )
    )
    assert out["turns"][0]["box"] == "grande_2" and out["turns"][0]["de_mano"] is True
    assert (out["finished"], out["win_reason"], out["winner"]) == (True, "points", ["B", "A"])


def _cli(tmp_path: Path, data: dict[str, Any] | str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return subprocess.run(
        [sys.executable, "-m", "cacho", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_cli_exit_codes(tmp_path: Path) -> None:
    ok = _cli(tmp_path, record([T0]))
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["totals"] == {"P0": 25}
    broken = _cli(tmp_path, record([{"by": "P0", "throw": [2, 3, 4, 5, 7], "score": "twos"}]))
    assert broken.returncode == 1
    assert json.loads(broken.stdout)["error"]["turn"] == 0
    assert _cli(tmp_path, record([{**T0, "score": "poker"}])).returncode == 2
    assert _cli(tmp_path, "{not json").returncode == 2
