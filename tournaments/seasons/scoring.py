"""A season's standings from its evenings' final places: pure (the standard library only).

- An evening scores `points[place - 1]` (0 past the table) plus the participation points;
  a shared place scores that place's points for each who shares it.
- A player's total is the sum of their best `best_of` evenings (all when None); the
  evenings counted are the highest scores, the earlier evening first among equal scores.
- Equal totals are split by the number of better places (more 1st places, then more 2nd
  places, …, over every evening played), then by the last evening: the better place in the
  latest evening either played (one who played it is ahead of one who did not), going back
  an evening while equal. Players equal on all of it share the place. No tie goes by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

BETTER_PLACES = "better-places"
LAST_EVENING = "last-evening"
ABSENT = 1 << 30  # the place of an evening not played: worse than any


@dataclass(frozen=True)
class Scoring:
    points: tuple[float, ...]
    participation: float = 0.0
    best_of: int | None = None

    def evening(self, place: int) -> float:
        earned = self.points[place - 1] if 1 <= place <= len(self.points) else 0.0
        return float(earned) + float(self.participation)


@dataclass(frozen=True)
class Evening:
    """One counted tournament's final places: player key -> place."""

    key: str
    places: Mapping[str, int]


@dataclass(frozen=True)
class EveningScore:
    evening: str
    place: int
    points: float
    counted: bool


@dataclass(frozen=True)
class Line:
    player: str
    rank: int
    total: float
    played: int
    evenings: tuple[EveningScore, ...]
    tiebreak: str = ""
    tiebreak_detail: dict[str, Any] | None = field(default=None)


def _counted(scores: Sequence[tuple[int, float]], best_of: int | None) -> set[int]:
    """The indexes (in the season's order) of the evenings that count: the best scores,
    the earlier evening first among equal scores."""
    order = sorted(scores, key=lambda s: (-s[1], s[0]))
    kept = order if best_of is None else order[:best_of]
    return {i for i, _ in kept}


def _countback(places: Sequence[int], depth: int) -> tuple[int, ...]:
    """How many times each place 1..depth was reached, negated (fewer is worse)."""
    return tuple(-sum(1 for p in places if p == n) for n in range(1, depth + 1))


def standings(evenings: Sequence[Evening], scoring: Scoring) -> list[Line]:
    """The season's lines, best first, from its evenings in their order (earliest first)."""
    players = sorted({p for e in evenings for p in e.places})
    depth = max((place for e in evenings for place in e.places.values()), default=0)
    built: dict[str, tuple[float, list[EveningScore]]] = {}
    keys: dict[str, tuple[Any, ...]] = {}
    for player in players:
        played = [
            (i, e.key, e.places[player], scoring.evening(e.places[player]))
            for i, e in enumerate(evenings)
            if player in e.places
        ]
        counted = _counted([(i, pts) for i, _, _, pts in played], scoring.best_of)
        scores = [EveningScore(key, place, pts, i in counted) for i, key, place, pts in played]
        total = round(sum(s.points for s in scores if s.counted), 6)
        built[player] = (total, scores)
        last = tuple(e.places.get(player, ABSENT) for e in reversed(evenings))
        keys[player] = (-total, _countback([s.place for s in scores], depth), last)
    order = sorted(players, key=lambda p: keys[p])
    lines: list[Line] = []
    rank = 0
    for i, player in enumerate(order):
        if i == 0 or keys[player] != keys[order[i - 1]]:
            rank = i + 1
        total, scores = built[player]
        reason, detail = _tie_won(player, order[i + 1] if i + 1 < len(order) else None, keys, evenings)
        lines.append(Line(player, rank, total, len(scores), tuple(scores), reason, detail))
    return lines


def _tie_won(
    player: str, below: str | None, keys: Mapping[str, tuple[Any, ...]], evenings: Sequence[Evening]
) -> tuple[str, dict[str, Any] | None]:
    """Why `player` is ahead of the next line when their totals are equal: the place whose
    count split them, or the evening that did."""
    if below is None:
        return "", None
    mine, theirs = keys[player], keys[below]
    if mine[0] != theirs[0] or mine == theirs:
        return "", None
    if mine[1] != theirs[1]:
        place = next(n for n, (a, b) in enumerate(zip(mine[1], theirs[1], strict=True), start=1) if a != b)
        counts = [-mine[1][place - 1], -theirs[1][place - 1]]
        return BETTER_PLACES, {"against": below, "place": place, "counts": counts}
    ordered = list(reversed(evenings))
    at = next(i for i, (a, b) in enumerate(zip(mine[2], theirs[2], strict=True)) if a != b)
    places = [None if x == ABSENT else x for x in (mine[2][at], theirs[2][at])]
    return LAST_EVENING, {"against": below, "tournament": ordered[at].key, "places": places}


__all__ = ["BETTER_PLACES", "LAST_EVENING", "Evening", "EveningScore", "Line", "Scoring", "standings"]
