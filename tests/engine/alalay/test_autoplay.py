"""Auto-play of a timed-out turn (docs/rules.md §9, decision P-2)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cacho.engine.alalay import (
    Reroll,
    RollRequest,
    Score,
    Scratch,
    State,
    Throw,
    TimeOut,
    TurnDie,
    TurnTimedOut,
    auto_play,
    auto_play_turn,
    decide,
    new_match,
    write_record,
)
from cacho.engine.errors import RuleError

from .helpers import play

NUMBERS_FULL = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}


def at(
    cards: dict[str, Any],
    throw: tuple[int, ...],
    keep: tuple[int, ...] | None = None,
    dice: tuple[int, ...] = (),
    turns: tuple[int, ...] = (),
) -> State:
    state, _ = new_match(["P0"], cards={"P0": cards} if cards else None)
    state, _ = play(state, Throw("P0", throw))
    if keep is not None:
        state, _ = play(state, Reroll("P0", keep, dice))
    for pos in turns:
        state, _ = play(state, TurnDie("P0", pos))
    return state


CASES: list[
    tuple[str, dict[str, Any], tuple[int, ...], tuple[int, ...] | None, tuple[int, ...], tuple[int, ...], Any]
] = [
    (
        "P-2 after throw 1 score the highest open box",
        {},
        (2, 3, 4, 5, 6),
        None,
        (),
        (),
        Score("P0", "straight"),
    ),
    ("P-2 ties follow the box order", {"straight": 25}, (6, 6, 3, 3, 3), None, (), (), Score("P0", "full")),
    (
        "P-2 equal number boxes: the first in box order",
        {},
        (6, 3, 3, 2, 1),
        None,
        (),
        (),
        Score("P0", "threes"),
    ),
    (
        "P-2 nothing scores after throw 1: re-roll all five",
        {**NUMBERS_FULL, "straight": 20},
        (1, 2, 3, 5, 6),
        None,
        (),
        (),
        RollRequest("P0", reroll=True),
    ),
    (
        "P-2 compulsory turn: the die giving the best box",
        {k: v for k, v in NUMBERS_FULL.items() if k != "fours"}
        | {"straight": 20, "full": 30, "four": 40, "grande_1": 50},
        (1, 2, 3, 5, 6),
        (),
        (4, 4, 2, 3, 6),
        (),
        TurnDie("P0", 3),
    ),
    (
        "P-2 compulsory turn, all zero: the lowest position",
        {**NUMBERS_FULL, "straight": 20, "full": 30, "four": 40, "grande_1": 50},
        (1, 2, 4, 5, 6),
        (1, 2),
        (3, 3, 3),
        (),
        TurnDie("P0", 0),
    ),
    ("P-2 optional turn is not taken", {}, (1, 1, 2, 4, 5), (), (3, 3, 3, 5, 5), (), Score("P0", "full")),
    (
        "P-2 compulsory turn, equal best: the lowest position giving it",
        {**{k: v for k, v in NUMBERS_FULL.items() if k != "fours"}}
        | {"straight": 20, "full": 30, "four": 40, "grande_1": 50, "grande_2": 50},
        (5, 3, 6, 3, 1),
        (5, 3, 6, 3),
        (1,),
        (),
        TurnDie("P0", 1),
    ),
    (
        "P-2 no second turn: score after one",
        {},
        (1, 1, 2, 3, 4),
        (1, 1),
        (2, 3, 4),
        (4,),
        Score("P0", "threes"),
    ),
    (
        "P-2 scratch the lowest maximum (fives before straight)",
        {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "sixes": 6, "full": 30, "four": 40},
        (1, 2, 3, 4, 6),
        (1, 2, 3, 4),
        (6,),
        (4,),
        Scratch("P0", "fives"),
    ),
    (
        "P-2 scratch order ones first",
        {"twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6},
        (2, 2, 3, 3, 4),
        (2, 2, 3, 3),
        (4,),
        (0,),
        Scratch("P0", "ones"),
    ),
]


@pytest.mark.parametrize(
    ("cards", "throw", "keep", "dice", "turns", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_auto_play_policy(
    cards: dict[str, Any],
    throw: tuple[int, ...],
    keep: tuple[int, ...] | None,
    dice: tuple[int, ...],
    turns: tuple[int, ...],
    want: Any,
) -> None:
    assert auto_play(at(cards, throw, keep, dice, turns)) == want


def test_auto_play_asks_for_dice_at_the_start_of_a_turn() -> None:
    state, _ = new_match(["A", "B"])
    step = auto_play(state)
    assert step == RollRequest("A", reroll=False)
    assert isinstance(step, RollRequest) and step.fill([1, 2, 3, 4, 5]) == Throw("A", (1, 2, 3, 4, 5))
    assert RollRequest("A", reroll=True).fill((6,) * 5) == Reroll("A", (), (6,) * 5)


def test_auto_play_turn_finishes_the_turn_and_records_the_timeout() -> None:
    state, _ = new_match(["A", "B"], cards={"A": {**NUMBERS_FULL, "straight": 20, "full": 30, "four": 40}})
    rolls = iter([(1, 2, 3, 5, 6), (4, 4, 2, 3, 6)])
    state, events = auto_play_turn(state, lambda n: next(rolls)[:n])
    assert isinstance(events[0], TurnTimedOut)
    assert state.to_act == "B"
    # The record shows the server's choices with "timeout": true.
    assert write_record(events_of(state, events))["turns"] == [
        {
            "by": "A",
            "throw": [1, 2, 3, 5, 6],
            "reroll": {"keep": [], "dice": [4, 4, 2, 3, 6]},
            "turn": [0],
            "scratch": "grande",
            "timeout": True,
        }
    ]


def events_of(state: State, events: list[Any]) -> list[Any]:
    from cacho.engine.alalay import MatchStarted, Options

    start = MatchStarted(
        state.entries, Options(), ((1, 2, 3, 4, 5, 6, 20, 30, 40, None, None), (None,) * 11), 0
    )
    return [start, *events]


def _timed_out(
    cards: dict[str, Any],
    throw: tuple[int, ...],
    keep: tuple[int, ...] | None = None,
    dice: tuple[int, ...] = (),
    turns: tuple[int, ...] = (),
) -> State:
    state = at(cards, throw, keep, dice, turns)
    state, _ = play(state, TimeOut("P0"))
    return state


@pytest.mark.parametrize(
    ("state", "chosen", "other"),
    [
        pytest.param(
            _timed_out({}, (3, 3, 6, 2, 1)), Score("P0", "threes"), Score("P0", "sixes"), id="score-tie"
        ),
        pytest.param(
            _timed_out({}, (2, 3, 4, 5, 6)), Score("P0", "straight"), Score("P0", "sixes"), id="score-best"
        ),
        pytest.param(
            _timed_out(
                {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "sixes": 6, "full": 30, "four": 40},
                (1, 2, 2, 3, 4),
                (1, 2, 2, 3),
                (4,),
                (0,),
            ),
            Scratch("P0", "fives"),
            Scratch("P0", "straight"),
            id="scratch-tie",
        ),
    ],
)
def test_a_timed_out_turn_fills_only_the_box_auto_play_chooses(state: State, chosen: Any, other: Any) -> None:
    """§9 P-2: the server finishes a timed-out turn, so its box is the policy's, in live play
    and in records alike."""
    assert auto_play(state) == chosen
    play(state, chosen)
    with pytest.raises(RuleError) as refused:
        decide(state, other)
    assert refused.value.code == "auto-play-box"
    # the same box is free to choose on a turn that did not time out
    assert decide(replace(state, turn=replace(state.turn, timed_out=False)), other)
