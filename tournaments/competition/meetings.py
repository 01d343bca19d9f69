"""Who already met whom: entries that shared a table, counted per pair."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

Pair = tuple[str, str]


def pair(a: str, b: str) -> Pair:
    return (a, b) if a <= b else (b, a)


def pair_counts(tables: Iterable[Sequence[str]]) -> dict[Pair, int]:
    """How many times each pair of entries shared a table."""
    out: dict[Pair, int] = {}
    for seats in tables:
        for a, b in combinations(seats, 2):
            key = pair(a, b)
            out[key] = out.get(key, 0) + 1
    return out


def opponents(tables: Iterable[Sequence[str]]) -> dict[str, set[str]]:
    """For each entry, the entries it already shared a table with."""
    out: dict[str, set[str]] = {}
    for seats in tables:
        for a in seats:
            mine = out.setdefault(a, set())
            mine.update(b for b in seats if b != a)
    return out


def repeat_pairs(tables: Iterable[Sequence[str]], met: Mapping[str, set[str]]) -> tuple[Pair, ...]:
    """The pairs seated together here that had already met (each pair once, sorted)."""
    found = {pair(a, b) for seats in tables for a, b in combinations(seats, 2) if b in met.get(a, ())}
    return tuple(sorted(found))
