from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.competition.helpers import ids, mix, partitions
from tournaments.competition.errors import CompetitionError
from tournaments.competition.meetings import opponents
from tournaments.competition.swiss import SwissPlayer, SwissRequest, SwissRound, choose_byes, pair_swiss_round
from tournaments.competition.tables import seatable, table_sizes

limits = st.tuples(st.integers(2, 6), st.integers(2, 6)).map(sorted)


def simulate(n: int, rounds: int, low: int, high: int, salt: int, exact_limit: int = 10) -> list[SwissRound]:
    """Play `rounds` Swiss rounds with deterministic pseudo-random placements."""
    entries = ids(n)
    score = dict.fromkeys(entries, 0.0)
    byes = dict.fromkeys(entries, 0)
    opened = dict.fromkeys(entries, 0)
    history: list[tuple[str, ...]] = []
    out = []
    for r in range(rounds):
        ranked = sorted(entries, key=lambda e: (-score[e], e))
        players = tuple(SwissPlayer(e, score[e], byes[e], opened[e]) for e in ranked)
        result = pair_swiss_round(SwissRequest(players, tuple(history), low, high, exact_limit=exact_limit))
        check_round(result, players, low, high)
        out.append(result)
        for t in result.tables:
            history.append(t.seats)
            opened[t.opener] += 1
            finish = sorted(t.seats, key=lambda e: mix(salt, r, e))
            for place, e in enumerate(finish):
                score[e] += len(finish) - 1 - place
        for e in result.byes:
            byes[e] += 1
            score[e] += 1
    return out


def check_round(result: SwissRound, players: tuple[SwissPlayer, ...], low: int, high: int) -> None:
    everyone = [p.id for p in players]
    seated = [e for t in result.tables for e in t.seats]
    assert len(seated) == len(set(seated)), "nobody is seated twice"
    assert sorted(seated + list(result.byes)) == sorted(everyone), "every non-bye entry is seated"
    sizes = [t.size for t in result.tables]
    if sizes:
        assert max(sizes) - min(sizes) <= 1
        assert low <= min(sizes) and max(sizes) <= high
    assert len(result.byes) == len(players) - seatable(len(players), low, high), "byes only when needed"
    # byes: fewest byes so far, then the lowest-ranked
    if result.byes:
        rank = {p.id: i for i, p in enumerate(players)}
        got = {p.id: p.byes for p in players}
        for b in result.byes:
            for p in players:
                if p.id in result.byes:
                    continue
                assert (got[b], -rank[b]) < (p.byes, -rank[p.id])
    # the opener opened least at its table
    opened = {p.id: p.opened for p in players}
    for t in result.tables:
        assert opened[t.opener] == min(opened[e] for e in t.seats)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 70), lim=limits, rounds=st.integers(1, 5), salt=st.integers(0, 10**6))
def test_swiss_rounds_are_legal(n: int, lim: list[int], rounds: int, salt: int) -> None:
    simulate(n, rounds, lim[0], lim[1], salt)


def brute_force_min_repeats(
    players: tuple[SwissPlayer, ...], history: tuple[tuple[str, ...], ...], low: int, high: int
) -> int:
    met = opponents(history)
    seated = [p.id for p in players]
    sizes = table_sizes(len(seated), low, high)
    best = len(seated) ** 2
    for split in partitions(list(range(len(seated))), sizes):
        cost = sum(1 for g in split for a, b in combinations(g, 2) if seated[b] in met.get(seated[a], ()))
        best = min(best, cost)
    return best


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 9),
    lim=limits,
    history=st.lists(st.lists(st.integers(0, 8), min_size=2, max_size=4, unique=True), max_size=10),
)
def test_repeat_meetings_are_minimal_on_small_fields(
    n: int, lim: list[int], history: list[list[int]]
) -> None:
    low, high = lim
    if seatable(n, low, high) != n:
        return
    entries = ids(n)
    past = tuple(tuple(entries[i] for i in t if i < n) for t in history)
    players = tuple(SwissPlayer(e, float(mix(e) % 3)) for e in entries)
    result = pair_swiss_round(SwissRequest(players, past, low, high))
    assert result.exact
    assert result.repeat_meetings == brute_force_min_repeats(players, past, low, high)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(11, 12),
    lim=limits,
    history=st.lists(st.lists(st.integers(0, 11), min_size=2, max_size=3, unique=True), max_size=12),
)
def test_heuristic_is_near_the_minimum_beyond_the_exact_limit(
    n: int, lim: list[int], history: list[list[int]]
) -> None:
    """Beyond the exhaustive search the heuristic is compared with the true minimum: it stays
    within one repeat of it (and finds it in the large majority of cases)."""
    low, high = lim
    if seatable(n, low, high) != n:
        return
    entries = ids(n)
    past = tuple(tuple(entries[i] for i in t if i < n) for t in history)
    players = tuple(SwissPlayer(e) for e in entries)
    result = pair_swiss_round(SwissRequest(players, past, low, high))
    assert not result.exact
    assert result.repeat_meetings <= brute_force_min_repeats(players, past, low, high) + 1


@settings(max_examples=40, deadline=None)
@given(k=st.integers(2, 6), extra=st.integers(0, 40), salt=st.integers(0, 10**6))
def test_no_repeat_in_round_two_when_a_repeat_free_round_exists(k: int, extra: int, salt: int) -> None:
    """After round 1 at tables of k, a repeat-free round 2 exists whenever there are at least
    k tables (deal the old tables column by column): the pairing must find one."""
    n = k * k + extra if k > 2 else 4 + 2 * extra
    sizes = table_sizes(n, 2, k)
    if len(sizes) < max(sizes):
        return
    rounds = simulate(n, 2, 2, k, salt, exact_limit=0)
    assert rounds[1].repeat_meetings == 0


def test_a_large_field_at_tables_of_six_stays_repeat_free() -> None:
    rounds = simulate(240, 6, 2, 6, salt=7)
    assert [r.repeat_meetings for r in rounds] == [0] * 6


def test_one_v_one_odd_field_byes_go_to_the_lowest_ranked_without_a_bye() -> None:
    entries = ids(5)
    players = tuple(SwissPlayer(e, byes=1 if e == "e004" else 0) for e in entries)
    result = pair_swiss_round(SwissRequest(players, (), 2, 2))
    assert result.byes == ("e003",)
    all_had = tuple(SwissPlayer(e, byes=1) for e in entries)
    assert pair_swiss_round(SwissRequest(all_had, (), 2, 2)).byes == ("e004",)
    assert choose_byes(players, 2) == ("e003", "e002")


def test_a_field_below_the_minimum_table_all_sit_out() -> None:
    result = pair_swiss_round(SwissRequest(tuple(SwissPlayer(e) for e in ids(3)), (), 4, 6))
    assert result.tables == () and sorted(result.byes) == ids(3)


def test_tables_follow_score_groups_top_table_first() -> None:
    players = tuple(SwissPlayer(e, score=float(12 - i)) for i, e in enumerate(ids(12)))
    result = pair_swiss_round(SwissRequest(players, (), 2, 6))
    assert [set(t.seats) for t in result.tables] == [set(ids(12)[:6]), set(ids(12)[6:])]
    assert result.score_spread == 10


def test_repeat_meetings_are_reported() -> None:
    players = tuple(SwissPlayer(e) for e in ids(2))
    result = pair_swiss_round(SwissRequest(players, (("e000", "e001"),), 2, 2))
    assert result.repeat_pairs == (("e000", "e001"),)
    assert result.repeat_meetings == 1
    with pytest.raises(CompetitionError):
        pair_swiss_round(SwissRequest((SwissPlayer("a"), SwissPlayer("a"))))
