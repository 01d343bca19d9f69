"""Counting the table at a resolution, and judging Paso and Salpicón claims."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import product

from cacho.engine.bidding.rules import Mode, Rules


def ones_are_wild(rules: Rules, mode: Mode, face: int) -> bool:
    """Ones stand for `face` in this count (§2, §4 palifico, §5 obligado)."""
    if not rules.ones_wild or face == 1:
        return False
    if mode == "palifico":
        return rules.palifico_wild_pacos
    return mode != "obligado"


def counted_positions(
    rules: Rules, mode: Mode, hands: Sequence[tuple[int, ...]], face: int
) -> tuple[tuple[int, ...], ...]:
    """Per hand, the positions of the dice that match a bid on `face`: what a reveal shows
    as counted, and what the count of a dudo or calza adds up."""
    wild = ones_are_wild(rules, mode, face)
    if wild and rules.aces_need_natural and not any(face in hand for hand in hands):
        wild = False  # with no natural die of the face on the table the aces stand for nothing
    return tuple(
        tuple(position for position, die in enumerate(hand) if die == face or (wild and die == 1))
        for hand in hands
    )


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
