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
# 1-v-1: entries per stretch of the ranking matched at once (an even number).
MATCH_CHUNK = 20
# Simulated annealing: proposed moves at most, and its generator's seed.
ANNEALING_MOVES = 20_000
ANNEALING_PATIENCE = 5_000
ANNEALING_SEED = 0x5EED_CAC0
# Larger fields: the annealing and the spread descent look this many tables up and down.
NEAR_TABLES = 3


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
        groups, exact = _one_v_one(met, units)
        bound = -1  # the matching's repeats are the minimum (see _one_v_one)
    elif len(seated) <= request.exact_limit:
        groups, exact, bound = _exhaustive(sizes, met, units), True, -1
    else:
        earlier = [[index[e] for e in t if e in index] for t in request.previous_tables]
        bound = repeat_lower_bound(sizes, met, earlier)
        groups, exact = _local_search(sizes, met, units, bound), False
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


# ---------------------------------------------------------------- 1-v-1


def _one_v_one(met: list[set[int]], units: list[int]) -> tuple[list[list[int]], bool]:
    """Pairs of entries (sorted best first) by maximum-weight matching; exact when one
    matching covers the whole field (or top against next repeats nobody).

    Top against next (0-1, 2-3, ...) has the smallest score spread and rank distance of
    all pairings, so a stretch of the ranking where it repeats nobody keeps it. The
    ranking is cut into stretches of about MATCH_CHUNK entries (an even count each,
    preferably where the score changes); a stretch where top against next would repeat
    is matched on its own, and a stretch whose matching still repeats is joined with its
    neighbours and matched again, up to the whole field, where the matching's repeats
    are the minimum. Stretches bound the matching's cost (cubic in its size)."""
    n = len(units)
    if all(2 * k + 1 not in met[2 * k] for k in range(n // 2)):
        return [[i, i + 1] for i in range(0, n, 2)], True
    cuts = _cuts(units)
    while True:
        pairs: list[list[int]] = []
        failing: list[int] = []
        for k in range(len(cuts) - 1):
            lo, hi = cuts[k], cuts[k + 1]
            if all(i + 1 not in met[i] for i in range(lo, hi, 2)):
                pairs.extend([i, i + 1] for i in range(lo, hi, 2))
                continue
            matched = _match((lo, hi), met, units)
            pairs.extend(matched)
            if any(b in met[a] for a, b in matched):
                failing.append(k)
        if not failing or len(cuts) == 2:
            return pairs, len(cuts) == 2
        # A stretch that cannot avoid a repeat loses its two cuts: it joins both neighbours.
        dropped = {c for k in failing for c in (k, k + 1)} - {0, len(cuts) - 1}
        cuts = [c for k, c in enumerate(cuts) if k not in dropped]


def _cuts(units: list[int]) -> list[int]:
    """Even positions that cut the ranking into stretches of MATCH_CHUNK/2 to 3·MATCH_CHUNK/2
    entries, each cut where the score changes if one is near (a pair across a score
    change costs spread anyway), the first 0 and the last n."""
    n = len(units)
    cuts = [0]
    while n - cuts[-1] > MATCH_CHUNK + MATCH_CHUNK // 2:
        aim = cuts[-1] + MATCH_CHUNK
        near = [
            p
            for p in range(aim - MATCH_CHUNK // 2, aim + MATCH_CHUNK // 2 + 1, 2)
            if units[p - 1] != units[p]
        ]
        cuts.append(min(near, key=lambda p: (abs(p - aim), p)) if near else aim)
    cuts.append(n)
    return cuts


def _match(window: tuple[int, int], met: list[set[int]], units: list[int]) -> list[list[int]]:
    """The best perfect matching of entries lo..hi-1 (an even count) on the complete graph.

    Weight of a pair: A·new + B·(gap_max - gap) + (d_max - d²), d the rank distance. The
    rank term of a whole matching stays below B and the spread term below A, so the
    matching compares by new meetings, then spread, then rank distance, exactly."""
    lo, hi = window
    half = (hi - lo) // 2
    d_max = (hi - lo - 1) ** 2
    gap_max = units[lo] - units[hi - 1]
    b = half * d_max + 1
    a = b * (half * gap_max + 1)
    # Imported here: networkx is a fifth of the import time of every server, worker and
    # manage.py, and only a Swiss pairing uses it.
    import networkx as nx

    graph = nx.Graph()
    for i in range(lo, hi):
        for j in range(i + 1, hi):
            new = 0 if j in met[i] else 1
            weight = a * new + b * (gap_max - (units[i] - units[j])) + d_max - (j - i) ** 2
            graph.add_edge(i, j, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted(sorted(p) for p in matching)


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


# ---------------------------------------------------------------- local search


class _Stream:
    """xorshift64*: a small generator of the annealing's choices, seeded by a constant so
    that the core stays deterministic (no global or time-seeded randomness)."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = (seed & self.MASK) or 1

    def next(self) -> int:
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & self.MASK
        x ^= x >> 27
        self.state = x
        return ((x * 0x2545F4914F6CDD1D) & self.MASK) >> 11

    def below(self, k: int) -> int:
        return self.next() % k

    def unit(self) -> float:
        return self.next() / float(1 << 53)


class _Seating:
    """Tables with each entry's repeats at its table, kept as bit sets (bit j of `met[i]`:
    i met j; of `members[t]`: j sits at table t), so that the change a move or a swap makes
    to the repeats costs a few integer operations, and to the spread O(table size)."""

    def __init__(self, groups: list[list[int]], met: list[set[int]], units: list[int]) -> None:
        self.tables = groups
        self.met = [sum(1 << j for j in mine) for mine in met]
        self.units = units
        self.where = [0] * len(units)
        self.members = [sum(1 << i for i in g) for g in groups]
        for t, group in enumerate(groups):
            for i in group:
                self.where[i] = t
        self.clash = [(self.met[i] & self.members[self.where[i]]).bit_count() for i in range(len(units))]
        self.gaps = [self.gap(g) for g in groups]
        self.repeats = sum(self.clash) // 2
        self.spread = sum(self.gaps)

    def gap(self, group: Sequence[int]) -> int:
        u = self.units
        return max(u[i] for i in group) - min(u[i] for i in group)

    def swap_repeats(self, i: int, j: int) -> int:
        """Change in repeats if i and j (at different tables) trade seats; i-j is no pair
        before or after, so j's bit is simply cleared from i's new table, and i's from j's."""
        a, b = self.members[self.where[i]], self.members[self.where[j]]
        met = self.met
        after = (met[i] & b & ~(1 << j)).bit_count() + (met[j] & a & ~(1 << i)).bit_count()
        return after - self.clash[i] - self.clash[j]

    def move_repeats(self, i: int, t: int) -> int:
        """Change in repeats if i leaves its table for table t."""
        return (self.met[i] & self.members[t]).bit_count() - self.clash[i]

    def swap_spread(self, i: int, j: int) -> int:
        a, b = self.where[i], self.where[j]
        u = self.units
        after_a = [u[k] for k in self.tables[a] if k != i]
        after_a.append(u[j])
        after_b = [u[k] for k in self.tables[b] if k != j]
        after_b.append(u[i])
        return max(after_a) - min(after_a) + max(after_b) - min(after_b) - self.gaps[a] - self.gaps[b]

    def move_spread(self, i: int, t: int) -> int:
        a = self.where[i]
        u = self.units
        after_a = [u[k] for k in self.tables[a] if k != i]
        after_b = [u[k] for k in self.tables[t]]
        after_b.append(u[i])
        return max(after_a) - min(after_a) + max(after_b) - min(after_b) - self.gaps[a] - self.gaps[t]

    def swap_delta(self, i: int, j: int) -> tuple[int, int]:
        """(repeats, spread) change if i and j trade seats."""
        return self.swap_repeats(i, j), self.swap_spread(i, j)

    def move_delta(self, i: int, t: int) -> tuple[int, int]:
        """(repeats, spread) change if i moves to table t."""
        return self.move_repeats(i, t), self.move_spread(i, t)

    def relocate(self, i: int, t: int) -> None:
        source = self.where[i]
        bit = 1 << i
        self.members[source] &= ~bit
        self.members[t] |= bit
        self.tables[source].remove(i)
        self.tables[t].append(i)
        self.where[i] = t
        for table in (source, t):
            members = self.members[table]
            for k in self.tables[table]:
                self.clash[k] = (self.met[k] & members).bit_count()
            self.gaps[table] = self.gap(self.tables[table])

    def apply_move(self, i: int, t: int, delta: tuple[int, int]) -> None:
        self.relocate(i, t)
        self.repeats += delta[0]
        self.spread += delta[1]

    def apply_swap(self, i: int, j: int, delta: tuple[int, int]) -> None:
        a, b = self.where[i], self.where[j]
        self.relocate(i, b)
        self.relocate(j, a)
        self.repeats += delta[0]
        self.spread += delta[1]

    def can_move(self, i: int, t: int) -> bool:
        """Sizes keep differing by at most one: only from a larger table to a smaller."""
        return len(self.tables[t]) == len(self.tables[self.where[i]]) - 1

    def snapshot(self) -> list[list[int]]:
        return [list(g) for g in self.tables]


def _local_search(sizes: Sequence[int], met: list[set[int]], units: list[int], bound: int) -> list[list[int]]:
    groups: list[list[int]] = []
    start = 0
    for size in sizes:
        groups.append(list(range(start, start + size)))
        start += size
    dealt = [set(g) for g in groups]
    seating = _Seating(groups, met, units)
    if len(groups) < 2:
        return groups
    _repair(seating)
    if seating.repeats > bound:
        seating = _Seating(_anneal(seating, bound), met, units)
    # The deal seats runs of the ranking (narrow score groups already): only tables that
    # changed since are worth narrowing.
    _tighten(seating, {t for t, g in enumerate(seating.tables) if set(g) != dealt[t]})
    return seating.tables


def _repair(seating: _Seating) -> None:
    """Descent on repeats: each entry with a repeat takes the best move or swap that lowers
    the repeats, from the nearest tables that have one (the nearest score groups), the
    smaller spread breaking ties."""
    count = len(seating.tables)
    for _ in range(50):
        improved = False
        for i in range(len(seating.units)):
            if seating.clash[i] == 0:
                continue
            t = seating.where[i]
            best: tuple[tuple[int, int], int, int] | None = None  # (delta, table, partner or -1)
            for distance in range(1, count):
                for t2 in (t - distance, t + distance):
                    if not 0 <= t2 < count:
                        continue
                    if seating.can_move(i, t2):
                        delta = seating.move_delta(i, t2)
                        if delta[0] < 0 and (best is None or delta < best[0]):
                            best = (delta, t2, -1)
                    for j in seating.tables[t2]:
                        delta = seating.swap_delta(i, j)
                        if delta[0] < 0 and (best is None or delta < best[0]):
                            best = (delta, t2, j)
                if best is not None:
                    break
            if best is None:
                continue
            delta, t2, j = best
            if j < 0:
                seating.apply_move(i, t2, delta)
            else:
                seating.apply_swap(i, j, delta)
            improved = True
        if not improved:
            break


def _anneal(seating: _Seating, bound: int) -> list[list[int]]:
    """Simulated annealing on repeats (the spread, scaled below one repeat, breaks ties):
    an entry with a repeat swaps with, or moves to, an entry of another table; worse
    seatings are taken with probability exp(-Δ/temperature), the temperature cooling
    geometrically. Stops at the lower bound. Returns the best seating seen."""
    stream = _Stream(ANNEALING_SEED)
    count = len(seating.tables)
    n = len(seating.units)
    scale = 1.0 / (count * (seating.units[0] - seating.units[-1]) + 1)
    best = (seating.repeats, seating.spread)
    best_tables = seating.snapshot()
    hot, cold = 0.6, 0.05
    cooling = (cold / hot) ** (1.0 / ANNEALING_MOVES)
    temperature = hot
    reach = count if count <= 2 * NEAR_TABLES + 1 else NEAR_TABLES
    restless = [i for i in range(n) if seating.clash[i]]
    found = 0
    for step in range(ANNEALING_MOVES):
        temperature *= cooling
        if step - found > ANNEALING_PATIENCE:
            break
        if step % 64 == 0:
            restless = [i for i in range(n) if seating.clash[i]]
            if not restless:
                break
        # One draw picks the entry, the other table, the seat there and move or swap.
        pick = stream.next()
        i = restless[pick % len(restless)]
        pick //= len(restless)
        t = seating.where[i]
        if reach == count:
            t2 = pick % (count - 1)
            t2 += t2 >= t
            pick //= count - 1
        else:
            side, pick = pick & 1, pick >> 1
            t2 = t + (pick % reach + 1) * (1 if side else -1)
            pick //= reach
            if not 0 <= t2 < count:
                continue
        there = seating.tables[t2]
        movable = seating.can_move(i, t2)
        seat = pick % (len(there) + movable)
        moving = seat == len(there)
        j = -1 if moving else there[seat]
        repeats = seating.move_repeats(i, t2) if moving else seating.swap_repeats(i, j)
        # Metropolis: take the change when its energy is below -T·ln(u). The spread's part
        # lies in (-1, 1), so a change in repeats alone decides most draws.
        threshold = -temperature * math.log(1.0 - stream.unit())
        if repeats - 1 >= threshold:
            continue
        spread = seating.move_spread(i, t2) if moving else seating.swap_spread(i, j)
        if repeats + spread * scale >= threshold and (repeats, spread) > (0, 0):
            continue
        if moving:
            seating.apply_move(i, t2, (repeats, spread))
        else:
            seating.apply_swap(i, j, (repeats, spread))
        if (seating.repeats, seating.spread) < best:
            best = (seating.repeats, seating.spread)
            best_tables = seating.snapshot()
            found = step
            if seating.repeats <= bound:
                break
    return best_tables


def _tighten(seating: _Seating, changed: set[int]) -> None:
    """Descent on (repeats, spread) over swaps and moves between tables at most NEAR_TABLES
    apart (any two tables of a small field), one of them `changed` since the deal or in
    the previous pass: narrows the score groups that the repairs and the annealing
    widened, never adding a repeat."""
    count = len(seating.tables)
    reach = count if count <= 2 * NEAR_TABLES + 1 else NEAR_TABLES
    for _ in range(50):
        if not changed:
            break
        touched: set[int] = set()
        for t in range(count):
            for t2 in range(t + 1, min(count, t + reach + 1)):
                if t not in changed and t2 not in changed:
                    continue
                for i in list(seating.tables[t]):
                    best: tuple[tuple[int, int], int] | None = None
                    for j in seating.tables[t2]:
                        repeats = seating.swap_repeats(i, j)
                        if repeats > 0:  # a worse swap whatever the spread: skip its cost
                            continue
                        delta = (repeats, seating.swap_spread(i, j))
                        if delta < (0, 0) and (best is None or delta < best[0]):
                            best = (delta, j)
                    if best is not None:
                        seating.apply_swap(i, best[1], best[0])
                        touched |= {t, t2}
                for source, target in ((t, t2), (t2, t)):
                    for k in list(seating.tables[source]):
                        if seating.can_move(k, target):
                            delta = seating.move_delta(k, target)
                            if delta < (0, 0):
                                seating.apply_move(k, target, delta)
                                touched |= {t, t2}
        changed = touched
