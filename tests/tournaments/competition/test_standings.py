from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.competition.helpers import ids
from tournaments.competition.entries import Entry
from tournaments.competition.errors import CompetitionError
from tournaments.competition.standings import (
    ALALAY_STANDINGS,
    BEST_CARD,
    BUCHHOLZ,
    DICE_LEFT,
    ELIMINATIONS,
    FIXED,
    HEAD_TO_HEAD,
    INSTANT_WINS,
    REPORTED,
    TIEBREAKS,
    WINS,
    ByeAward,
    EntryResult,
    MatchResult,
    PointsScale,
    Standings,
    StandingsConfig,
    compute_standings,
)


def entry_result(draw: st.DrawFn, entry_id: str, placement: int) -> EntryResult:
    return EntryResult(
        entry_id,
        placement=placement,
        dice_left=draw(st.integers(0, 2)),
        eliminations=draw(st.integers(0, 1)),
        alalay_total=draw(st.integers(0, 3)),
        instant_win=draw(st.booleans()),
    )


@st.composite
def tournaments(draw: st.DrawFn) -> list[MatchResult]:
    n = draw(st.integers(2, 10))
    entries = ids(n)
    matches = []
    for m in range(draw(st.integers(0, 6))):
        seated = draw(st.lists(st.sampled_from(entries), min_size=2, max_size=min(6, n), unique=True))
        placements = draw(st.permutations(list(range(1, len(seated) + 1))))
        results = tuple(entry_result(draw, e, p) for e, p in zip(seated, placements, strict=True))
        matches.append(MatchResult(f"m{m}", 1 + m // 2, 1, results))
    return matches


chains = st.lists(st.sampled_from(TIEBREAKS), unique=True, max_size=5)


def check_consistent(standings: Standings) -> None:
    rows = standings.rows
    criteria = standings.criteria
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    for i, (a, b) in enumerate(itertools.pairwise(rows)):
        va, vb = [a.value(c) for c in criteria], [b.value(c) for c in criteria]
        if HEAD_TO_HEAD not in criteria:
            assert va >= vb, "a total order consistent with the chain"
        if a.rank == b.rank:
            assert va == vb, "ranks are shared only when every tiebreak is equal"
            assert a.tiebreak_reason is None
        else:
            assert b.rank == i + 2, "the rank after a shared rank skips (1, 2, 2, 4)"
            if a.points == b.points:
                assert a.tiebreak in criteria[1:]
                assert a.tiebreak_reason and a.tiebreak_reason.startswith(f"ahead of {b.name} on ")
            else:
                assert a.points > b.points and a.tiebreak is None


@settings(max_examples=150, deadline=None)
@given(matches=tournaments(), chain=chains)
def test_standings_are_a_total_order_consistent_with_the_chain(
    matches: list[MatchResult], chain: list[str]
) -> None:
    standings = compute_standings(matches, StandingsConfig(tiebreaks=tuple(chain)))
    check_consistent(standings)
    seen = {r.entry_id for m in matches for r in m.results}
    assert {r.entry_id for r in standings.rows} == seen


@settings(max_examples=80, deadline=None)
@given(matches=tournaments(), chain=chains)
def test_standings_do_not_depend_on_the_order_results_arrive(
    matches: list[MatchResult], chain: list[str]
) -> None:
    config = StandingsConfig(tiebreaks=tuple(chain))
    forward = compute_standings(matches, config)
    backward = compute_standings(list(reversed(matches)), config)
    assert forward == backward


def test_bidding_tiebreak_chain_with_reasons() -> None:
    entries = [Entry("a", "Ana"), Entry("b", "Beto"), Entry("c", "Caro"), Entry("d", "Dani")]
    matches = [
        MatchResult(
            "m1",
            1,
            1,
            (
                EntryResult("a", 1, dice_left=3, eliminations=2),
                EntryResult("b", 2, dice_left=0, eliminations=1),
            ),
        ),
        MatchResult(
            "m2",
            1,
            2,
            (
                EntryResult("c", 1, dice_left=2, eliminations=2),
                EntryResult("d", 2, dice_left=0, eliminations=1),
            ),
        ),
    ]
    standings = compute_standings(matches, StandingsConfig(tiebreaks=(ELIMINATIONS, DICE_LEFT)), entries)
    assert standings.ranking() == ("a", "c", "b", "d")
    top = standings.rows[0]
    assert top.rank == 1 and top.tiebreak == DICE_LEFT
    assert top.tiebreak_reason == "ahead of Caro on dice left (3 vs 2)"
    assert standings.rows[1].tiebreak is None  # 1 point vs 0: no tie to resolve
    assert [r.rank for r in standings.rows] == [1, 2, 3, 3]  # Beto and Dani equal on everything
    assert standings.rows[2].name == "Beto"


def test_head_to_head_and_buchholz() -> None:
    # a beat b at a shared table; both end on the same points
    matches = [
        MatchResult("m1", 1, 1, (EntryResult("a", 1), EntryResult("b", 2))),
        MatchResult("m2", 2, 1, (EntryResult("b", 1), EntryResult("c", 2))),
        MatchResult("m3", 3, 1, (EntryResult("c", 1), EntryResult("a", 2))),
    ]
    standings = compute_standings(matches, StandingsConfig(tiebreaks=(BUCHHOLZ, HEAD_TO_HEAD)))
    assert [r.points for r in standings.rows] == [1, 1, 1]
    assert [r.value(BUCHHOLZ) for r in standings.rows] == [2, 2, 2]
    # a beat b, b beat c, c beat a: a cycle, all equal on head-to-head too
    assert [r.rank for r in standings.rows] == [1, 1, 1]
    two = compute_standings(
        [*matches[:1], MatchResult("m4", 2, 1, (EntryResult("b", 1), EntryResult("a", 2)))]
    )
    assert [r.rank for r in two.rows] == [1, 1]
    one = compute_standings(
        [*matches[:2], MatchResult("m5", 3, 1, (EntryResult("a", 1), EntryResult("c", 2)))],
        StandingsConfig(tiebreaks=(HEAD_TO_HEAD,)),
    )
    assert one.ranking()[0] == "a"


def test_alalay_chain_and_scales() -> None:
    matches = [
        MatchResult(
            "m1",
            1,
            1,
            (
                EntryResult("a", 1, alalay_total=300, instant_win=True),
                EntryResult("b", 2, alalay_total=250),
                EntryResult("c", 3, alalay_total=240),
            ),
        ),
        MatchResult(
            "m2",
            1,
            2,
            (
                EntryResult("d", 1, alalay_total=300),
                EntryResult("e", 2, alalay_total=260),
                EntryResult("f", 3, alalay_total=100),
            ),
        ),
    ]
    standings = compute_standings(matches, ALALAY_STANDINGS)
    assert standings.ranking() == ("a", "d", "e", "b", "c", "f")
    assert standings.rows[0].tiebreak_reason == "ahead of d on instant wins (1 vs 0)"
    assert standings.rows[2].tiebreak_reason == "ahead of b on total points (260 vs 250)"
    fixed = compute_standings(matches, StandingsConfig(scale=PointsScale(FIXED, (10, 7, 5)), tiebreaks=()))
    assert [r.points for r in fixed.rows] == [10, 10, 7, 7, 5, 5]
    config = StandingsConfig(tiebreaks=(INSTANT_WINS, BEST_CARD, WINS))
    assert compute_standings(matches, config).rows[0].entry_id == "a"


def test_reported_points_byes_and_validation() -> None:
    matches = [MatchResult("m1", 1, 1, (EntryResult("a", points=2.5), EntryResult("b", points=0.5)))]
    config = StandingsConfig(scale=PointsScale(REPORTED), tiebreaks=(), bye_points=3)
    standings = compute_standings(matches, config, [Entry("z")], [ByeAward("c", 1)])
    assert [(r.entry_id, r.points, r.played) for r in standings.rows] == [
        ("c", 3, 0),
        ("a", 2.5, 1),
        ("b", 0.5, 1),
        ("z", 0, 0),
    ]
    with pytest.raises(CompetitionError):
        compute_standings(matches)  # placements missing for the table-size scale
    with pytest.raises(CompetitionError):
        compute_standings(matches, StandingsConfig(tiebreaks=("luck",)))
    with pytest.raises(CompetitionError):
        compute_standings([matches[0], matches[0]], config)
    bad = MatchResult("m", 1, 1, (EntryResult("a", 3), EntryResult("b", 1)))
    with pytest.raises(CompetitionError):
        compute_standings([bad])
