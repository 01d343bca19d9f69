"""Table-driven tests: one case per scoring rule, turning rule and end condition (docs/rules.md §8, §11)."""

from __future__ import annotations

from typing import Any

import pytest

from cacho.engine.alalay import (
    Abandon,
    BoxScored,
    Command,
    DiceThrown,
    Entry,
    MatchEnded,
    Options,
    Reroll,
    Score,
    Scratch,
    State,
    Throw,
    TimeOut,
    TurnDie,
    box_points,
    decide,
    legal_actions,
    new_match,
    view,
)
from cacho.engine.errors import RuleError
from cacho.engine.viewer import Viewer

from .helpers import play

SCORING: list[tuple[str, str, tuple[int, ...], bool, int]] = [
    ("§8 ones count 1 each", "ones", (1, 1, 1, 4, 5), True, 3),
    ("§8 three sixes are 18", "sixes", (6, 6, 6, 2, 3), False, 18),
    ("§8 number box with none is 0", "fives", (1, 2, 3, 4, 6), True, 0),
    ("§8 number box max 5k", "fours", (4, 4, 4, 4, 4), False, 20),
    ("AL-7 straight 1-2-3-4-5 de mano 25", "straight", (5, 3, 1, 2, 4), True, 25),
    ("AL-7 straight 2-3-4-5-6 de huevo 20", "straight", (2, 3, 4, 5, 6), False, 20),
    ("AL-7 straight 3-4-5-6-1 wraps", "straight", (3, 4, 5, 6, 1), True, 25),
    ("AL-7 4-5-6-1-2 is not a straight", "straight", (4, 5, 6, 1, 2), True, 0),
    ("AL-7 full de mano 35", "full", (3, 3, 3, 5, 5), True, 35),
    ("AL-7 full de huevo 30", "full", (2, 5, 2, 5, 2), False, 30),
    ("AL-7 five of a kind is not a full", "full", (4, 4, 4, 4, 4), False, 0),
    ("AL-7 two pairs are not a full", "full", (4, 4, 3, 3, 1), True, 0),
    ("AL-7 four de mano 45", "four", (5, 5, 5, 5, 2), True, 45),
    ("AL-7 four de huevo 40", "four", (5, 1, 5, 5, 5), False, 40),
    ("AL-7 five of a kind is a four", "four", (4, 4, 4, 4, 4), False, 40),
    ("AL-7 three of a kind is not a four", "four", (4, 4, 4, 1, 2), True, 0),
    ("§8 grande is 50", "grande_1", (6, 6, 6, 6, 6), False, 50),
    ("§8 grande needs five of a kind", "grande_2", (6, 6, 6, 6, 1), False, 0),
]


@pytest.mark.parametrize(
    ("box", "dice", "de_mano", "points"), [c[1:] for c in SCORING], ids=[c[0] for c in SCORING]
)
def test_box_points(box: str, dice: tuple[int, ...], de_mano: bool, points: int) -> None:
    assert box_points(box, dice, de_mano) == points


def solo(cards: dict[str, Any] | None = None, options: Options | None = None) -> State:
    state, _ = new_match(["P0"], options, 0, {"P0": cards} if cards else None)
    return state


def after(
    state: State,
    throw: tuple[int, ...],
    keep: tuple[int, ...] | None = None,
    dice: tuple[int, ...] = (),
    turns: tuple[int, ...] = (),
) -> State:
    state, _ = play(state, Throw("P0", throw))
    if keep is not None:
        state, _ = play(state, Reroll("P0", keep, dice))
    for pos in turns:
        state, _ = play(state, TurnDie("P0", pos))
    return state


def card_of(state: State, box: str) -> int | None:
    from cacho.engine.alalay.scorecard import BOX_INDEX

    return state.cards[0][BOX_INDEX[box]]


# (id, throw, keep, dice, turns, box, expected points or error code, options)
TURNS: list[
    tuple[
        str,
        tuple[int, ...],
        tuple[int, ...] | None,
        tuple[int, ...],
        tuple[int, ...],
        str,
        int | str,
        Options | None,
    ]
] = [
    ("AL-1 any box may score after throw 1", (1, 1, 2, 3, 4), None, (), (), "ones", 2, None),
    ("AL-1 middle box de mano after throw 1", (2, 3, 4, 5, 6), None, (), (), "straight", 25, None),
    ("§8 no turning after throw 1", (1, 1, 2, 3, 4), None, (), (0,), "ones", "turn-without-reroll", None),
    (
        "§8 turn compulsory after a partial re-roll",
        (1, 1, 2, 3, 4),
        (1, 1),
        (1, 1, 1),
        (),
        "ones",
        "turn-required",
        None,
    ),
    (
        "§8 partial five of a kind must turn: four de huevo",
        (5, 5, 5, 5, 2),
        (5, 5, 5, 5),
        (5,),
        (4,),
        "four",
        40,
        None,
    ),
    (
        "§8 partial five of a kind, two turns: full de huevo",
        (5, 5, 5, 5, 2),
        (5, 5, 5, 5),
        (5,),
        (3, 4),
        "full",
        30,
        None,
    ),
    (
        "§8 grande de huevo from four plus the complement",
        (6, 6, 6, 6, 2),
        (6, 6, 6, 6),
        (1,),
        (4,),
        "grande_1",
        50,
        None,
    ),
    (
        "AL-5 full re-roll made hand exempt and de mano",
        (1, 1, 2, 4, 5),
        (),
        (3, 3, 3, 5, 5),
        (),
        "full",
        35,
        None,
    ),
    (
        "AL-5 full re-roll then turned is de huevo",
        (1, 1, 2, 4, 5),
        (),
        (1, 2, 3, 4, 2),
        (4,),
        "straight",
        20,
        None,
    ),
    (
        "AL-3 full re-roll without a made hand must turn",
        (1, 1, 2, 4, 5),
        (),
        (1, 2, 3, 4, 2),
        (),
        "twos",
        "turn-required",
        None,
    ),
    (
        "AL-3 compulsory turn breaks a made hand",
        (1, 2, 2, 4, 6),
        (1, 2),
        (3, 4, 5),
        (),
        "straight",
        "turn-required",
        None,
    ),
    (
        "AL-3 option turn_exempt_if_made_hand, still de huevo",
        (1, 2, 2, 4, 6),
        (1, 2),
        (3, 4, 5),
        (),
        "straight",
        20,
        Options(turn_exempt_if_made_hand=True),
    ),
    (
        "§8 single turn keeps 1-2-3-4-5 (turn the 1)",
        (1, 2, 2, 4, 6),
        (1, 2),
        (3, 4, 5),
        (0,),
        "straight",
        20,
        None,
    ),
    (
        "§8 double turn of complements keeps 3-4-5-6-1",
        (1, 2, 4, 5, 6),
        (1, 4, 5, 6),
        (3,),
        (0, 3),
        "straight",
        20,
        None,
    ),
    (
        "AL-4 at most two turns",
        (1, 2, 4, 5, 6),
        (1, 4, 5, 6),
        (3,),
        (0, 1, 2),
        "straight",
        "too-many-turns",
        None,
    ),
    (
        "AL-4 never the same die twice",
        (1, 2, 4, 5, 6),
        (1, 4, 5, 6),
        (3,),
        (1, 1),
        "straight",
        "die-already-turned",
        None,
    ),
    ("§8 score on a box worth 0 is refused", (1, 1, 2, 3, 4), None, (), (), "sixes", "score-is-zero", None),
    (
        "AL-6 scratch never after throw 1",
        (1, 1, 2, 3, 4),
        None,
        (),
        (),
        "scratch:sixes",
        "scratch-not-allowed",
        None,
    ),
    (
        "AL-6 scratch refused while a box scores",
        (1, 1, 2, 3, 4),
        (1, 1),
        (2, 2, 3),
        (0,),
        "scratch:sixes",
        "scratch-not-allowed",
        None,
    ),
    (
        "AL-2 option off: full re-roll five of a kind is a grande de mano",
        (1, 1, 2, 4, 5),
        (),
        (4, 4, 4, 4, 4),
        (),
        "grande_1",
        50,
        Options(dormida_on_full_reroll=False),
    ),
    (
        "AL-2 option off: full re-roll five of a kind as four de mano",
        (1, 1, 2, 4, 5),
        (),
        (4, 4, 4, 4, 4),
        (),
        "four",
        45,
        Options(dormida_on_full_reroll=False),
    ),
]


@pytest.mark.parametrize(
    ("throw", "keep", "dice", "turns", "box", "want", "options"),
    [c[1:] for c in TURNS],
    ids=[c[0] for c in TURNS],
)
def test_turn_rules(
    throw: tuple[int, ...],
    keep: tuple[int, ...] | None,
    dice: tuple[int, ...],
    turns: tuple[int, ...],
    box: str,
    want: int | str,
    options: Options | None,
) -> None:
    state = solo(options=options)

    def run() -> State:
        s = after(state, throw, keep, dice, turns)
        command = Scratch("P0", box[8:]) if box.startswith("scratch:") else Score("P0", box)
        s, _ = play(s, command)
        return s

    if isinstance(want, str):
        with pytest.raises(RuleError) as info:
            run()
        assert info.value.code == want
    else:
        final = run()
        target = "grande_1" if box.startswith("grande") else box
        assert card_of(final, target) == want


def test_scratch_is_compulsory_and_free_when_every_box_is_zero() -> None:
    state = solo({"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18})
    state = after(state, (1, 2, 2, 4, 5), (1, 2, 2, 4), (1,), (4,))
    legal = legal_actions(state, "P0")
    assert legal.score == () and legal.scratch == ("straight", "full", "four", "grande_1")
    final, _ = play(state, Scratch("P0", "four"))
    assert card_of(final, "four") == 0


def test_extra_grande_goes_to_four_or_number_box() -> None:
    state = solo({"grande_1": 50, "grande_2": 50})
    state = after(state, (6, 6, 6, 6, 2), (6, 6, 6, 6), (1,), (4,))
    legal = legal_actions(state, "P0")
    assert "grande_1" not in legal.score and {"four", "sixes"} <= set(legal.score)
    with pytest.raises(RuleError) as info:
        decide(state, Score("P0", "grande_2"))
    assert info.value.code == "box-not-open"


def test_grande_fills_the_first_free_grande_box() -> None:
    state = solo({"grande_1": 0})
    state = after(state, (6, 6, 6, 6, 2), (6, 6, 6, 6), (1,), (4,))
    final, events = play(state, Score("P0", "grande_1"))
    assert isinstance(events[0], BoxScored) and events[0].box == "grande_2"
    assert card_of(final, "grande_2") == 50


END: list[
    tuple[
        str,
        dict[str, Any],
        tuple[int, ...],
        tuple[int, ...] | None,
        tuple[int, ...],
        tuple[int, ...],
        str | None,
        str | None,
        Options | None,
    ]
] = [
    ("AL-9 cond 1 dormida on throw 1", {}, (2, 2, 2, 2, 2), None, (), (), None, "dormida", None),
    (
        "AL-2 cond 1 dormida on a full re-roll",
        {},
        (1, 2, 3, 3, 6),
        (),
        (3, 3, 3, 3, 3),
        (),
        None,
        "dormida",
        None,
    ),
    (
        "AL-2 option off: no dormida on a full re-roll",
        {},
        (1, 2, 3, 3, 6),
        (),
        (3, 3, 3, 3, 3),
        (),
        None,
        None,
        Options(dormida_on_full_reroll=False),
    ),
    (
        "§8 five of a kind from a partial re-roll is no dormida",
        {},
        (3, 3, 3, 3, 6),
        (3, 3, 3, 3),
        (3,),
        (),
        None,
        None,
        None,
    ),
    (
        "AL-10 cond 2 panza de oro",
        {"straight": 25, "full": 35, "four": 45},
        (3, 3, 3, 3, 2),
        (3, 3, 3, 3),
        (4,),
        (4,),
        "grande_1",
        "panza-de-oro",
        None,
    ),
    (
        "AL-10 panza de oro with grande_2",
        {"straight": 25, "full": 35, "grande_1": 0, "grande_2": 50},
        (3, 3, 3, 3, 2),
        None,
        (),
        (),
        "four",
        "panza-de-oro",
        None,
    ),
    (
        "§8 no panza with a huevo middle box",
        {"straight": 20, "full": 35, "four": 45},
        (3, 3, 3, 3, 2),
        (3, 3, 3, 3),
        (4,),
        (4,),
        "grande_1",
        None,
        None,
    ),
    (
        "§8 cond 3 four or better in every number plus a grande",
        {"ones": 4, "twos": 8, "threes": 12, "fours": 16, "fives": 20, "grande_1": 50},
        (6, 6, 6, 6, 2),
        (6, 6, 6, 6),
        (1,),
        (4,),
        "sixes",
        "four-in-every-number",
        None,
    ),
    (
        "§8 cond 3 needs a grande of 50",
        {"ones": 4, "twos": 8, "threes": 12, "fours": 16, "fives": 20, "grande_1": 0, "grande_2": 0},
        (6, 6, 6, 6, 2),
        None,
        (),
        (),
        "sixes",
        None,
        None,
    ),
    (
        "§8 cond 3 needs four in each number box",
        {"ones": 3, "twos": 8, "threes": 12, "fours": 16, "fives": 20, "grande_1": 50},
        (6, 6, 6, 6, 2),
        None,
        (),
        (),
        "sixes",
        None,
        None,
    ),
    (
        "§8 cond 4 card complete: points",
        {
            "ones": 3,
            "twos": 8,
            "threes": 12,
            "fours": 16,
            "fives": 20,
            "straight": 20,
            "full": 30,
            "four": 40,
            "grande_1": 0,
            "grande_2": 0,
        },
        (6, 6, 6, 6, 2),
        None,
        (),
        (),
        "sixes",
        "points",
        None,
    ),
]


@pytest.mark.parametrize(
    ("cards", "throw", "keep", "dice", "turns", "box", "reason", "options"),
    [c[1:] for c in END],
    ids=[c[0] for c in END],
)
def test_end_conditions(
    cards: dict[str, Any],
    throw: tuple[int, ...],
    keep: tuple[int, ...] | None,
    dice: tuple[int, ...],
    turns: tuple[int, ...],
    box: str | None,
    reason: str | None,
    options: Options | None,
) -> None:
    state = after(solo(cards, options), throw, keep, dice, turns)
    if box is not None:
        state, _ = play(state, Score("P0", box))
    assert state.win_reason == reason
    assert state.over is (reason is not None)
    if reason is not None:
        assert state.winners == ("P0",) and state.turn is None
        with pytest.raises(RuleError) as info:
            decide(state, Abandon("P0"))
        assert info.value.code == "match-over"


def test_end_is_immediate_mid_rotation() -> None:
    """AL-9: the first condition met ends the match at once, the rotation is not completed."""
    state, _ = new_match(["A", "B", "C"])
    state, events = play(state, Throw("A", (1, 1, 1, 1, 1)))
    assert isinstance(events[-1], MatchEnded) and state.winners == ("A",) and state.over


def test_points_tie_is_shared_and_leavers_are_ignored() -> None:
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
        "grande_1": 0,
    }
    state, _ = new_match(["A", "B", "C"], cards={"A": full, "B": full, "C": {"ones": 5}})
    state, _ = play(state, Throw("A", (1, 2, 3, 3, 5)), Reroll("A", (), (6, 6, 6, 6, 1)), TurnDie("A", 4))
    state, _ = play(state, Score("A", "grande_2"))
    assert state.to_act == "B" and not state.over
    state, _ = play(state, Throw("B", (1, 2, 3, 3, 5)), Reroll("B", (1, 2), (5, 5, 5)), TurnDie("B", 0))
    state, _ = play(state, Scratch("B", "grande_2"))
    assert state.to_act == "C"
    # P-3: C leaves; the others' cards are complete, so the match ends on points, A alone ahead.
    state, _ = play(state, Abandon("C"))
    assert state.over and state.win_reason == "points" and state.winners == ("A",)
    state2, _ = new_match(["A", "B"], cards={"A": full, "B": full})
    state2, _ = play(state2, Throw("A", (1, 2, 3, 3, 5)), Reroll("A", (1, 2), (5, 5, 5)), TurnDie("A", 0))
    state2, _ = play(state2, Scratch("A", "grande_2"))
    state2, _ = play(state2, Throw("B", (1, 2, 3, 3, 5)), Reroll("B", (1, 2), (5, 5, 5)), TurnDie("B", 0))
    state2, _ = play(state2, Scratch("B", "grande_2"))
    assert state2.winners == ("A", "B") and state2.win_reason == "points"


def test_abandonment_on_turn_passes_the_turn_and_the_leaver_cannot_win() -> None:
    state, _ = new_match(["A", "B", "C"])
    state, _ = play(state, Throw("A", (1, 2, 3, 3, 5)), Abandon("A"))
    assert state.to_act == "B" and state.left == (True, False, False) and not state.over
    with pytest.raises(RuleError) as info:
        decide(state, Throw("A", (1, 2, 3, 4, 5)))
    assert info.value.code == "entry-left"
    state, _ = play(state, Throw("B", (2, 2, 3, 4, 5)), Score("B", "twos"))
    assert state.to_act == "C"


def test_the_last_entry_standing_wins_at_once() -> None:
    """P-3: an abandonment that leaves one entry ends the match, that entry the winner, even
    in the middle of its turn; nobody is left to abandon against it."""
    state, _ = new_match(["A", "B", "C"])
    state, _ = play(state, Abandon("B"), Throw("A", (1, 2, 3, 3, 5)))
    state, events = play(state, Abandon("C"))
    assert events[-1] == MatchEnded(("A",), "last-standing")
    assert state.over and state.winners == ("A",) and state.turn is None
    with pytest.raises(RuleError) as info:
        decide(state, Abandon("A"))
    assert info.value.code == "match-over"


def test_a_match_of_one_entry_plays_on_and_ends_without_a_winner_when_it_leaves() -> None:
    state, _ = new_match(["A"])
    state, _ = play(state, Throw("A", (2, 2, 3, 4, 5)), Score("A", "twos"))
    assert state.to_act == "A" and not state.over  # alone from the start: nobody to outlast
    state, _ = play(state, Abandon("A"))
    assert state.over and state.winners == () and state.win_reason is None


def test_team_members_throw_in_rotation() -> None:
    state, _ = new_match([Entry("reds", ("ana", "beto")), Entry("solo")], first=1)
    members = []
    for _ in range(3):
        for entry in ("solo", "reds"):
            state, events = play(state, Throw(entry, (1, 1, 2, 3, 4)))
            assert isinstance(events[0], DiceThrown)
            members.append(events[0].member)
            box = next(b for b, p in legal_actions(state, entry).hints if p > 0)
            state, _ = play(state, Score(entry, box))
    assert members == ["solo", "ana", "solo", "beto", "solo", "ana"]


COMMAND_ERRORS: list[tuple[str, Any, str]] = [
    ("not your turn", Throw("B", (1, 2, 3, 4, 5)), "not-your-turn"),
    ("unknown entry", Throw("Z", (1, 2, 3, 4, 5)), "unknown-entry"),
    ("reroll before throw", Reroll("A", (), (1, 2, 3, 4, 5)), "throw-required"),
    ("score before throw", Score("A", "ones"), "throw-required"),
    ("six dice", Throw("A", (1, 2, 3, 4, 5, 6)), "wrong-dice-count"),
    ("a 7", Throw("A", (1, 2, 3, 4, 7)), "invalid-die"),
]


@pytest.mark.parametrize(
    ("command", "code"), [c[1:] for c in COMMAND_ERRORS], ids=[c[0] for c in COMMAND_ERRORS]
)
def test_illegal_commands_leave_state_unchanged(command: Any, code: str) -> None:
    state, _ = new_match(["A", "B"])
    before = state
    with pytest.raises(RuleError) as info:
        decide(state, command)
    assert info.value.code == code
    assert state == before


def test_second_reroll_and_throw_refused() -> None:
    state = after(solo(), (1, 1, 2, 3, 4), (1, 1), (2, 3, 4))
    cases: list[tuple[Command, str]] = [
        (Reroll("P0", (), (1, 2, 3, 4, 5)), "already-rerolled"),
        (Throw("P0", (1, 2, 3, 4, 5)), "already-thrown"),
        (TurnDie("P0", 7), "invalid-position"),
        (Score("P0", "yatzy"), "unknown-box"),
    ]
    for command, code in cases:
        with pytest.raises(RuleError) as info:
            decide(state, command)
        assert info.value.code == code


def test_legal_actions_and_hints() -> None:
    state = after(solo({"ones": 1}), (2, 3, 4, 5, 6))
    legal = legal_actions(state, "P0")
    assert legal.reroll and legal.de_mano and legal.scratch == () and legal.turn_positions == ()
    hints = dict(legal.hints)
    assert "ones" not in hints and hints["straight"] == 25 and hints["twos"] == 2 and hints["full"] == 0
    assert set(legal.score) == {"twos", "threes", "fours", "fives", "sixes", "straight"}
    state = after(solo(), (1, 1, 2, 3, 4), (1, 1), (1, 1, 2))
    legal = legal_actions(state, "P0")
    assert legal.must_turn and legal.score == () and legal.turn_positions == (0, 1, 2, 3, 4)
    state, _ = play(state, TurnDie("P0", 4))
    legal = legal_actions(state, "P0")
    assert not legal.must_turn and legal.turn_positions == (0, 1, 2, 3) and dict(legal.hints)["four"] == 40
    assert legal_actions(state, "nobody").on_turn is False


def test_view_shows_everything_to_everyone() -> None:
    state, _ = new_match([Entry("reds", ("ana", "beto")), "solo"], cards={"solo": {"ones": 0}})
    state, _ = play(state, TimeOut("reds"), Throw("reds", (1, 2, 3, 4, 5)))
    seen = [view(state, v) for v in (Viewer.referee(), Viewer.spectator(), Viewer.of_player("beto"))]
    assert seen[2].pop("you") == "reds"
    assert seen[0] == seen[1] == seen[2]
    assert seen[0]["entries"][1]["card"]["ones"] == "X" and seen[0]["entries"][1]["card"]["twos"] is None
    turn = seen[0]["turn"]
    assert turn["member"] == "ana" and turn["dice"] == [1, 2, 3, 4, 5] and turn["timed_out"] is True
    assert turn["hints"]["straight"] == 25
    import json

    json.dumps(seen[0])
