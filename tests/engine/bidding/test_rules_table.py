"""One row per rule of docs/rules.md §2–§7 and §9 (bidding games), each naming the rule it checks.

Rows are one-round records replayed by the engine; the expectation is either a
subset of the outcome (docs/match-record.md) or the position and code of the
first broken rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from cacho.engine.errors import RuleError
from tests.engine.bidding.helpers import (
    abandon,
    bid,
    calza,
    deny,
    dudo,
    one_round,
    paso,
    salpicon,
    timeout,
)
from tests.engine.conformance import subset_mismatch

FIVE = [2, 3, 4, 5, 6]
ALT = [2, 3, 4, 5, 6]


def ok(**expected: Any) -> dict[str, Any]:
    return {"valid": True, **expected}


def broken(action: int | None, code: str, round_index: int = 0) -> dict[str, Any]:
    return {"valid": False, "error": {"round": round_index, "action": action, "code": code}}


def first(**outcome: Any) -> dict[str, Any]:
    return {"valid": True, "rounds": [outcome]}


ROWS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    # §2 conventions
    (
        "§2 an exact count on a dudo goes to the bidder",
        one_round("dudo", {"A": [2, 2, 3, 4, 5], "B": [2, 6, 6, 6, 6]}, [bid("A", 3, 2), dudo("B")]),
        first(result="dudo", count=3, dice_change={"B": -1}, next_starter="B"),
    ),
    (
        "§2 ones are wild when counting another face",
        one_round("dudo", {"A": [1, 1, 3, 4, 5], "B": [2, 3, 3, 6, 6]}, [bid("A", 4, 3), dudo("B")]),
        first(result="dudo", count=5, dice_change={"B": -1}),
    ),
    (
        "§2 a bid not met costs the bidder a die",
        one_round("dudo", {"A": [2, 2, 3, 4, 5], "B": [3, 4, 5, 6, 6]}, [bid("A", 5, 2), dudo("B")]),
        first(result="dudo", count=2, dice_change={"A": -1}, next_starter="A"),
    ),
    (
        "§2 calza succeeds only on an exact count",
        one_round("dudo", {"A": [1, 2, 3, 4, 5], "B": [2, 2, 6, 6]}, [bid("A", 4, 2), calza("B")]),
        first(result="calza", count=4, dice_change={"B": 1}, next_starter="B"),
    ),
    (
        "§2 a calza off by one costs the caller a die",
        one_round("dudo", {"A": [1, 2, 3, 4, 5], "B": [2, 2, 6, 6]}, [bid("A", 5, 2), calza("B")]),
        first(result="calza", count=4, dice_change={"B": -1}, next_starter="B"),
    ),
    (
        "§2 dice never go below 0: a -2 calzo against one die removes one",
        one_round("cacho-online", {"A": FIVE, "B": [3], "C": [2, 2, 4, 4, 6]}, [bid("A", 4, 2), calza("B")]),
        ok(
            rounds=[
                {
                    "result": "calza",
                    "count": 3,
                    "dice_change": {"B": -1},
                    "eliminated": ["B"],
                    "next_starter": "C",
                }
            ],
            dice={"A": 5, "B": 0, "C": 5},
        ),
    ),
    (
        "§2 the last player holding dice wins",
        one_round("dudo", {"A": [3], "B": [4, 4]}, [bid("A", 2, 3), dudo("B")]),
        ok(
            winner="B",
            rounds=[{"result": "dudo", "eliminated": ["A"], "next_starter": None, "next_mode": None}],
        ),
    ),
    # §3.1 round skeleton
    (
        "§3.1 nothing but a bid opens the round",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [dudo("A")]),
        broken(0, "no-standing-bid"),
    ),
    (
        "X-5 when the turn comes back the starter may call dudo",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 2, 3), bid("B", 3, 3), dudo("A")]),
        first(result="dudo", count=2, dice_change={"B": -1}),
    ),
    (
        "§3.1 only the player on turn acts",
        one_round("dudo", {"A": FIVE, "B": FIVE, "C": FIVE}, [bid("A", 2, 3), bid("C", 3, 3)]),
        broken(1, "not-your-turn"),
    ),
    # §3.2 bid cap
    (
        "§3.2 a bid above the dice in play is refused",
        one_round("dudo", {"A": [3], "B": [4]}, [bid("A", 3, 3)]),
        broken(0, "bid-exceeds-dice"),
    ),
    (
        "§3.2 the cap holds for aces too",
        one_round("cacho-chileno", {"A": [1, 2], "B": [3, 4]}, [bid("A", 5, 1)]),
        broken(0, "bid-exceeds-dice"),
    ),
    (
        "§3.2 a face outside 1-6 is refused",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 2, 7)]),
        broken(0, "invalid-face"),
    ),
    (
        "§3.2 a quantity below 1 is refused",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 0, 3)]),
        broken(0, "invalid-quantity"),
    ),
    # §3.3 raise order
    (
        "§3.3 dudo: same quantity, higher face raises",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 3, 4), bid("B", 3, 5)]),
        first(result=None),
    ),
    (
        "§3.3 dudo: same quantity, lower face does not raise",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 3, 4), bid("B", 3, 3)]),
        broken(1, "bid-not-higher"),
    ),
    (
        "DU-1 standard: more dice of a lower face raise",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 3, 4), bid("B", 4, 2)]),
        first(result=None),
    ),
    (
        "DU-1 raise_rule=strict: more dice of a lower face do not raise",
        one_round(
            "dudo", {"A": FIVE, "B": FIVE}, [bid("A", 3, 4), bid("B", 4, 2)], options={"raise_rule": "strict"}
        ),
        broken(1, "bid-not-higher"),
    ),
    (
        "DU-1 raise_rule=strict: more of the same face raise",
        one_round(
            "dudo", {"A": FIVE, "B": FIVE}, [bid("A", 3, 4), bid("B", 4, 4)], options={"raise_rule": "strict"}
        ),
        first(result=None),
    ),
    (
        "§3.3 dudo: seven fours to four pacos (ceil half)",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 7, 4), bid("B", 4, 1)]),
        first(result=None),
    ),
    (
        "§3.3 dudo: seven fours to three pacos is too few",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 7, 4), bid("B", 3, 1)]),
        broken(1, "bid-not-higher"),
    ),
    (
        "X-1 dudo: six fours to three pacos (ceil half)",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 6, 4), bid("B", 3, 1)]),
        first(result=None),
    ),
    (
        "§3.3 leaving pacos needs 2n+1: three pacos to seven",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 2, 3), bid("B", 3, 1), bid("A", 7, 2)]),
        first(result=None),
    ),
    (
        "§3.3 leaving pacos needs 2n+1: three pacos to six refused",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 2, 3), bid("B", 3, 1), bid("A", 6, 6)]),
        broken(2, "bid-not-higher"),
    ),
    (
        "§3.3 pacos to pacos needs more pacos",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 2, 3), bid("B", 2, 1), bid("A", 2, 1)]),
        broken(2, "bid-not-higher"),
    ),
    (
        "X-1 cacho-online: six threes to three ones refused (floor half + 1)",
        one_round("cacho-online", {"A": FIVE, "B": FIVE}, [bid("A", 6, 3), bid("B", 3, 1)]),
        broken(1, "bid-not-higher"),
    ),
    (
        "X-1 cacho-online: six threes to four ones",
        one_round("cacho-online", {"A": FIVE, "B": FIVE}, [bid("A", 6, 3), bid("B", 4, 1)]),
        first(result=None),
    ),
    (
        "§3.3 cacho-online: five to three ones",
        one_round("cacho-online", {"A": FIVE, "B": FIVE}, [bid("A", 5, 3), bid("B", 3, 1)]),
        first(result=None),
    ),
    (
        "§3.3 cacho-online partial order: four fives to two ones refused",
        one_round("cacho-online", {"A": FIVE, "B": FIVE}, [bid("A", 4, 5), bid("B", 2, 1)]),
        broken(1, "bid-not-higher"),
    ),
    (
        "§3.3 cacho-online partial order: two ones to four fives refused",
        one_round("cacho-online", {"A": FIVE, "B": FIVE}, [bid("A", 2, 1), bid("B", 4, 5)]),
        broken(1, "bid-not-higher"),
    ),
    (
        "§3.3 cacho-chileno: 7 sixes to 4 aces to 9 threes",
        one_round("cacho-chileno", {"A": FIVE, "B": FIVE}, [bid("A", 7, 6), bid("B", 4, 1), bid("A", 9, 3)]),
        first(result=None),
    ),
    (
        "§3.3 cacho-chileno: 4 aces to 8 threes is too few",
        one_round("cacho-chileno", {"A": FIVE, "B": FIVE}, [bid("A", 4, 1), bid("B", 8, 3)]),
        broken(1, "bid-not-higher"),
    ),
    # §3.4 starters and direction
    (
        "X-6 an eliminated loser is replaced by next_live in the round's direction",
        one_round(
            "cacho-online",
            {"A": [2, 2, 2, 3, 4], "B": [5], "C": [6, 6, 6, 6, 6]},
            [bid("A", 2, 2), bid("C", 3, 2), dudo("B")],
            direction="ccw",
        ),
        first(result="dudo", count=3, dice_change={"B": -1}, eliminated=["B"], next_starter="A"),
    ),
    (
        "DU-6 dudo is played clockwise: ccw is a rule error on the round",
        one_round("dudo", {"A": FIVE, "B": FIVE, "C": FIVE}, [bid("A", 2, 2)], direction="ccw"),
        broken(None, "direction-not-choosable"),
    ),
    (
        "DU-6 loser_chooses_direction lets the starter play ccw",
        one_round(
            "dudo",
            {"A": FIVE, "B": FIVE, "C": FIVE},
            [bid("A", 2, 2), dudo("C")],
            direction="ccw",
            options={"loser_chooses_direction": True},
        ),
        first(result="dudo"),
    ),
    (
        "§3.4 cacho-chileno plays to the left (clockwise) only",
        one_round("cacho-chileno", {"A": FIVE, "B": FIVE, "C": FIVE}, [bid("A", 2, 2)], direction="ccw"),
        broken(None, "direction-not-choosable"),
    ),
    # §4 dudo
    (
        "§4 a drop to exactly one die makes the next round palifico",
        one_round("dudo", {"A": [2, 3], "B": FIVE, "C": FIVE}, [bid("A", 8, 6), dudo("B")]),
        first(result="dudo", dice_change={"A": -1}, next_mode="palifico"),
    ),
    (
        "DU-2 sitting at one die does not trigger palifico again",
        one_round("dudo", {"A": [4], "B": FIVE, "C": FIVE}, [bid("B", 9, 6), dudo("C")], starter="B"),
        first(result="dudo", dice_change={"B": -1}, next_mode="normal"),
    ),
    (
        "§4 palifico: any face, pacos included, may open",
        one_round("dudo", {"A": [4], "B": FIVE, "C": FIVE}, [bid("A", 1, 1)], mode="palifico"),
        first(result=None),
    ),
    (
        "§4 outside palifico the opening may not be on pacos",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 1, 1)]),
        broken(0, "opening-on-ones"),
    ),
    (
        "§4/DU-3 palifico locks the opening face",
        one_round(
            "dudo", {"A": [3], "B": FIVE, "C": FIVE}, [bid("A", 2, 4), bid("B", 3, 5)], mode="palifico"
        ),
        broken(1, "face-locked"),
    ),
    (
        "§4 palifico: pacos are not wild",
        one_round(
            "dudo",
            {"A": [4], "B": [1, 1, 4, 5, 6], "C": [2, 3, 3, 6, 6]},
            [bid("A", 3, 4), dudo("B")],
            mode="palifico",
        ),
        first(result="dudo", count=2, dice_change={"A": -1}, eliminated=["A"]),
    ),
    (
        "§4 palifico_wild_pacos keeps pacos wild; palifico lasts one round",
        one_round(
            "dudo",
            {"A": [4], "B": [1, 1, 4, 5, 6], "C": [2, 3, 3, 6, 6]},
            [bid("A", 3, 4), dudo("B")],
            mode="palifico",
            options={"palifico_wild_pacos": True},
        ),
        first(result="dudo", count=4, dice_change={"B": -1}, next_mode="normal"),
    ),
    (
        "DU-3 palifico_one_die_players_may_change_face: a one-die player changes face",
        one_round(
            "dudo",
            {"A": FIVE, "B": [2], "C": FIVE},
            [bid("A", 2, 4), bid("B", 3, 5), bid("C", 4, 5)],
            mode="palifico",
            options={"palifico_one_die_players_may_change_face": True},
        ),
        first(result=None),
    ),
    (
        "DU-3 palifico_one_die_players_may_change_face: the new face is locked for the others",
        one_round(
            "dudo",
            {"A": FIVE, "B": [2], "C": FIVE},
            [bid("A", 2, 4), bid("B", 3, 5), bid("C", 4, 4)],
            mode="palifico",
            options={"palifico_one_die_players_may_change_face": True},
        ),
        broken(2, "face-locked"),
    ),
    (
        "X-3 calza at five dice is legal and gains nothing",
        one_round("dudo", {"A": [1, 2, 3, 4, 5], "B": [2, 2, 6, 6, 6]}, [bid("A", 4, 2), calza("B")]),
        first(result="calza", count=4, dice_change={}, next_starter="B"),
    ),
    (
        "§4 calza_only_if_lost_dice: no calza with five dice",
        one_round(
            "dudo",
            {"A": FIVE, "B": FIVE},
            [bid("A", 2, 2), calza("B")],
            options={"calza_only_if_lost_dice": True},
        ),
        broken(1, "calza-with-five-dice"),
    ),
    (
        "DU-5 calza is legal in palifico, pacos natural",
        one_round(
            "dudo",
            {"A": [4], "B": [1, 4, 6], "C": [2, 3, 5, 5, 6]},
            [bid("A", 2, 4), calza("B")],
            mode="palifico",
        ),
        first(result="calza", count=2, dice_change={"B": 1}),
    ),
    (
        "DU-5 no_calza_in_palifico",
        one_round(
            "dudo",
            {"A": [4], "B": [1, 4, 6], "C": [2, 3, 5, 5, 6]},
            [bid("A", 2, 4), calza("B")],
            mode="palifico",
            options={"no_calza_in_palifico": True},
        ),
        broken(1, "calza-in-palifico"),
    ),
    (
        "DU-4 calza_out_of_turn: anyone but the bidder may calza right after a bid",
        one_round(
            "dudo",
            {"A": [4, 4, 2, 3, 5], "B": FIVE, "C": [3, 3, 4]},
            [bid("A", 3, 4), calza("C")],
            options={"calza_out_of_turn": True},
        ),
        first(result="calza", count=4, dice_change={"C": -1}, next_starter="C"),
    ),
    (
        "DU-4 without calza_out_of_turn a calza off turn is refused",
        one_round("dudo", {"A": FIVE, "B": FIVE, "C": [3, 3, 4]}, [bid("A", 3, 4), calza("C")]),
        broken(1, "not-your-turn"),
    ),
    (
        "DU-4 the bidder may not calza their own bid",
        one_round(
            "dudo",
            {"A": [2, 3, 4], "B": FIVE, "C": FIVE},
            [bid("A", 3, 4), calza("A")],
            options={"calza_out_of_turn": True},
        ),
        broken(1, "not-your-turn"),
    ),
    (
        "§4 no_palifico_or_calza_with_two_players: no calza",
        one_round(
            "dudo",
            {"A": FIVE, "B": [2, 3]},
            [bid("A", 2, 2), calza("B")],
            options={"no_palifico_or_calza_with_two_players": True},
        ),
        broken(1, "calza-with-two-players"),
    ),
    (
        "§4 no_palifico_or_calza_with_two_players: no palifico",
        one_round(
            "dudo",
            {"A": FIVE, "B": [2, 3]},
            [bid("A", 1, 6), dudo("B")],
            options={"no_palifico_or_calza_with_two_players": True},
            starter="A",
        ),
        first(result="dudo", dice_change={"B": -1}, next_mode="normal"),
    ),
    # §5 cacho-chileno
    (
        "§5 obligado: aces are plain ones",
        one_round(
            "cacho-chileno",
            {"A": [4], "B": [1, 4, 2, 2, 6], "C": [1, 1, 4, 5, 6]},
            [bid("A", 4, 4), dudo("B")],
        ),
        first(result="dudo", count=3, dice_change={"A": -1}),
    ),
    (
        "§5 obligado: no calzo",
        one_round(
            "cacho-chileno",
            {"A": [4], "B": FIVE, "C": [3, 3, 4]},
            [bid("A", 2, 4), bid("B", 3, 4), calza("C")],
        ),
        broken(2, "calza-in-obligado"),
    ),
    (
        "§5 obligado: no paso",
        one_round("cacho-chileno", {"A": [4], "B": FIVE, "C": FIVE}, [bid("A", 2, 4), paso("B")]),
        broken(1, "paso-in-obligado"),
    ),
    (
        "§5 obligado: every raise keeps the opening face",
        one_round("cacho-chileno", {"A": [4], "B": FIVE, "C": FIVE}, [bid("A", 2, 4), bid("B", 3, 5)]),
        broken(1, "face-locked"),
    ),
    (
        "CC-6 obligado lasts while someone holds one die",
        one_round(
            "cacho-chileno", {"A": [4], "B": FIVE, "C": FIVE}, [bid("A", 2, 4), bid("B", 9, 4), dudo("C")]
        ),
        first(result="dudo", dice_change={"B": -1}, next_mode="obligado"),
    ),
    (
        "CC-6 obligado_first_round_only: a one-die player sitting there plays normal rounds",
        one_round(
            "cacho-chileno",
            {"A": [4], "B": FIVE, "C": FIVE},
            [bid("A", 2, 4), paso("B")],
            options={"obligado_first_round_only": True},
            mode="normal",
        ),
        first(result=None),
    ),
    (
        "X-2 cacho-chileno may open on aces",
        one_round("cacho-chileno", {"A": FIVE, "B": FIVE}, [bid("A", 2, 1)]),
        first(result=None),
    ),
    (
        "§5 paso: all equal holds, the doubter loses",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": [2, 2, 2, 2, 2], "C": FIVE},
            [bid("A", 3, 4), paso("B"), dudo("C")],
        ),
        first(result="paso", dice_change={"C": -1}, next_starter="C"),
    ),
    (
        "§5 paso: a bluffed paso costs the passer",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": [2, 3, 3, 5, 6], "C": FIVE},
            [bid("A", 3, 4), paso("B"), dudo("C")],
        ),
        first(result="paso", dice_change={"B": -1}, next_starter="B"),
    ),
    (
        "§5 paso: all different holds (1 is its own face)",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": [1, 2, 3, 5, 6], "C": FIVE},
            [bid("A", 3, 4), paso("B"), dudo("C")],
        ),
        first(result="paso", dice_change={"C": -1}),
    ),
    (
        "§5 paso: a full house (3 + 2) holds",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": [5, 3, 5, 3, 5], "C": FIVE},
            [bid("A", 3, 4), paso("B"), dudo("C")],
        ),
        first(result="paso", dice_change={"C": -1}),
    ),
    (
        "CC-2 paso claims are judged on natural faces",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": [1, 2, 2, 2, 2], "C": FIVE},
            [bid("A", 3, 4), paso("B"), dudo("C")],
        ),
        first(result="paso", dice_change={"B": -1}),
    ),
    (
        "CC-2 paso_aces_wild: an ace completes the claim",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": [1, 2, 2, 2, 2], "C": FIVE},
            [bid("A", 3, 4), paso("B"), dudo("C")],
            options={"paso_aces_wild": True},
        ),
        first(result="paso", dice_change={"C": -1}),
    ),
    (
        "CC-1 a paso on two dice always holds",
        one_round(
            "cacho-chileno", {"A": FIVE, "B": [3, 5], "C": FIVE}, [bid("A", 3, 4), paso("B"), dudo("C")]
        ),
        first(result="paso", dice_change={"C": -1}),
    ),
    (
        "CC-1 a full needs five dice",
        one_round(
            "cacho-chileno", {"A": FIVE, "B": [3, 3, 3, 5], "C": FIVE}, [bid("A", 3, 4), paso("B"), dudo("C")]
        ),
        first(result="paso", dice_change={"B": -1}),
    ),
    (
        "§5 a player passes once a round",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": FIVE, "C": FIVE},
            [bid("A", 3, 4), paso("B"), bid("C", 4, 4), bid("A", 5, 4), paso("B")],
        ),
        broken(4, "paso-already-used"),
    ),
    (
        "§5 two pasos in a row; dudo targets the last paso",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": [2, 2, 2, 2, 2], "C": [2, 3, 3, 5, 6]},
            [bid("A", 3, 4), paso("B"), paso("C"), dudo("A")],
        ),
        first(result="paso", dice_change={"C": -1}),
    ),
    (
        "CC-3 no calzo right after a paso",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": FIVE, "C": [4, 4, 4, 4]},
            [bid("A", 3, 4), paso("B"), calza("C")],
        ),
        broken(2, "calza-after-paso"),
    ),
    (
        "CC-3 calzo_after_paso targets the last real bid",
        one_round(
            "cacho-chileno",
            {"A": [2, 3, 4, 5, 6], "B": FIVE, "C": [4, 4, 2, 3]},
            [bid("A", 4, 4), paso("B"), calza("C")],
            options={"calzo_after_paso": True},
        ),
        first(result="calza", count=4, dice_change={"C": 1}),
    ),
    (
        "CC-3 after a paso the bid to beat is still the last real bid",
        one_round(
            "cacho-chileno", {"A": FIVE, "B": FIVE, "C": FIVE}, [bid("A", 3, 4), paso("B"), bid("C", 3, 4)]
        ),
        broken(2, "bid-not-higher"),
    ),
    (
        "CC-4 aces_need_natural: no natural die of the face, aces count for nothing",
        one_round(
            "cacho-chileno",
            {"A": [1, 1, 2, 3, 5], "B": [1, 2, 3, 5, 6]},
            [bid("A", 3, 4), dudo("B")],
            options={"aces_need_natural": True},
        ),
        first(result="dudo", count=0, dice_change={"A": -1}),
    ),
    (
        "CC-4 aces wild by default",
        one_round("cacho-chileno", {"A": [1, 1, 2, 3, 5], "B": [1, 2, 3, 5, 6]}, [bid("A", 3, 4), dudo("B")]),
        first(result="dudo", count=3, dice_change={"B": -1}),
    ),
    (
        "X-2 opening_aces_free_conversion: any quantity of another face right after",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": FIVE},
            [bid("A", 2, 1), bid("B", 1, 3)],
            options={"opening_aces_free_conversion": True},
        ),
        first(result=None),
    ),
    (
        "X-2 without the option, leaving two aces needs five",
        one_round("cacho-chileno", {"A": FIVE, "B": FIVE}, [bid("A", 2, 1), bid("B", 1, 3)]),
        broken(1, "bid-not-higher"),
    ),
    (
        "X-2 the free conversion is only for the action right after the opening",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": FIVE, "C": FIVE},
            [bid("A", 2, 1), bid("B", 3, 1), bid("C", 1, 3)],
            options={"opening_aces_free_conversion": True},
        ),
        broken(2, "bid-not-higher"),
    ),
    (
        "CC-7/X-3 cacho-chileno calzo at five: legal, no gain",
        one_round(
            "cacho-chileno", {"A": [4, 4, 2, 3, 5], "B": [4, 1, 2, 3, 5]}, [bid("A", 4, 4), calza("B")]
        ),
        first(result="calza", count=4, dice_change={}),
    ),
    # §6 cacho-online
    (
        "§6 no calzo with five dice",
        one_round("cacho-online", {"A": FIVE, "B": FIVE}, [bid("A", 2, 2), calza("B")]),
        broken(1, "calza-with-five-dice"),
    ),
    (
        "§6 calzo is off below the threshold",
        one_round(
            "cacho-online",
            {"A": [2, 3, 4], "B": [2, 3]},
            [bid("A", 2, 2), calza("B")],
            extra_setup={"calzo_disabled": True},
        ),
        broken(1, "calza-disabled"),
    ),
    (
        "CO-1 the latch closes once the dice fall below T",
        one_round("cacho-online", {"A": [2, 3, 4], "B": [2, 3, 4], "C": [5, 6]}, [bid("A", 5, 6), dudo("B")]),
        ok(calzo_disabled=True, rounds=[{"result": "dudo", "dice_change": {"A": -1}}]),
    ),
    (
        "§6 a failed calzo costs two dice",
        one_round("cacho-online", {"A": FIVE, "B": [2, 2, 3, 4], "C": FIVE}, [bid("A", 9, 2), calza("B")]),
        first(result="calza", count=4, dice_change={"B": -2}, next_starter="B"),
    ),
    (
        "§6 an exact calzo gains a die",
        one_round("cacho-online", {"A": FIVE, "B": [2, 2, 3, 4], "C": FIVE}, [bid("A", 4, 2), calza("B")]),
        first(result="calza", count=4, dice_change={"B": 1}),
    ),
    (
        "§6 salpicón needs all five dice",
        one_round("cacho-online", {"A": FIVE, "B": [2, 3, 4, 5], "C": FIVE}, [bid("A", 2, 2), salpicon("B")]),
        broken(1, "salpicon-needs-five-dice"),
    ),
    (
        "§6 salpicón needs a standing bid",
        one_round("cacho-online", {"A": FIVE, "B": FIVE}, [salpicon("A")]),
        broken(0, "no-standing-bid"),
    ),
    (
        "§6 a believer must raise: no dudo",
        one_round(
            "cacho-online", {"A": FIVE, "B": FIVE, "C": FIVE}, [bid("A", 2, 2), salpicon("B"), dudo("C")]
        ),
        broken(2, "must-answer-salpicon"),
    ),
    (
        "§6 a believer must raise: no calzo",
        one_round(
            "cacho-online",
            {"A": FIVE, "B": FIVE, "C": [2, 3, 4]},
            [bid("A", 2, 2), salpicon("B"), calza("C")],
        ),
        broken(2, "must-answer-salpicon"),
    ),
    (
        "CO-2 one salpicón a round among all players",
        one_round(
            "cacho-online",
            {"A": FIVE, "B": FIVE, "C": FIVE},
            [bid("A", 2, 2), salpicon("B"), bid("C", 3, 2), salpicon("A")],
        ),
        broken(3, "salpicon-already-announced"),
    ),
    (
        "§6 a denied true salpicón costs the denier",
        one_round(
            "cacho-online",
            {"A": FIVE, "B": [1, 2, 3, 4, 6], "C": FIVE},
            [bid("A", 2, 2), salpicon("B"), deny("C")],
        ),
        first(result="salpicon", dice_change={"C": -1}, next_starter="C"),
    ),
    (
        "§6 a denied bluff costs the announcer",
        one_round(
            "cacho-online",
            {"A": FIVE, "B": [1, 1, 3, 4, 6], "C": FIVE},
            [bid("A", 2, 2), salpicon("B"), deny("C")],
        ),
        first(result="salpicon", dice_change={"B": -1}, next_starter="B"),
    ),
    (
        "§6 only a pending salpicón can be denied",
        one_round("cacho-online", {"A": FIVE, "B": FIVE}, [bid("A", 2, 2), deny("B")]),
        broken(1, "no-salpicon-to-deny"),
    ),
    (
        "§6 the starter chooses the direction every round",
        one_round(
            "cacho-online",
            {"A": FIVE, "B": FIVE, "C": FIVE},
            [bid("A", 2, 2), bid("C", 3, 2), dudo("B")],
            direction="ccw",
        ),
        first(result="dudo"),
    ),
    (
        "§6 a drop to one die makes the next round blind",
        one_round("cacho-online", {"A": [2, 3], "B": FIVE, "C": FIVE}, [bid("A", 9, 6), dudo("B")]),
        first(result="dudo", dice_change={"A": -1}, next_mode="blind"),
    ),
    (
        "CO-5 sitting at one die does not make the next round blind",
        one_round(
            "cacho-online", {"A": [3], "B": FIVE, "C": FIVE}, [bid("A", 1, 3), dudo("B")], mode="blind"
        ),
        first(result="dudo", dice_change={"B": -1}, next_mode="normal"),
    ),
    (
        "§6 blind rounds keep ones wild",
        one_round(
            "cacho-online",
            {"A": [3], "B": [1, 1, 2, 3, 5], "C": [3, 4, 4, 5, 6]},
            [bid("A", 4, 3), dudo("B")],
            mode="blind",
        ),
        first(result="dudo", count=5, dice_change={"B": -1}, next_mode="normal"),
    ),
    # §7 liars-dice
    (
        "§7 liars-dice: ones are not wild",
        one_round("liars-dice", {"A": [1, 1, 1, 2, 3], "B": [4, 5, 6, 6, 1]}, [bid("A", 3, 6), dudo("B")]),
        first(result="dudo", count=2, dice_change={"A": -1}),
    ),
    (
        "§7 liars-dice: 1 is the lowest face",
        one_round("liars-dice", {"A": FIVE, "B": FIVE}, [bid("A", 3, 2), bid("B", 3, 1)]),
        broken(1, "bid-not-higher"),
    ),
    (
        "§7 liars-dice has no calza",
        one_round("liars-dice", {"A": FIVE, "B": FIVE}, [bid("A", 3, 2), calza("B")]),
        broken(1, "action-not-in-ruleset"),
    ),
    (
        "§7 liars-dice has no paso",
        one_round("liars-dice", {"A": FIVE, "B": FIVE}, [bid("A", 3, 2), paso("B")]),
        broken(1, "action-not-in-ruleset"),
    ),
    (
        "§7 bidding_rule=reset-quantity: a higher face with any quantity",
        one_round(
            "liars-dice",
            {"A": FIVE, "B": FIVE},
            [bid("A", 3, 4), bid("B", 1, 5)],
            options={"bidding_rule": "reset-quantity"},
        ),
        first(result=None),
    ),
    (
        "§7 bidding_rule=reset-quantity: more of a lower face is refused",
        one_round(
            "liars-dice",
            {"A": FIVE, "B": FIVE},
            [bid("A", 3, 4), bid("B", 4, 3)],
            options={"bidding_rule": "reset-quantity"},
        ),
        broken(1, "bid-not-higher"),
    ),
    (
        "§7 bidding_rule=strict: more of a higher face is refused",
        one_round(
            "liars-dice",
            {"A": FIVE, "B": FIVE},
            [bid("A", 3, 4), bid("B", 4, 5)],
            options={"bidding_rule": "strict"},
        ),
        broken(1, "bid-not-higher"),
    ),
    (
        "§7 bidding_rule=reset-face (default): more of any face",
        one_round("liars-dice", {"A": FIVE, "B": FIVE}, [bid("A", 3, 4), bid("B", 4, 1)]),
        first(result=None),
    ),
    # §9 timeouts and abandonment
    (
        "§9 a timed-out starter opens one two",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [timeout("A"), bid("B", 1, 2)]),
        broken(1, "bid-not-higher"),
    ),
    (
        "§9 a timed-out player raises the quantity on the same face",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 3, 4), timeout("B"), bid("A", 4, 4)]),
        broken(2, "bid-not-higher"),
    ),
    (
        "§9 a timed-out player whose raise does not fit calls dudo",
        one_round("dudo", {"A": [4, 4, 4], "B": [4, 1]}, [bid("A", 5, 4), timeout("B")]),
        first(result="dudo", count=5, dice_change={"B": -1}),
    ),
    (
        "CO-2 a timed-out salpicón responder raises",
        one_round(
            "cacho-online",
            {"A": FIVE, "B": FIVE, "C": FIVE},
            [bid("A", 3, 4), salpicon("B"), timeout("C"), bid("A", 4, 4)],
        ),
        broken(3, "bid-not-higher"),
    ),
    (
        "CO-2 a timed-out salpicón responder who cannot raise denies",
        one_round(
            "cacho-online", {"A": [1, 2, 3, 4, 5], "B": FIVE}, [bid("A", 10, 4), salpicon("B"), timeout("A")]
        ),
        first(result="salpicon", dice_change={"A": -1}),
    ),
    (
        "§9 cacho-chileno: a timeout after a paso doubts the paso",
        one_round(
            "cacho-chileno",
            {"A": FIVE, "B": [3, 3, 3, 3, 3], "C": FIVE},
            [bid("A", 15, 4), paso("B"), timeout("C")],
        ),
        first(result="paso", dice_change={"C": -1}),
    ),
    (
        "§9 only the player on turn can time out",
        one_round("dudo", {"A": FIVE, "B": FIVE, "C": FIVE}, [bid("A", 3, 4), timeout("C")]),
        broken(1, "not-your-turn"),
    ),
    (
        "§9 abandonment restarts the round with the same starter",
        one_round("cacho-online", {"A": FIVE, "B": FIVE, "C": FIVE}, [bid("A", 3, 4), abandon("C")]),
        ok(
            rounds=[
                {
                    "result": "restart",
                    "dice_change": {"C": -5},
                    "eliminated": ["C"],
                    "next_starter": "A",
                    "next_mode": "normal",
                }
            ],
            dice={"A": 5, "B": 5, "C": 0},
        ),
    ),
    (
        "CO-6 an abandoning starter is replaced by next_live",
        one_round("dudo", {"A": FIVE, "B": FIVE, "C": FIVE}, [bid("A", 3, 4), abandon("A")]),
        first(result="restart", next_starter="B"),
    ),
    (
        "X-6b a starter who abandons before opening is replaced in the round's recorded direction",
        one_round("cacho-online", {"A": FIVE, "B": FIVE, "C": FIVE}, [abandon("A")], direction="ccw"),
        first(result="restart", next_starter="C"),
    ),
    (
        "X-6b the recorded direction defaults to cw",
        one_round("cacho-online", {"A": FIVE, "B": FIVE, "C": FIVE}, [abandon("A")]),
        first(result="restart", next_starter="B"),
    ),
    (
        "X-6b dudo with loser_chooses_direction: the recorded direction of an unopened round",
        one_round(
            "dudo",
            {"A": FIVE, "B": FIVE, "C": FIVE},
            [abandon("A")],
            direction="ccw",
            options={"loser_chooses_direction": True},
        ),
        first(result="restart", next_starter="C"),
    ),
    (
        "X-6b ccw stays a rule error on the round where the starter has no choice",
        one_round("dudo", {"A": FIVE, "B": FIVE, "C": FIVE}, [abandon("A")], direction="ccw"),
        broken(None, "direction-not-choosable"),
    ),
    (
        "§9 an abandonment leaving one player ends the match",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 3, 4), abandon("B")]),
        ok(winner="A", rounds=[{"result": "restart", "next_starter": None, "next_mode": None}]),
    ),
    (
        "CO-6 a restarted round keeps its type (blind)",
        one_round(
            "cacho-online", {"A": [3], "B": FIVE, "C": FIVE}, [bid("A", 3, 4), abandon("B")], mode="blind"
        ),
        first(result="restart", next_mode="blind"),
    ),
    (
        "P-3 cacho-chileno recomputes obligado once the leaver is gone",
        one_round("cacho-chileno", {"A": [3], "B": FIVE, "C": FIVE}, [bid("A", 3, 4), abandon("A")]),
        first(result="restart", next_mode="normal", next_starter="B"),
    ),
    (
        "§9 a player who is out cannot act",
        one_round("dudo", {"A": FIVE, "B": [], "C": FIVE}, [bid("A", 3, 4), abandon("B")]),
        broken(1, "player-out"),
    ),
    (
        "match-record: a by naming nobody seated is a rule error",
        one_round("dudo", {"A": FIVE, "B": FIVE}, [bid("A", 3, 4), dudo("Z")]),
        broken(1, "unknown-player"),
    ),
]


@pytest.mark.parametrize(("outcome", "expected"), [(o, e) for _, o, e in ROWS], ids=[r[0] for r in ROWS])
def test_rule(outcome: dict[str, Any], expected: dict[str, Any]) -> None:
    mismatch = subset_mismatch(expected, outcome)
    assert mismatch is None, f"{mismatch}\noutcome: {outcome}"


def test_cacho_online_turns_last_the_seeds_30_seconds() -> None:
    from cacho.engine.bidding import start_match

    assert start_match("cacho-online", ["a", "b"], starter="a", turn_seconds=30).turn_seconds == 30
    with pytest.raises(RuleError) as refused:
        start_match("cacho-online", ["a", "b"], starter="a", turn_seconds=20)
    assert refused.value.code == "setup-turn-seconds"
    assert start_match("dudo", ["a", "b"], starter="a", turn_seconds=20).turn_seconds == 20  # P-1
