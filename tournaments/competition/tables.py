"""Tables: how many and how big, snake seating, balancing as entries drop, who opens.

A bidding game (Dudo/Cacho) or an Alalay match is played at a table of 2 to 6. Tables of a
round differ in size by at most one. `seats[0]` of a table is the entry that opens
(plays the first turn); the others follow in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.competition.errors import CompetitionError

SMALLEST_TABLE = 2
LARGEST_TABLE = 6


@dataclass(frozen=True)
class Table:
    """A table of a round: `number` from 1, `seats` in turn order (`seats[0]` opens)."""

    number: int
    seats: tuple[str, ...]

    @property
    def opener(self) -> str:
        return self.seats[0]

    @property
    def size(self) -> int:
        return len(self.seats)


def check_size_limits(min_size: int, max_size: int) -> None:
    if not SMALLEST_TABLE <= min_size <= max_size <= LARGEST_TABLE:
        raise CompetitionError(
            "table-size-limits", f"tables seat {SMALLEST_TABLE} to {LARGEST_TABLE}, min ≤ max"
        )


def _fits(n: int, tables: int, min_size: int, max_size: int) -> bool:
    return tables * min_size <= n <= tables * max_size


def seatable(n: int, min_size: int = SMALLEST_TABLE, max_size: int = LARGEST_TABLE) -> int:
    """The largest m ≤ n that splits into tables of min_size..max_size (0 when none does)."""
    check_size_limits(min_size, max_size)
    for m in range(n, 0, -1):
        if any(_fits(m, t, min_size, max_size) for t in range(-(-m // max_size), m // min_size + 1)):
            return m
    return 0


def table_sizes(
    n: int, min_size: int = SMALLEST_TABLE, max_size: int = LARGEST_TABLE, preferred: int | None = None
) -> tuple[int, ...]:
    """Sizes (largest first) of tables seating exactly n entries, differing by at most one.

    The number of tables is the one whose average size is nearest `preferred` (default:
    `max_size`, the fewest tables); equally near, the fewer tables.
    """
    check_size_limits(min_size, max_size)
    if n <= 0:
        return ()
    target = max_size if preferred is None else preferred
    candidates = [t for t in range(-(-n // max_size), n // min_size + 1) if _fits(n, t, min_size, max_size)]
    if not candidates:
        raise CompetitionError("not-seatable", f"{n} entries do not fit tables of {min_size}–{max_size}")
    count = min(candidates, key=lambda t: (abs(n - target * t) / t, t))
    base, extra = divmod(n, count)
    return tuple(base + 1 if i < extra else base for i in range(count))


def deal(ordered_ids: Sequence[str], sizes: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    """Consecutive blocks of the order: the first `sizes[0]` ids at table 1, and so on."""
    if sum(sizes) != len(ordered_ids):
        raise CompetitionError("sizes-mismatch", "table sizes add up to the number of entries")
    out: list[tuple[str, ...]] = []
    start = 0
    for size in sizes:
        out.append(tuple(ordered_ids[start : start + size]))
        start += size
    return tuple(out)


def snake(ordered_ids: Sequence[str], sizes: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    """Snake seeding: seeds 1..t across tables 1..t, the next t back from t to 1, and so on;
    a table that is full is skipped. Top seeds end up at different tables."""
    if sum(sizes) != len(ordered_ids):
        raise CompetitionError("sizes-mismatch", "table sizes add up to the number of entries")
    seats: list[list[str]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    forward = True
    ids = iter(ordered_ids)
    remaining = len(ordered_ids)
    while remaining:
        for t in order if forward else reversed(order):
            if len(seats[t]) < sizes[t] and remaining:
                seats[t].append(next(ids))
                remaining -= 1
        forward = not forward
    return tuple(tuple(s) for s in seats)


def number_tables(groups: Sequence[Sequence[str]], first: int = 1) -> tuple[Table, ...]:
    return tuple(Table(first + i, tuple(g)) for i, g in enumerate(groups))


def open_least_opened(seats: Sequence[str], opened: Mapping[str, int]) -> tuple[str, ...]:
    """The seats rotated (cyclic order kept) so that the entry that opened least opens;
    equal counts, the earliest seat."""
    if not seats:
        return ()
    start = min(range(len(seats)), key=lambda i: (opened.get(seats[i], 0), i))
    return tuple(seats[start:]) + tuple(seats[:start])


def rotate_opener(seats: Sequence[str], round_number: int) -> tuple[str, ...]:
    """Round r of a fixed table: seat (r-1) mod n opens, so first turns go round the table."""
    if not seats:
        return ()
    start = (round_number - 1) % len(seats)
    return tuple(seats[start:]) + tuple(seats[:start])


def count_openers(tables: Sequence[Table], opened: Mapping[str, int] | None = None) -> dict[str, int]:
    """Opening counts after these tables (added to `opened`)."""
    out = dict(opened or {})
    for table in tables:
        if table.seats:
            out[table.opener] = out.get(table.opener, 0) + 1
    return out


@dataclass(frozen=True)
class Move:
    """`entry_id` leaves table `from_table` for table `to_table`."""

    entry_id: str
    from_table: int
    to_table: int


@dataclass(frozen=True)
class Balance:
    """Tables after balancing, the moves that got there and the tables broken up."""

    tables: tuple[Table, ...]
    moves: tuple[Move, ...]
    broken: tuple[int, ...]

    @property
    def is_final_table(self) -> bool:
        return len(self.tables) == 1


def balance_tables(tables: Sequence[Table], max_size: int = LARGEST_TABLE) -> Balance:
    """Poker-style balancing for elimination by tables, after some entries dropped out.

    While fewer tables can seat everyone (⌈n / max_size⌉), the smallest table (equal sizes:
    the highest number) is broken and its entries, in seat order, each go to the then
    smallest table (equal sizes: the lowest number). Then, while sizes differ by more than
    one, the last seat of the largest table (equal: the highest number) moves to the
    smallest (equal: the lowest number). Moved entries sit at the end of their new table.
    When everyone fits one table, that is the final table.
    """
    check_size_limits(SMALLEST_TABLE, max_size)
    numbers = [t.number for t in tables]
    if len(set(numbers)) != len(numbers):
        raise CompetitionError("table-number-duplicate", "table numbers are distinct")
    everyone = [s for t in tables for s in t.seats]
    if len(set(everyone)) != len(everyone):
        raise CompetitionError("seated-twice", "an entry sits at one table")
    n = len(everyone)
    target = max(1, -(-n // max_size))
    if target > len(tables):
        raise CompetitionError("not-enough-tables", f"{n} entries need {target} tables of {max_size}")
    seats: dict[int, list[str]] = {t.number: list(t.seats) for t in tables}
    moves: list[Move] = []
    broken: list[int] = []

    def smallest() -> int:
        return min(seats, key=lambda k: (len(seats[k]), k))

    while len(seats) > target:
        gone = min(seats, key=lambda k: (len(seats[k]), -k))
        leaving = seats.pop(gone)
        broken.append(gone)
        for entry_id in leaving:
            to = smallest()
            seats[to].append(entry_id)
            moves.append(Move(entry_id, gone, to))
    while True:
        largest = max(seats, key=lambda k: (len(seats[k]), k))
        low = smallest()
        if len(seats[largest]) - len(seats[low]) <= 1:
            break
        entry_id = seats[largest].pop()
        seats[low].append(entry_id)
        moves.append(Move(entry_id, largest, low))
    return Balance(
        tables=tuple(Table(k, tuple(seats[k])) for k in sorted(seats)),
        moves=tuple(moves),
        broken=tuple(broken),
    )
