"""The rating fold: openskill's Plackett–Luce model applied to one table's placements at a
time, in a fixed order. Pure (no Django, no database): the projection and the bench call
the same `apply_table`, so a rebuild and the incremental updates compute the very same
floats from the very same inputs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = float(MODEL.mu)
SIGMA = float(MODEL.sigma)
# A rating is provisional until it has this many rated tables behind it, or while its
# uncertainty is still this high (a few tables against unknown players teach little).
PROVISIONAL_TABLES = 5
PROVISIONAL_SIGMA = 8.0


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The displayed rating: a conservative estimate (mu - 3 sigma), 0 for a newcomer."""
        return self.mu - 3.0 * self.sigma


def provisional(tables: int, sigma: float) -> bool:
    return tables < PROVISIONAL_TABLES or sigma > PROVISIONAL_SIGMA


@dataclass(frozen=True)
class RatedTable:
    """One finished rated table: its place in the order (`key`, then `match`) and each
    rated player's placement (1 is the winner; equal placements are ties)."""

    key: int
    match: str
    placements: tuple[tuple[int, int], ...]  # (player id, placement), by player id

    @property
    def order(self) -> tuple[int, str]:
        return (self.key, self.match)


@dataclass(frozen=True)
class Change:
    """A player's rating before and after one table."""

    player: int
    table: RatedTable
    placement: int
    before: Skill
    after: Skill


def apply_table(table: RatedTable, current: Mapping[int, Skill]) -> list[Change]:
    """The changes one table makes to its players' ratings (`current`: their ratings so
    far; a player missing from it starts at the default). A table with fewer than two
    players changes nothing."""
    if len(table.placements) < 2:
        return []
    players = [p for p, _ in table.placements]
    before = [current.get(p, Skill()) for p in players]
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in table.placements])
    return [
        Change(player, table, place, was, Skill(float(team[0].mu), float(team[0].sigma)))
        for (player, place), was, team in zip(table.placements, before, rated, strict=True)
    ]


def fold(tables: Iterable[RatedTable], state: MutableMapping[int, Skill]) -> Iterator[Change]:
    """Apply `tables` (already in order) to `state`, in place; yields every change."""
    for table in tables:
        for change in apply_table(table, state):
            state[change.player] = change.after
            yield change


def placements_of(lines: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """A table's placements in the fold's canonical form: one line per player, by player id."""
    return tuple(sorted((int(p), int(place)) for p, place in lines))
