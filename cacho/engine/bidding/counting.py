"""Counting the table at a resolution, and judging Paso and Salpicón claims."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import product

from cacho.engine.bidding.rules import Mode, Rules


def ones_are_wild(rules: Rules, mode: Mode, face: int) -> bool:
    """Ones stand for `face` in this count (§2, §4 palifico, §5 obligado)."""
    if not rules.ones_wild or face == 1:
        return False
    if mode == "palifico":
        return rules.palifico_wild_pacos
    return mode != "obligado"


def count_face(rules: Rules, mode: Mode, dice: Iterable[int], face: int) -> int:
    """How many dice on the table match a bid on `face`."""
    tally = Counter(dice)
    natural = tally[face]
    if not ones_are_wild(rules, mode, face):
        return natural
    if rules.aces_need_natural and natural == 0:
        return 0
    return natural + tally[1]


def _natural_paso_claim(dice: tuple[int, ...]) -> bool:
    distinct = len(set(dice))
    if distinct == 1 or distinct == len(dice):
        return True
    return len(dice) == 5 and sorted(Counter(dice).values()) == [2, 3]


def paso_claim_holds(rules: Rules, dice: tuple[int, ...]) -> bool:
    """All equal, all different, or a full house (3 + 2) on the dice held (CC-1, CC-2)."""
    if not rules.paso_aces_wild or 1 not in dice:
        return _natural_paso_claim(dice)
    others = tuple(d for d in dice if d != 1)
    aces = len(dice) - len(others)
    # Each ace may stand for any face: try them all (at most 6**5 cases).
    return any(_natural_paso_claim(others + chosen) for chosen in product(range(1, 7), repeat=aces))


def salpicon_claim_holds(dice: tuple[int, ...]) -> bool:
    """Five dice showing five different faces, 1 counting as its own face (§6)."""
    return len(dice) == 5 and len(set(dice)) == 5
