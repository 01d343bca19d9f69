from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.competition.helpers import ids
from tournaments.competition.errors import CompetitionError
from tournaments.competition.meetings import pair
from tournaments.competition.round_robin import (
    circle_schedule,
    coverage,
    group_schedule,
    make_groups,
    table_schedule,
)


@given(n=st.integers(2, 40))
def test_circle_method_every_pair_exactly_once_balanced_first_turns(n: int) -> None:
    entries = ids(n)
    rounds = circle_schedule(entries)
    assert len(rounds) == (n if n % 2 else n - 1)
    met = coverage(rounds)
    assert set(met) == {pair(a, b) for a, b in combinations(entries, 2)}
    assert set(met.values()) == {1}
    opens = dict.fromkeys(entries, 0)
    for r in rounds:
        seated = [e for t in r.tables for e in t.seats] + list(r.byes)
        assert sorted(seated) == entries  # everybody once a round: seated or bye
        assert len(r.byes) == n % 2
        for t in r.tables:
            opens[t.opener] += 1
    games = n - 1
    for e in entries:
        assert abs(2 * opens[e] - games) <= 1 if n % 2 == 0 else abs(2 * opens[e] - games) == 0
    if n % 2:
        assert sorted(b for r in rounds for b in r.byes) == entries  # one bye each


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 24), k=st.integers(3, 6))
def test_table_schedule_covers_every_pair_with_legal_tables(n: int, k: int) -> None:
    entries = ids(n)
    rounds = table_schedule(entries, k)
    met = coverage(rounds)
    assert set(met) == {pair(a, b) for a, b in combinations(entries, 2)}
    lower_bound = -(-(n - 1) // (k - 1))
    assert lower_bound <= len(rounds) <= 3 * lower_bound + 2
    opens = dict.fromkeys(entries, 0)
    for r in rounds:
        seated = [e for t in r.tables for e in t.seats]
        assert sorted(seated) == entries
        sizes = [t.size for t in r.tables]
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2 and max(sizes) <= k
        for t in r.tables:
            opens[t.opener] += 1
    # first turns spread: nobody opens more than twice as often as the expected share plus one
    share = sum(opens.values()) / n
    assert max(opens.values()) <= 2 * share + 1


def test_table_schedule_small_designs_are_tight() -> None:
    # 9 entries at tables of 3: the affine plane of order 3 meets the bound of 4 rounds.
    assert len(table_schedule(ids(9), 3)) == 4
    # 8 at tables of 4: the bound is 3 rounds
    assert len(table_schedule(ids(8), 4)) == 3
    # 6 at tables of 3: the bound is 3; 4 rounds here
    assert len(table_schedule(ids(6), 3)) <= 4


def test_group_schedule_for_pairs_is_the_circle_method() -> None:
    assert group_schedule(ids(6)) == circle_schedule(ids(6))
    assert circle_schedule(ids(1)) == ()


@given(n=st.integers(2, 60), groups=st.integers(1, 8))
def test_groups_are_snake_seeded_and_balanced(n: int, groups: int) -> None:
    if groups > n:
        with pytest.raises(CompetitionError):
            make_groups(ids(n), groups)
        return
    made = make_groups(ids(n), groups)
    assert sorted(e for g in made for e in g) == ids(n)
    sizes = [len(g) for g in made]
    assert max(sizes) - min(sizes) <= 1
    assert [g[0] for g in made] == ids(n)[:groups]
