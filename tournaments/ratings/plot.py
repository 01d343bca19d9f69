"""A rating history as a server-rendered SVG line chart: the coordinates are computed
here (numbers only), the template draws them. Pure: no Django."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 32  # room for the axis labels


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    number: int
    rating: float
    placement: int
    table_size: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # the polyline's points
    dots: tuple[Dot, ...]
    top: float  # the highest and lowest rating on the y axis
    bottom: float
    top_y: float
    bottom_y: float
    left: int
    right_x: int
    base_y: int


def chart(points: Sequence[tuple[int, float, int, int]]) -> Chart | None:
    """`points`: (table number, rating after it, placement, table size), oldest first."""
    if not points:
        return None
    ratings = [rating for _, rating, _, _ in points]
    high, low = max(ratings), min(ratings)
    if high - low < 1.0:  # a flat history still gets a readable scale
        high, low = high + 0.5, low - 0.5
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    steps = max(len(points) - 1, 1)
    dots = tuple(
        Dot(
            round(LEFT + inner_w * (i / steps if len(points) > 1 else 0.5), 1),
            round(TOP + inner_h * (high - rating) / (high - low), 1),
            number,
            rating,
            placement,
            size,
        )
        for i, (number, rating, placement, size) in enumerate(points)
    )
    return Chart(
        WIDTH,
        HEIGHT,
        " ".join(f"{d.x},{d.y}" for d in dots),
        dots,
        round(high, 1),
        round(low, 1),
        TOP,
        TOP + inner_h,
        LEFT,
        WIDTH - RIGHT,
        HEIGHT - BOTTOM,
    )
