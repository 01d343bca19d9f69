from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.competition.helpers import ids, mix
from tournaments.competition.errors import CompetitionError
from tournaments.competition.tables import (
    Table,
    balance_tables,
    count_openers,
    number_tables,
    open_least_opened,
    rotate_opener,
    seatable,
    snake,
    table_sizes,
)

limits = st.tuples(st.integers(2, 6), st.integers(2, 6)).map(sorted)


@given(n=st.integers(0, 400), lim=limits, preferred=st.one_of(st.none(), st.integers(2, 6)))
def test_table_sizes_differ_by_at_most_one_and_respect_limits(
    n: int, lim: list[int], preferred: int | None
) -> None:
    low, high = lim
    m = seatable(n, low, high)
    assert 0 <= m <= n
    sizes = table_sizes(m, low, high, preferred)
    assert sum(sizes) == m
    assert all(low <= s <= high for s in sizes)
    if sizes:
        assert max(sizes) - min(sizes) <= 1
        assert list(sizes) == sorted(sizes, reverse=True)
    # nobody more could be seated
    for k in range(m + 1, n + 1):
        with pytest.raises(CompetitionError):
            table_sizes(k, low, high)


def test_table_sizes_examples() -> None:
    assert table_sizes(13) == (5, 4, 4)
    assert table_sizes(13, preferred=4) == (5, 4, 4)
    assert table_sizes(13, preferred=2) == (3, 2, 2, 2, 2, 2)
    assert seatable(7, 2, 2) == 6
    assert seatable(7, 4, 5) == 5
    assert seatable(1) == 0
    with pytest.raises(CompetitionError):
        table_sizes(7, 2, 2)
    with pytest.raises(CompetitionError):
        table_sizes(4, 1, 6)


@given(n=st.integers(2, 120), lim=limits)
def test_snake_seats_everyone_once_and_spreads_top_seeds(n: int, lim: list[int]) -> None:
    low, high = lim
    m = seatable(n, low, high)
    sizes = table_sizes(m, low, high)
    order = ids(m)
    seated = snake(order, sizes)
    flat = [e for t in seated for e in t]
    assert sorted(flat) == order
    assert [len(t) for t in seated] == list(sizes)
    # the first t seeds are at distinct tables, the table heads are seeds 1..t
    assert [t[0] for t in seated] == order[: len(sizes)]


def test_snake_example() -> None:
    assert snake(ids(7), (4, 3)) == (("e000", "e003", "e004", "e006"), ("e001", "e002", "e005"))
    tables = snake(ids(8), (4, 4))
    assert tables == (("e000", "e003", "e004", "e007"), ("e001", "e002", "e005", "e006"))


def test_openers() -> None:
    seats = ("a", "b", "c", "d")
    assert open_least_opened(seats, {"a": 2, "b": 1, "c": 0, "d": 0}) == ("c", "d", "a", "b")
    assert open_least_opened(seats, {}) == seats
    assert [rotate_opener(seats, r)[0] for r in range(1, 6)] == ["a", "b", "c", "d", "a"]
    assert count_openers(number_tables([seats, ("e", "f")]), {"a": 1}) == {"a": 2, "e": 1}


@given(
    sizes=st.lists(st.integers(0, 6), min_size=1, max_size=12),
    max_size=st.integers(2, 6),
    salt=st.integers(0, 10**6),
)
def test_balancing_keeps_sizes_within_one_and_everyone_seated_once(
    sizes: list[int], max_size: int, salt: int
) -> None:
    sizes = [min(s, max_size) for s in sizes]
    everyone = ids(sum(sizes))
    tables, start = [], 0
    for number, s in enumerate(sizes, start=1):
        tables.append(Table(number, tuple(everyone[start : start + s])))
        start += s
    result = balance_tables(tables, max_size)
    flat = [e for t in result.tables for e in t.seats]
    assert sorted(flat) == everyone
    lengths = [t.size for t in result.tables]
    assert max(lengths) - min(lengths) <= 1
    assert max(lengths) <= max_size
    assert len(result.tables) == max(1, -(-len(everyone) // max_size))
    assert set(result.broken).isdisjoint(t.number for t in result.tables)
    # every move is real: the entry was at from_table, ends at to_table unless moved again
    for move in result.moves:
        assert move.from_table != move.to_table


@given(n=st.integers(2, 90), max_size=st.integers(3, 6), salt=st.integers(0, 10**6))
def test_elimination_by_tables_ends_at_one_final_table(n: int, max_size: int, salt: int) -> None:
    """Drop entries one at a time (poker-style), rebalancing after each: sizes stay within one
    and the last tables merge into one final table."""
    sizes = table_sizes(n, 2, max_size)
    tables = number_tables(snake(ids(n), sizes))
    alive = n
    step = 0
    saw_final = False
    while alive > 1:
        flat = [e for t in tables for e in t.seats]
        out = flat[mix(salt, step) % len(flat)]
        tables = tuple(Table(t.number, tuple(s for s in t.seats if s != out)) for t in tables)
        result = balance_tables(tables, max_size)
        tables = result.tables
        alive -= 1
        step += 1
        lengths = [t.size for t in tables]
        assert max(lengths) - min(lengths) <= 1
        assert sum(lengths) == alive
        if alive <= max_size:
            assert result.is_final_table
            saw_final = True
    assert saw_final


def test_balancing_breaks_the_smallest_table_first() -> None:
    tables = (Table(1, ("a", "b", "c")), Table(2, ("d", "e")), Table(3, ("f", "g", "h")))
    result = balance_tables(tables, max_size=4)
    assert result.broken == (2,)
    assert [t.number for t in result.tables] == [1, 3]
    assert [t.seats for t in result.tables] == [("a", "b", "c", "d"), ("f", "g", "h", "e")]
    with pytest.raises(CompetitionError):
        balance_tables((Table(1, ("a", "b", "c", "d", "e")),), max_size=4)
