"""The season's scoring (`tournaments.seasons.scoring`), against an oracle written from the
rules in docs/seasons.md: best N of M evenings, then the number of better places, then the
last evening either played; players equal on all of it share the place."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seasons.scoring import BETTER_PLACES, LAST_EVENING, Evening, Scoring, standings

pytestmark = pytest.mark.sqlite_too

PLAYERS = ["ana", "beto", "caro", "dani", "eli", "fede"]
F1 = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)


@st.composite
def evening(draw: Any, key: str) -> Evening:
    """An evening's final ranking: some of the players, in tiers that share a place."""
    present = draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=len(PLAYERS), unique=True))
    tiers: list[list[str]] = []
    for player in present:
        if tiers and draw(st.booleans()) and draw(st.booleans()):
            tiers[-1].append(player)
        else:
            tiers.append([player])
    places: dict[str, int] = {}
    for tier in tiers:
        place = len(places) + 1
        places.update((p, place) for p in tier)
    return Evening(key, places)


@st.composite
def season(draw: Any) -> tuple[list[Evening], Scoring]:
    count = draw(st.integers(min_value=1, max_value=5))
    evenings = [draw(evening(f"t{i}")) for i in range(count)]
    points = draw(st.sampled_from([F1, (3, 2, 1), (10, 10, 5, 5), (1,)]))
    scoring = Scoring(
        tuple(float(p) for p in points),
        participation=draw(st.sampled_from([0.0, 1.0, 2.5])),
        best_of=draw(st.one_of(st.none(), st.integers(min_value=1, max_value=5))),
    )
    return evenings, scoring


def total(player: str, evenings: list[Evening], scoring: Scoring) -> float:
    scores = sorted(
        (
            (scoring.points[e.places[player] - 1] if e.places[player] <= len(scoring.points) else 0)
            + scoring.participation
            for e in evenings
            if player in e.places
        ),
        reverse=True,
    )
    return sum(scores if scoring.best_of is None else scores[: scoring.best_of])


def better(a: str, b: str, evenings: list[Evening], scoring: Scoring) -> int:
    """1 when a is ahead of b, -1 when behind, 0 when they share the place: the rules read
    one by one."""
    ta, tb = total(a, evenings, scoring), total(b, evenings, scoring)
    if abs(ta - tb) > 1e-9:
        return 1 if ta > tb else -1
    depth = max(p for e in evenings for p in e.places.values())
    for place in range(1, depth + 1):
        ca = sum(1 for e in evenings if e.places.get(a) == place)
        cb = sum(1 for e in evenings if e.places.get(b) == place)
        if ca != cb:
            return 1 if ca > cb else -1
    for e in reversed(evenings):
        pa, pb = e.places.get(a), e.places.get(b)
        if pa is None and pb is None:
            continue
        if pa is None or pb is None:
            return 1 if pb is None else -1
        if pa != pb:
            return 1 if pa < pb else -1
    return 0


@settings(max_examples=300, deadline=None)
@given(season())
def test_best_n_of_m_and_ties_follow_the_rules(case: tuple[list[Evening], Scoring]) -> None:
    evenings, scoring = case
    lines = standings(evenings, scoring)
    players = {p for e in evenings for p in e.places}
    assert sorted(line.player for line in lines) == sorted(players)
    for line in lines:
        assert line.total == pytest.approx(total(line.player, evenings, scoring))
        played = sum(1 for e in evenings if line.player in e.places)
        assert line.played == played
        kept = [s for s in line.evenings if s.counted]
        assert len(kept) == (played if scoring.best_of is None else min(scoring.best_of, played))
        assert line.total == pytest.approx(sum(s.points for s in kept))
        dropped = [s for s in line.evenings if not s.counted]
        assert all(d.points <= k.points for d in dropped for k in kept)  # only the worst are dropped
    for i, j in itertools.combinations(range(len(lines)), 2):
        verdict = better(lines[i].player, lines[j].player, evenings, scoring)
        assert verdict >= 0, (lines[i], lines[j])
        assert (verdict == 0) == (lines[i].rank == lines[j].rank)
    for i, line in enumerate(lines):
        assert line.rank == 1 + sum(1 for other in lines if other.rank < line.rank)  # 1, 2, 2, 4
        below = lines[i + 1] if i + 1 < len(lines) else None
        won_a_tie = below is not None and below.total == line.total and below.rank != line.rank
        assert bool(line.tiebreak) == won_a_tie
        if won_a_tie:
            assert line.tiebreak in (BETTER_PLACES, LAST_EVENING)
            assert line.tiebreak_detail is not None and line.tiebreak_detail["against"] == below.player


def test_best_two_of_three_with_a_countback_and_a_last_evening() -> None:
    scoring = Scoring(tuple(float(p) for p in F1), participation=0.0, best_of=2)
    evenings = [
        Evening("1", {"ana": 1, "beto": 2, "caro": 3, "dani": 4}),
        Evening("2", {"ana": 4, "beto": 1, "caro": 2, "dani": 3}),
        Evening("3", {"ana": 2, "beto": 4, "caro": 1, "dani": 3}),
    ]
    lines = {line.player: line for line in standings(evenings, scoring)}
    # ana 25+18 (drops the 12), beto 25+18, caro 25+18: a three-way tie on 43
    assert [lines[p].total for p in ("ana", "beto", "caro", "dani")] == [43, 43, 43, 30]
    order = [line.player for line in standings(evenings, scoring)]
    # each has one 1st and one 2nd: the 3rd places split caro (one) from ana and beto (none),
    # then the last evening: ana 2nd, beto 4th
    assert order == ["caro", "ana", "beto", "dani"]
    assert lines["caro"].tiebreak == BETTER_PLACES and lines["caro"].tiebreak_detail == {
        "against": "ana",
        "place": 3,
        "counts": [1, 0],
    }
    assert lines["ana"].tiebreak == LAST_EVENING and lines["ana"].tiebreak_detail == {
        "against": "beto",
        "tournament": "3",
        "places": [2, 4],
    }
    assert [s.counted for s in lines["ana"].evenings] == [True, False, True]


def test_a_shared_place_scores_that_place_for_each() -> None:
    scoring = Scoring((10.0, 6.0, 3.0), participation=1.0)
    lines = standings([Evening("1", {"ana": 1, "beto": 1, "caro": 3, "dani": 4})], scoring)
    assert [(line.player, line.rank, line.total) for line in lines] == [
        ("ana", 1, 11.0),
        ("beto", 1, 11.0),
        ("caro", 3, 4.0),
        ("dani", 4, 1.0),  # past the table: participation only
    ]
