"""The choices of the automatic policy (docs/rules.md §9, decision P-2), on dice and open boxes
alone: the auto-play of a timed-out turn asks them, and so does `decide`, which lets a
timed-out turn fill no other box (the server finishes that turn, so its box is the policy's).

Ties follow the box order of §8 (`BOXES`); for turns, the lowest die position.
"""

from __future__ import annotations

from collections.abc import Sequence

from cacho.engine.alalay.scorecard import BOX_INDEX, DICE_COUNT, MAX_POINTS, Dice, box_points, turned


def best_box(open_boxes: Sequence[str], dice: Dice, de_mano: bool) -> tuple[str, int] | None:
    """The highest-scoring open box with its points (the first in box order of equals)."""
    best: tuple[str, int] | None = None
    for box in sorted(open_boxes, key=BOX_INDEX.__getitem__):
        points = box_points(box, dice, de_mano)
        if best is None or points > best[1]:
            best = (box, points)
    return best


def best_turn(open_boxes: Sequence[str], dice: Dice) -> int:
    """The die whose turn gives the highest-scoring open box (the lowest position of equals)."""
    choice: tuple[int, int] | None = None
    for position in range(DICE_COUNT):
        after = (*dice[:position], turned(dice[position]), *dice[position + 1 :])
        best = best_box(open_boxes, after, False)  # a turned die makes the score de huevo
        points = 0 if best is None else best[1]
        if choice is None or points > choice[1]:
            choice = (position, points)
    assert choice is not None
    return choice[0]


def scratch_box(open_boxes: Sequence[str]) -> str:
    """The lowest-value open box by its maximum score (the first in box order of equals)."""
    return min(open_boxes, key=lambda box: (MAX_POINTS[box], BOX_INDEX[box]))
