from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.tournaments.competition.helpers import ids, mix
from tournaments.competition.errors import CompetitionError
from tournaments.competition.meetings import opponents
from tournaments.competition.swiss import (
    SwissPlayer,
    SwissRequest,
    SwissRound,
    choose_byes,
    pair_swiss_round,
    repeat_lower_bound,
)
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
    assert 0 <= result.lower_bound <= result.repeat_meetings
    # the opener opened least at its table
    opened = {p.id: p.opened for p in players}
    for t in result.tables:
        assert opened[t.opener] == min(opened[e] for e in t.seats)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 70), lim=limits, rounds=st.integers(1, 5), salt=st.integers(0, 10**6))
def test_swiss_rounds_are_legal(n: int, lim: list[int], rounds: int, salt: int) -> None:
    simulate(n, rounds, lim[0], lim[1], salt)


# ---------------------------------------------------------------- brute-force oracles
# Independent of the code under test: plain enumeration of every seating.


def splits(items: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every split of `items` into tables with the multiset of `sizes`, each split once (the
    first item's table is chosen first); each table's members in ascending order."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [x for x in rest if x not in others]
            for tail in splits(remaining, left):
                yield [(first, *others), *tail]


def seated_order(request: SwissRequest, result: SwissRound) -> list[SwissPlayer]:
    """The seated entries by score, the given ranking breaking ties (the module's order)."""
    rank = {p.id: i for i, p in enumerate(request.players)}
    seated = [p for p in request.players if p.id not in result.byes]
    return sorted(seated, key=lambda p: (-p.score, rank[p.id]))


def costs(seated: list[SwissPlayer], met: dict[str, set[str]]) -> tuple[list[list[int]], list[int]]:
    """Whether each two seated entries met (1/0), and scores in half points (the tests'
    scores are halves, so spreads add up exactly)."""
    ids_ = [p.id for p in seated]
    repeat = [[int(b in met.get(a, ())) for b in ids_] for a in ids_]
    return repeat, [int(p.score * 2) for p in seated]


def oracle_key(
    split: list[tuple[int, ...]], repeat: list[list[int]], halves_: list[int]
) -> tuple[int, int, tuple[tuple[int, tuple[int, ...]], ...]]:
    """Fewest repeats, then the smallest score spread, then the ranking order: the
    best-ranked entry's table as large as possible and with the best-ranked others, then
    the next table's, and so on."""
    repeats = sum(repeat[a][b] for g in split for a, b in combinations(g, 2))
    spread = sum(max(halves_[i] for i in g) - min(halves_[i] for i in g) for g in split)
    return repeats, spread, tuple((-len(g), g) for g in sorted(split))


def as_index_tables(result: SwissRound, seated: list[SwissPlayer]) -> list[tuple[int, ...]]:
    where = {p.id: i for i, p in enumerate(seated)}
    return sorted(tuple(sorted(where[e] for e in t.seats)) for t in result.tables)


def oracle(request: SwissRequest, result: SwissRound) -> tuple[list[tuple[int, ...]], int]:
    """The exhaustive optimum of the seated entries' split, and its repeats."""
    seated = seated_order(request, result)
    sizes = table_sizes(len(seated), request.min_size, request.max_size, request.preferred_size)
    repeat, halves_ = costs(seated, opponents(request.previous_tables))
    best = min(splits(list(range(len(seated))), list(sizes)), key=lambda sp: oracle_key(sp, repeat, halves_))
    return sorted(best), oracle_key(best, repeat, halves_)[0]


def min_repeats(players: Sequence[str], history: Sequence[Sequence[str]], sizes: Sequence[int]) -> int:
    met = opponents(history)
    return min(
        sum(1 for g in split for a, b in combinations(g, 2) if players[b] in met.get(players[a], ()))
        for split in splits(list(range(len(players))), list(sizes))
    )


halves = st.integers(0, 16).map(lambda x: x / 2)
past_tables = st.lists(st.lists(st.integers(0, 11), min_size=2, max_size=6, unique=True), max_size=14)


def build_request(
    n: int, scores: list[float], history: list[list[int]], low: int, high: int, preferred: int | None
) -> SwissRequest:
    entries = ids(n)
    past = tuple(tuple(entries[i] for i in t if i < n) for t in history)
    players = tuple(SwissPlayer(e, scores[i % len(scores)], byes=i % 2) for i, e in enumerate(entries))
    return SwissRequest(players, past, low, high, preferred_size=preferred)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(3, 12),
    lim=limits,
    preferred=st.none() | st.integers(2, 6),
    scores=st.lists(halves, min_size=1, max_size=12),
    history=past_tables,
)
def test_tables_of_three_to_six_equal_the_exhaustive_optimum_up_to_twelve(
    n: int, lim: list[int], preferred: int | None, scores: list[float], history: list[list[int]]
) -> None:
    """Up to 12 seated entries the seating is the brute-force optimum itself: the same
    tables (fewest repeats, then spread, then ranking order), proven minimal."""
    low, high = lim
    request = build_request(n, scores, history, low, high, preferred)
    seatable_count = seatable(n, low, high)
    assume(seatable_count > 0)
    assume(max(table_sizes(seatable_count, low, high, preferred)) >= 3)
    result = pair_swiss_round(request)
    check_round(result, request.players, low, high)
    expected, repeats = oracle(request, result)
    assert as_index_tables(result, seated_order(request, result)) == expected
    assert result.exact
    assert result.repeat_meetings == result.lower_bound == repeats


def matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first = items[0]
    for k in range(1, len(items)):
        rest = items[1:k] + items[k + 1 :]
        for tail in matchings(rest):
            yield [(first, items[k]), *tail]


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(2, 13),
    scores=st.lists(halves, min_size=1, max_size=13),
    history=st.lists(st.lists(st.integers(0, 12), min_size=2, max_size=4, unique=True), max_size=24),
)
def test_one_v_one_repeats_only_when_no_repeat_free_pairing_exists(
    n: int, scores: list[float], history: list[list[int]]
) -> None:
    """Brute force over every pairing: the round has the fewest repeats there are (so none
    when a repeat-free pairing exists), then the smallest score spread."""
    request = build_request(n, scores, history, 2, 2, None)
    result = pair_swiss_round(request)
    check_round(result, request.players, 2, 2)
    seated = seated_order(request, result)
    repeat, halves_ = costs(seated, opponents(request.previous_tables))
    best = min(
        (
            (sum(repeat[a][b] for a, b in m), sum(abs(halves_[a] - halves_[b]) for a, b in m))
            for m in matchings(list(range(len(seated))))
        ),
        default=(0, 0),
    )
    assert (result.repeat_meetings, int(result.score_spread * 2)) == best
    if best[0] == 0:
        assert result.repeat_pairs == ()
    assert result.lower_bound == result.repeat_meetings


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(14, 60).map(lambda x: x - x % 2),
    density=st.integers(1, 12),
    salt=st.integers(0, 10**6),
)
def test_one_v_one_larger_fields_avoid_every_avoidable_repeat(n: int, density: int, salt: int) -> None:
    """Beyond brute force: whenever the graph of new meetings has a perfect matching (a
    repeat-free pairing exists), the round repeats nobody."""
    entries = ids(n)
    history = [
        (entries[i], entries[j])
        for i in range(n)
        for j in range(i + 1, n)
        if mix(salt, i, j) % 16 < density and abs(i - j) < 8
    ]
    players = tuple(SwissPlayer(e, float(mix(salt, e) % 4)) for e in entries)
    result = pair_swiss_round(SwissRequest(players, tuple(history), 2, 2))
    met = opponents(history)
    fresh = nx.Graph(
        (a, b) for i, a in enumerate(entries) for b in entries[i + 1 :] if b not in met.get(a, ())
    )
    fresh.add_nodes_from(entries)
    if len(nx.max_weight_matching(fresh, maxcardinality=True)) == n // 2:
        assert result.repeat_meetings == 0


def test_one_v_one_a_top_that_all_met_pairs_with_the_bottom() -> None:
    """The top 20 all met each other: top against next repeats everywhere, and only
    pairing each of them with one of the bottom 20 avoids every repeat (the matching's
    window must grow from each repeat to the whole field)."""
    entries = ids(40)
    history = tuple((a, b) for a, b in combinations(entries[:20], 2))
    players = tuple(SwissPlayer(e, 1.0 if i < 20 else 0.0) for i, e in enumerate(entries))
    result = pair_swiss_round(SwissRequest(players, history, 2, 2))
    assert result.repeat_meetings == 0 and result.exact
    assert all(len({e < "e020" for e in t.seats}) == 2 for t in result.tables)


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(3, 10),
    lim=limits,
    history=st.lists(st.lists(st.integers(0, 9), min_size=2, max_size=6, unique=True), max_size=12),
)
def test_the_lower_bound_never_exceeds_the_true_minimum(
    n: int, lim: list[int], history: list[list[int]]
) -> None:
    low, high = lim
    assume(seatable(n, low, high) == n)
    entries = ids(n)
    past = [[i for i in t if i < n] for t in history]
    sizes = table_sizes(n, low, high)
    met = opponents([[entries[i] for i in t] for t in past])
    met_index = [{int(o[1:]) for o in met.get(e, ())} for e in entries]
    bound = repeat_lower_bound(sizes, met_index, past)
    assert 0 <= bound <= min_repeats(entries, [[entries[i] for i in t] for t in past], sizes)


def test_the_clique_bound_counts_earlier_tables_that_cannot_spread_out() -> None:
    """11 entries at 4, 4 and 3 after a round at 4, 4 and 3: each earlier table of 4 must
    put two of its entries together again (3 tables), the table of 3 need not."""
    earlier = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10]]
    met = [set(t) - {i} for t in earlier for i in t]
    assert repeat_lower_bound((4, 4, 3), met, earlier) == 2
    # the same table twice shares its pairs: counted once
    assert repeat_lower_bound((4, 4, 3), met, [*earlier, earlier[0]]) == 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(13, 40), lim=limits, rounds=st.integers(2, 6), salt=st.integers(0, 10**6))
def test_pairing_is_deterministic(n: int, lim: list[int], rounds: int, salt: int) -> None:
    """The same request, rebuilt from scratch, gives the same round (the local search's
    choices come from a fixed seed), and the reported bound holds."""
    low, high = lim
    played = simulate(n, rounds, low, high, salt)
    history = tuple(t.seats for r in played for t in r.tables)
    players = tuple(SwissPlayer(e, float(mix(salt, e) % 5)) for e in ids(n))
    first = pair_swiss_round(SwissRequest(players, history, low, high))
    again = pair_swiss_round(
        SwissRequest(
            tuple(SwissPlayer(p.id, p.score) for p in players), tuple(map(tuple, history)), low, high
        )
    )
    assert first == again
    assert first.lower_bound <= first.repeat_meetings


def test_eleven_at_tables_of_at_most_five_round_three_reaches_the_minimum() -> None:
    """Rounds 1-2 as a simple seating played them (placements drawn), then round 3. A swap
    heuristic seats it with 3 repeats ((e00, e03), (e04, e05), (e07, e10)); 2 is the
    minimum (the two earlier tables of 4 of round 2 over 3 tables force one each)."""
    points = {"e02": 5, "e04": 5, "e05": 5, "e07": 4, "e08": 3, "e00": 2, "e01": 2, "e09": 2}
    points |= {"e06": 1, "e10": 1, "e03": 0}
    history = (
        ("e00", "e01", "e02", "e03"),
        ("e04", "e05", "e06", "e07"),
        ("e08", "e09", "e10"),
        ("e02", "e01", "e07", "e10"),
        ("e04", "e00", "e05", "e08"),
        ("e03", "e06", "e09"),
    )
    players = tuple(SwissPlayer(e, float(p)) for e, p in points.items())
    request = SwissRequest(players, history, 2, 5, preferred_size=5)
    assert min_repeats([p.id for p in players], history, (4, 4, 3)) == 2
    result = pair_swiss_round(request)
    check_round(result, players, 2, 5)
    assert result.repeat_meetings == 2


def test_thirteen_at_tables_of_at_most_four_round_three_repeats_nobody() -> None:
    """A 13-entry field (rounds 1-2 as a simple seating played them) whose round 3 a swap
    heuristic seats with 1 avoidable repeat, (e11, e12). Beyond the exhaustive limit, the
    local search must find a repeat-free round."""
    points = {"e03": 4, "e09": 4, "e10": 4, "e02": 3, "e11": 3, "e12": 3, "e01": 2, "e04": 2}
    points |= {"e05": 2, "e08": 2, "e06": 1, "e00": 0, "e07": 0}
    history = (
        ("e00", "e01", "e02", "e03"),
        ("e04", "e05", "e06"),
        ("e07", "e08", "e09"),
        ("e10", "e11", "e12"),
        ("e03", "e04", "e07", "e12"),
        ("e02", "e05", "e09"),
        ("e10", "e01", "e06"),
        ("e08", "e11", "e00"),
    )
    players = tuple(SwissPlayer(e, float(p)) for e, p in points.items())
    result = pair_swiss_round(SwissRequest(players, history, 2, 4, preferred_size=4))
    check_round(result, players, 2, 4)
    assert not result.exact
    assert result.repeat_meetings == 0 == result.lower_bound


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
