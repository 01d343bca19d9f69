"""The Alalay scorecard: box ids, hand predicates and points (docs/rules.md §8).

A card is a tuple of 11 slots indexed like `BOXES`: `None` is an open box, a
positive int a score, and `0` a scratch (written "X", never 0).
"""

from __future__ import annotations

from collections import Counter
from typing import Final

Dice = tuple[int, ...]
Card = tuple[int | None, ...]

NUMBER_BOXES: Final = ("ones", "twos", "threes", "fours", "fives", "sixes")
GRANDE_BOXES: Final = ("grande_1", "grande_2")
# Box order of §8: also the tie-break order of auto-play (P-2).
BOXES: Final[tuple[str, ...]] = (*NUMBER_BOXES, "straight", "full", "four", *GRANDE_BOXES)
BOX_INDEX: Final[dict[str, int]] = {box: i for i, box in enumerate(BOXES)}
# The card as the table writes it: three columns of three boxes, the grandes under them.
SHEET_COLUMNS: Final[tuple[tuple[str, ...], ...]] = (
    ("ones", "twos", "threes"),
    ("straight", "full", "four"),
    ("fours", "fives", "sixes"),
)
DICE_COUNT: Final = 5
FACES: Final = range(1, 7)

STRAIGHTS: Final[frozenset[frozenset[int]]] = frozenset(
    {frozenset({1, 2, 3, 4, 5}), frozenset({2, 3, 4, 5, 6}), frozenset({3, 4, 5, 6, 1})}
)
# (de mano, de huevo) points of the middle boxes.
MIDDLE_POINTS: Final[dict[str, tuple[int, int]]] = {"straight": (25, 20), "full": (35, 30), "four": (45, 40)}
GRANDE_POINTS: Final = 50
# Maximum score per box: the scratch order of auto-play (P-2).
MAX_POINTS: Final[dict[str, int]] = {
    **{box: 5 * (i + 1) for i, box in enumerate(NUMBER_BOXES)},
    "straight": 25,
    "full": 35,
    "four": 45,
    "grande_1": GRANDE_POINTS,
    "grande_2": GRANDE_POINTS,
}
# End condition 3: four or better in every number box.
FOUR_OR_BETTER: Final[dict[str, int]] = {box: 4 * (i + 1) for i, box in enumerate(NUMBER_BOXES)}


def empty_card() -> Card:
    return (None,) * len(BOXES)


def is_valid_face(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6


def turned(face: int) -> int:
    """The opposite face: v -> 7 - v."""
    return 7 - face


def is_straight(dice: Dice) -> bool:
    return len(dice) == DICE_COUNT and frozenset(dice) in STRAIGHTS


def is_full(dice: Dice) -> bool:
    """A triple and a pair of different faces; five of a kind is not a full (AL-7)."""
    return len(dice) == DICE_COUNT and sorted(Counter(dice).values()) == [2, 3]


def is_four(dice: Dice) -> bool:
    """At least four equal dice; five of a kind qualifies (AL-7)."""
    return len(dice) == DICE_COUNT and max(Counter(dice).values()) >= 4


def is_five_of_a_kind(dice: Dice) -> bool:
    return len(dice) == DICE_COUNT and len(set(dice)) == 1


def is_made_hand(dice: Dice) -> bool:
    """Straight, full, four or five of a kind: what exempts a full re-roll from turning."""
    return is_straight(dice) or is_full(dice) or is_four(dice)


def box_points(box: str, dice: Dice, de_mano: bool) -> int:
    """Points `box` would score with `dice` (0 when the hand does not fit)."""
    index = BOX_INDEX[box]
    if index < len(NUMBER_BOXES):
        face = index + 1
        return face * dice.count(face)
    if box == "straight":
        ok = is_straight(dice)
    elif box == "full":
        ok = is_full(dice)
    elif box == "four":
        ok = is_four(dice)
    else:
        return GRANDE_POINTS if is_five_of_a_kind(dice) else 0
    if not ok:
        return 0
    mano, huevo = MIDDLE_POINTS[box]
    return mano if de_mano else huevo


def open_boxes(card: Card) -> tuple[str, ...]:
    return tuple(box for box, value in zip(BOXES, card, strict=False) if value is None)


def open_box_points(card: Card, dice: Dice, de_mano: bool) -> tuple[tuple[str, int], ...]:
    """Every open box with the points it would give now, in box order (the scoresheet hint)."""
    return tuple(
        (box, box_points(box, dice, de_mano))
        for box, value in zip(BOXES, card, strict=False)
        if value is None
    )


def is_full_card(card: Card) -> bool:
    return all(value is not None for value in card)


def card_total(card: Card) -> int:
    return sum(value for value in card if value is not None)


def allowed_values(box: str) -> frozenset[int]:
    """The positive scores a box can hold (a setup with any other value contradicts the rules)."""
    index = BOX_INDEX[box]
    if index < len(NUMBER_BOXES):
        return frozenset((index + 1) * n for n in range(1, DICE_COUNT + 1))
    if box in MIDDLE_POINTS:
        return frozenset(MIDDLE_POINTS[box])
    return frozenset({GRANDE_POINTS})


def has_panza_de_oro(card: Card) -> bool:
    """End condition 2: straight 25, full 35, four 45 and a grande of 50 (AL-10)."""
    get = dict(zip(BOXES, card, strict=False))
    return (
        get["straight"] == 25
        and get["full"] == 35
        and get["four"] == 45
        and (get["grande_1"] == GRANDE_POINTS or get["grande_2"] == GRANDE_POINTS)
    )


def has_four_in_every_number(card: Card) -> bool:
    """End condition 3: four or better in the six number boxes plus a grande."""
    get = dict(zip(BOXES, card, strict=False))
    for box, least in FOUR_OR_BETTER.items():
        value = get[box]
        if value is None or value < least:
            return False
    return get["grande_1"] == GRANDE_POINTS or get["grande_2"] == GRANDE_POINTS
