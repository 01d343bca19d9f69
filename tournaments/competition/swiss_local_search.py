"""Swiss rounds of larger fields (tables of 3-6 beyond the exhaustive limit): a deal by score,
a descent out of repeats, a fixed-seed simulated annealing while the repeats stay above the
lower bound, and a last descent on the score spread (tournaments.competition.swiss)."""

from __future__ import annotations

import math
from collections.abc import Sequence

# Simulated annealing: proposed moves at most, and its generator's seed.
ANNEALING_MOVES = 20_000
ANNEALING_PATIENCE = 5_000
ANNEALING_SEED = 0x5EED_CAC0
# Larger fields: the annealing and the spread descent look this many tables up and down.
NEAR_TABLES = 3


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


def local_search(sizes: Sequence[int], met: list[set[int]], units: list[int], bound: int) -> list[list[int]]:
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
