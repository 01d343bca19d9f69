"""Swiss rounds for tables of 2 to 6: score groups, minimal repeat meetings, fair byes and openers.

A round of a Swiss stage seats every entry (except byes) at tables whose sizes differ by at
most one. The order of wishes:

1. byes only when the field does not split into legal tables (1-v-1 with an odd count,
   or fewer entries left than a table's minimum); a bye goes to the lowest-ranked entry
   with the fewest byes so far (so: the lowest-ranked without a bye yet);
2. as few repeat meetings as possible (pairs of entries seated together that already
   shared a table);
3. tables drawn from the same score group: the smallest score spread (the sum over tables
   of the highest score minus the lowest);
4. the ranking order: entries are sorted by score (the given ranking breaks ties) and the
   top table seats the best-ranked entries;
5. the entry that opened least opens its table (equal: the higher-ranked).

Three searches, by the shape of the round:

* **1-v-1** (every table of 2): a maximum-weight matching (the blossom algorithm of
  networkx, maximum cardinality). An edge's weight puts the three wishes on separate integer
  scales, so that a new meeting outweighs any sum of the lower wishes: repeats are
  minimal (a repeat only when no repeat-free pairing exists), then the score spread, then
  the squared rank distance (top against next). Pairing top against next is optimal for
  the lower wishes, so only the stretches of the ranking (about 20 entries) where it
  would repeat are matched, each on its own; a stretch that cannot avoid a repeat joins
  its neighbours, up to the whole field (which then proves the repeats unavoidable).
* **Tables of 3–6 with at most `exact_limit` (12) seated entries**: branch and bound over
  every split; the result is the exhaustive optimum of wishes 2–4.
* **Larger fields**: deal by score, a descent that moves and swaps entries out of
  repeats (nearest tables first), then, while the repeats stay above the lower bound, a
  simulated annealing over swaps and moves with a fixed-seed generator of its own (the
  same input always gives the same seating), and a last descent on the score spread
  that never adds a repeat.

`SwissRound.lower_bound` is a number of repeats no seating of the round can go below.
For 1-v-1 rounds and small fields it is the repeats found, which are the minimum there
(a 1-v-1 round repeats only after matching its whole field). Otherwise it is the larger
of two bounds on the meeting graph:

* cliques: every earlier table is a set of entries who all met. Seating k of them at
  tables of the round's sizes puts at least f(k) pairs of them together, f(k) being the
  repeats of the most even spread (fill the tables level by level: each seat on level L
  adds L-1 pairs, and that is the cheapest order because the cost of a table grows
  convexly). Earlier tables that share no pair have disjoint sets of repeat pairs, so
  their f add up: the bound sums f over a greedy set of pairwise edge-disjoint earlier
  tables, largest f first;
* entries: an entry seated at a table of the smallest size s still meets s-1 others; if
  only u of the seated entries are new to it, it repeats at least s-1-u pairs; each
  repeat pair counts for two entries, so half the sum (rounded up) is a bound.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from tournaments.competition.errors import CompetitionError
from tournaments.competition.meetings import Pair, opponents, repeat_pairs
from tournaments.competition.swiss_local_search import local_search
from tournaments.competition.swiss_one_v_one import one_v_one
from tournaments.competition.tables import (
    LARGEST_TABLE,
    SMALLEST_TABLE,
    Table,
    check_size_limits,
    open_least_opened,
    seatable,
    table_sizes,
)

EXACT_LIMIT = 12


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
    """The pairing: tables (top table first; seats[0] opens), byes, and its quality.

    `exact`: the seating is the optimum of the wishes (exhaustive search, or a matching of
    the whole 1-v-1 field). `lower_bound`: no seating of this round has fewer repeat
    meetings; `repeat_meetings == lower_bound` proves the repeats minimal."""

    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    repeat_pairs: tuple[Pair, ...]
    score_spread: float
    exact: bool
    lower_bound: int = 0

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
    units = _score_units([p.score for p in seated])
    if max(sizes) == 2:
        groups, exact = one_v_one(met, units)
        bound = -1  # the matching's repeats are the minimum (see one_v_one)
    elif len(seated) <= request.exact_limit:
        groups, exact, bound = _exhaustive(sizes, met, units), True, -1
    else:
        earlier = [[index[e] for e in t if e in index] for t in request.previous_tables]
        bound = repeat_lower_bound(sizes, met, earlier)
        groups, exact = local_search(sizes, met, units, bound), False
    groups.sort(key=min)
    opened = {p.id: p.opened for p in seated}
    tables = tuple(
        Table(n, open_least_opened([seated[i].id for i in sorted(group)], opened))
        for n, group in enumerate(groups, start=1)
    )
    repeats = repeat_pairs((t.seats for t in tables), met_by_id)
    scores = [p.score for p in seated]
    spread = sum(max(scores[i] for i in g) - min(scores[i] for i in g) for g in groups)
    return SwissRound(
        tables=tables,
        byes=byes,
        repeat_pairs=repeats,
        score_spread=spread,
        exact=exact,
        lower_bound=len(repeats) if bound < 0 else bound,
    )


def _score_units(scores: Sequence[float]) -> list[int]:
    """Scores as integers on one exact scale (a float is a binary fraction), so that sums
    of score differences compare exactly whatever order they are added in."""
    exact = [Fraction(s) for s in scores]
    scale = math.lcm(*(f.denominator for f in exact))
    return [int(f * scale) for f in exact]


# ---------------------------------------------------------------- lower bound


def repeat_lower_bound(
    sizes: Sequence[int], met: Sequence[set[int]], earlier: Sequence[Sequence[int]]
) -> int:
    """Repeats that any split of the entries 0..n-1 into tables of `sizes` makes, at least
    (module docstring: the clique bound and the entry bound, the larger of the two).
    `met[i]`: the entries i already met; `earlier`: earlier tables (entries who all met)."""
    n = sum(sizes)
    smallest = min(sizes)
    forced = sum(max(0, smallest - 1 - (n - 1 - len(met[i]))) for i in range(n))
    by_entry = (forced + 1) // 2
    cliques = sorted(
        ((_spread_evenly(len(t), sizes), k) for k, t in enumerate(earlier) if len(t) > 1),
        key=lambda fk: (-fk[0], fk[1]),
    )
    used: set[tuple[int, int]] = set()
    by_cliques = 0
    for forced_here, k in cliques:
        if forced_here == 0:
            break
        pairs = {(a, b) if a < b else (b, a) for a, b in combinations(earlier[k], 2)}
        if pairs.isdisjoint(used):
            used |= pairs
            by_cliques += forced_here
    return max(by_entry, by_cliques)


def _spread_evenly(k: int, sizes: Sequence[int]) -> int:
    """The fewest pairs that k entries make when seated at tables of `sizes`."""
    pairs, level = 0, 1
    while k > 0:
        room = sum(1 for s in sizes if s >= level)
        if room == 0:
            break
        seated = min(room, k)
        pairs += seated * (level - 1)
        k -= seated
        level += 1
    return pairs


# ---------------------------------------------------------------- exhaustive


def _exhaustive(sizes: Sequence[int], met: list[set[int]], units: list[int]) -> list[list[int]]:
    """Branch and bound over every split into tables of `sizes`: fewest repeats, then the
    smallest score spread, then the first in this order: the best-ranked free entry's table
    as large as possible, then with the best-ranked others (lexicographically), and so on.

    Entries are sorted best first, so a table's spread is its first entry's score minus
    its last one's. A branch stops as soon as its repeats and spread so far reach the best
    complete split's (equal does not win: the first found keeps the tie)."""
    n = sum(sizes)
    masks = [sum(1 << j for j in met[i]) for i in range(n)]
    best: list[tuple[int, int]] = [(n * n, 0)]
    best_split: list[list[list[int]]] = [[]]
    chosen: list[list[int]] = []

    def search(free: list[int], pool: list[int], repeats: int, spread: int) -> None:
        if (repeats, spread) >= best[0]:
            return
        if not free:
            best[0] = (repeats, spread)
            best_split[0] = [list(g) for g in chosen]
            return
        first, rest = free[0], free[1:]
        for size in sorted(set(pool), reverse=True):
            left = list(pool)
            left.remove(size)
            for others in combinations(rest, size - 1):
                group = [first, *others]
                group_mask = sum(1 << g for g in group)
                added = sum((masks[g] & group_mask).bit_count() for g in group) // 2
                gap = units[first] - units[group[-1]]
                chosen.append(group)
                search([f for f in rest if f not in others], left, repeats + added, spread + gap)
                chosen.pop()

    search(list(range(n)), sorted(sizes, reverse=True), 0, 0)
    return best_split[0]
