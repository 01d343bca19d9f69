"""BASELINE ONLY: the Swiss pairing of commit d4f079c.

A verbatim copy of the old `tournaments/competition/swiss.py` (exhaustive up to 10 seated
entries, a swap heuristic above), kept in the bench so that `bench/pairing.py` can
measure the old repeats on the very inputs the new code pairs. Nothing outside the bench
imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from tournaments.competition.errors import CompetitionError
from tournaments.competition.meetings import Pair, opponents, repeat_pairs
from tournaments.competition.tables import (
    LARGEST_TABLE,
    SMALLEST_TABLE,
    Table,
    check_size_limits,
    open_least_opened,
    seatable,
    table_sizes,
)

EXACT_LIMIT = 10


@dataclass(frozen=True)
class SwissPlayer:
    """An entry as the pairing sees it: its score, byes received and tables opened so far."""

    id: str
    score: float = 0.0
    byes: int = 0
    opened: int = 0


@dataclass(frozen=True)
class SwissRequest:
    """`players` in the current ranking, best first; `previous_tables` lists the seats of
    every earlier table of the stage (who met whom)."""

    players: tuple[SwissPlayer, ...]
    previous_tables: tuple[tuple[str, ...], ...] = ()
    min_size: int = SMALLEST_TABLE
    max_size: int = LARGEST_TABLE
    preferred_size: int | None = None
    exact_limit: int = EXACT_LIMIT


@dataclass(frozen=True)
class SwissRound:
    """The pairing: tables (top table first; seats[0] opens), byes, and its quality."""

    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    repeat_pairs: tuple[Pair, ...]
    score_spread: float
    exact: bool

    @property
    def repeat_meetings(self) -> int:
        return len(self.repeat_pairs)


def choose_byes(players: Sequence[SwissPlayer], count: int) -> tuple[str, ...]:
    """`count` byes: fewest byes so far first, then the lowest-ranked."""
    ranked = list(enumerate(players))
    ranked.sort(key=lambda ip: (ip[1].byes, -ip[0]))
    return tuple(p.id for _, p in ranked[:count])


def pair_swiss_round(request: SwissRequest) -> SwissRound:
    check_size_limits(request.min_size, request.max_size)
    players = list(request.players)
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise CompetitionError("entry-duplicate", "an entry is listed once")
    seated_count = seatable(len(players), request.min_size, request.max_size)
    byes = choose_byes(players, len(players) - seated_count)
    bye_set = set(byes)
    rank = {p.id: i for i, p in enumerate(players)}
    seated = sorted((p for p in players if p.id not in bye_set), key=lambda p: (-p.score, rank[p.id]))
    if not seated:
        return SwissRound((), byes, (), 0.0, True)
    sizes = table_sizes(len(seated), request.min_size, request.max_size, request.preferred_size)
    met_by_id = opponents(request.previous_tables)
    index = {p.id: i for i, p in enumerate(seated)}
    met = [{index[o] for o in met_by_id.get(p.id, ()) if o in index} for p in seated]
    scores = [p.score for p in seated]
    exact = len(seated) <= request.exact_limit
    groups = _exhaustive(sizes, met, scores) if exact else _heuristic(sizes, met, scores)
    groups.sort(key=lambda g: min(g))
    opened = {p.id: p.opened for p in seated}
    tables = tuple(
        Table(n, open_least_opened([seated[i].id for i in sorted(group)], opened))
        for n, group in enumerate(groups, start=1)
    )
    spread = sum(max(scores[i] for i in g) - min(scores[i] for i in g) for g in groups)
    return SwissRound(
        tables=tables,
        byes=byes,
        repeat_pairs=repeat_pairs((t.seats for t in tables), met_by_id),
        score_spread=spread,
        exact=exact,
    )


def _conflicts(i: int, members: list[int], met: list[set[int]], skip: int = -1) -> int:
    mine = met[i]
    return sum(1 for j in members if j != i and j != skip and j in mine)


def _heuristic(sizes: Sequence[int], met: list[set[int]], scores: list[float]) -> list[list[int]]:
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    where = [0] * start
    for t, members in enumerate(tables):
        for i in members:
            where[i] = t
    count = len(tables)
    for _ in range(50):
        improved = False
        for i in range(start):
            t = where[i]
            here = _conflicts(i, tables[t], met)
            if here == 0:
                continue
            best: tuple[int, float, int, int] | None = None  # (delta, score gap, table, partner or -1)
            for distance in range(1, count):
                for t2 in (t - distance, t + distance):
                    if not 0 <= t2 < count:
                        continue
                    there = tables[t2]
                    if len(there) == len(tables[t]) - 1:
                        delta = _conflicts(i, there, met) - here
                        if delta < 0 and (best is None or (delta, 0.0) < best[:2]):
                            best = (delta, 0.0, t2, -1)
                    for j in there:
                        delta = (
                            _conflicts(i, there, met, skip=j)
                            + _conflicts(j, tables[t], met, skip=i)
                            - here
                            - _conflicts(j, there, met)
                        )
                        if delta < 0:
                            gap = abs(scores[i] - scores[j])
                            if best is None or (delta, gap) < best[:2]:
                                best = (delta, gap, t2, j)
                if best is not None:
                    break
            if best is None:
                continue
            _, _, t2, j = best
            tables[t].remove(i)
            tables[t2].append(i)
            where[i] = t2
            if j >= 0:
                tables[t2].remove(j)
                tables[t].append(j)
                where[j] = t
            improved = True
        if not improved:
            break
    return tables


def _exhaustive(sizes: Sequence[int], met: list[set[int]], scores: list[float]) -> list[list[int]]:
    """Branch and bound over every split into tables of `sizes`: fewest repeats, then the
    smallest score spread; the first found (closest to the ranking order) wins ties."""
    n = sum(sizes)
    remaining_sizes = sorted(sizes, reverse=True)
    best_cost: list[tuple[int, float]] = [(n * n, float("inf"))]
    best_split: list[list[list[int]]] = [[]]
    chosen: list[list[int]] = []

    def search(free: list[int], size_pool: list[int], repeats: int, spread: float) -> None:
        if (repeats, spread) >= best_cost[0]:
            return
        if not free:
            best_cost[0] = (repeats, spread)
            best_split[0] = [list(g) for g in chosen]
            return
        first, rest = free[0], free[1:]
        for size in sorted(set(size_pool), reverse=True):
            pool = list(size_pool)
            pool.remove(size)
            for others in combinations(rest, size - 1):
                group = [first, *others]
                added = sum(1 for a, b in combinations(group, 2) if b in met[a])
                gap = max(scores[g] for g in group) - min(scores[g] for g in group)
                chosen.append(group)
                search([f for f in rest if f not in others], pool, repeats + added, spread + gap)
                chosen.pop()

    search(list(range(n)), remaining_sizes, 0, 0.0)
    return best_split[0]
