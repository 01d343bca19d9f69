"""Round robin (all play all) in groups: 1-v-1 by the circle method, tables of k by a greedy cover.

Groups are formed by snake seeding so that top seeds land in different groups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.competition.errors import CompetitionError
from tournaments.competition.meetings import Pair, pair, pair_counts
from tournaments.competition.swiss import SwissPlayer, SwissRequest, pair_swiss_round
from tournaments.competition.tables import (
    LARGEST_TABLE,
    SMALLEST_TABLE,
    Table,
    count_openers,
    open_least_opened,
    snake,
    table_sizes,
)


@dataclass(frozen=True)
class Round:
    """One round of a schedule: its tables (seats[0] opens) and the entries sitting out."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()


def make_groups(ordered_ids: Sequence[str], group_count: int) -> tuple[tuple[str, ...], ...]:
    """`group_count` groups, sizes differing by at most one, filled by snake seeding."""
    if group_count < 1 or group_count > len(ordered_ids):
        raise CompetitionError("group-count", "between one group and one entry per group")
    if len(set(ordered_ids)) != len(ordered_ids):
        raise CompetitionError("entry-duplicate", "an entry is in one group")
    base, extra = divmod(len(ordered_ids), group_count)
    sizes = [base + 1 if i < extra else base for i in range(group_count)]
    return snake(ordered_ids, sizes)


def circle_schedule(entry_ids: Sequence[str]) -> tuple[Round, ...]:
    """1-v-1 round robin by the circle method: n-1 rounds (n rounds when n is odd, with one
    bye a round). Every pair meets exactly once; each entry opens (plays first) in half of
    its matches, give or take one."""
    ids = list(entry_ids)
    if len(set(ids)) != len(ids):
        raise CompetitionError("entry-duplicate", "an entry is listed once")
    if len(ids) < 2:
        return ()
    slots: list[str | None] = [None, *ids] if len(ids) % 2 else list(ids)
    n = len(slots)
    fixed, rest = slots[0], slots[1:]
    rounds: list[Round] = []
    for r in range(n - 1):
        shift = r % (n - 1)
        line = [fixed, *(rest[-shift:] + rest[:-shift] if shift else rest)]
        tables: list[Table] = []
        byes: list[str] = []
        for i in range(n // 2):
            home, away = line[i], line[n - 1 - i]
            if i == 0 and r % 2:
                home, away = away, home
            if home is None or away is None:
                byes.extend(x for x in (home, away) if x is not None)
                continue
            tables.append(Table(len(tables) + 1, (home, away)))
        rounds.append(Round(r + 1, tuple(tables), tuple(byes)))
    return tuple(rounds)


def table_schedule(
    entry_ids: Sequence[str], table_size: int, min_size: int = SMALLEST_TABLE, max_rounds: int | None = None
) -> tuple[Round, ...]:
    """Rounds of tables of about `table_size` until every pair has shared a table.

    Two constructions, the shorter schedule wins (equal: the first):

    * greedy: each round fills its tables one at a time, starting from the entry with the
      most entries still to meet, then adding whoever brings the most new meetings (equal:
      fewest repeat meetings, then most entries still to meet, then the given order);
    * Swiss-style: each round is the pairing with the fewest repeat meetings
      (`swiss.pair_swiss_round`, exhaustive for small groups), i.e. the most new ones.

    Every round covers at least one new pair, so both end; the lower bound is
    ⌈(n-1)/(k-1)⌉ rounds. Who opens rotates to whoever opened least.
    """
    ids = list(entry_ids)
    if len(set(ids)) != len(ids):
        raise CompetitionError("entry-duplicate", "an entry is listed once")
    if not SMALLEST_TABLE <= table_size <= LARGEST_TABLE:
        raise CompetitionError("table-size-limits", "tables seat 2 to 6")
    if len(ids) < 2:
        return ()
    if table_size == 2:
        return circle_schedule(ids)
    low = min(min_size, table_size)
    sizes = table_sizes(len(ids), low, table_size, preferred=table_size)
    greedy = _seat_rounds(ids, _greedy_rounds(ids, sizes, max_rounds))
    built = _swiss_rounds(ids, low, table_size, max_rounds)
    swiss = _seat_rounds(ids, built) if built is not None else greedy
    return swiss if len(swiss) < len(greedy) else greedy


def _seat_rounds(ids: list[str], rounds: list[list[list[str]]]) -> tuple[Round, ...]:
    order = {e: i for i, e in enumerate(ids)}
    opened: dict[str, int] = {}
    out: list[Round] = []
    for groups in rounds:
        tables = tuple(
            Table(n, open_least_opened(sorted(g, key=order.__getitem__), opened))
            for n, g in enumerate(groups, start=1)
        )
        opened = count_openers(tables, opened)
        out.append(Round(len(out) + 1, tables))
    return tuple(out)


def _swiss_rounds(
    ids: list[str], low: int, high: int, max_rounds: int | None
) -> list[list[list[str]]] | None:
    history: list[tuple[str, ...]] = []
    missing = {pair(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]}
    rounds: list[list[list[str]]] = []
    players = [SwissPlayer(e) for e in ids]
    while missing and (max_rounds is None or len(rounds) < max_rounds):
        request = SwissRequest(tuple(players), tuple(history), low, high, preferred_size=high)
        groups = [list(t.seats) for t in pair_swiss_round(request).tables]
        before = len(missing)
        for g in groups:
            history.append(tuple(g))
            missing.difference_update(pair(a, b) for i, a in enumerate(g) for b in g[i + 1 :])
        if len(missing) == before:
            return None  # stuck: no new meeting this round, let the greedy schedule win
        rounds.append(groups)
        players = players[1:] + players[:1]  # vary who is dealt first
    return rounds


def _greedy_rounds(ids: list[str], sizes: Sequence[int], max_rounds: int | None) -> list[list[list[str]]]:
    order = {e: i for i, e in enumerate(ids)}
    met: dict[Pair, int] = {}
    to_meet = {e: len(ids) - 1 for e in ids}
    rounds: list[list[list[str]]] = []
    while any(to_meet.values()) and (max_rounds is None or len(rounds) < max_rounds):
        free = set(ids)
        groups: list[list[str]] = []
        for size in sizes:
            first = min(free, key=lambda e: (-to_meet[e], order[e]))
            seats = [first]
            free.discard(first)
            while len(seats) < size:

                def gain(c: str, seats: list[str] = seats) -> tuple[int, int, int, int]:
                    new = sum(1 for s in seats if pair(s, c) not in met)
                    again = sum(met.get(pair(s, c), 0) for s in seats)
                    return (-new, again, -to_meet[c], order[c])

                chosen = min(free, key=gain)
                seats.append(chosen)
                free.discard(chosen)
            for i, a in enumerate(seats):
                for b in seats[i + 1 :]:
                    key = pair(a, b)
                    if key not in met:
                        to_meet[a] -= 1
                        to_meet[b] -= 1
                    met[key] = met.get(key, 0) + 1
            groups.append(seats)
        rounds.append(groups)
    return rounds


def group_schedule(entry_ids: Sequence[str], table_size: int = 2) -> tuple[Round, ...]:
    """The all-play-all schedule of one group: 1-v-1 or tables of `table_size`."""
    return table_schedule(entry_ids, table_size)


def coverage(rounds: Sequence[Round]) -> dict[Pair, int]:
    """How many times each pair shares a table over the schedule."""
    return pair_counts(t.seats for r in rounds for t in r.tables)
