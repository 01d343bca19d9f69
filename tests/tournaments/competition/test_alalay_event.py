from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.competition.helpers import ids, mix
from tournaments.competition.alalay_event import (
    AlalayEventConfig,
    check_event,
    final_ranking,
    final_table,
    qualifying_round,
    qualifying_standings,
)
from tournaments.competition.entries import PAIR, Entry
from tournaments.competition.errors import CompetitionError
from tournaments.competition.standings import EntryResult, MatchResult, Standings


def play(tables: tuple[tuple[str, ...], ...], round_number: int, salt: int) -> list[MatchResult]:
    out = []
    for n, seats in enumerate(tables, start=1):
        totals = {e: 150 + mix(salt, round_number, e) % 200 for e in seats}
        order = sorted(seats, key=lambda e: -totals[e])
        results = tuple(
            EntryResult(e, placement=order.index(e) + 1, alalay_total=totals[e], instant_win=totals[e] > 340)
            for e in seats
        )
        out.append(MatchResult(f"r{round_number}t{n}", round_number, n, results))
    return out


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(6, 40),
    table_size=st.integers(2, 6),
    finalists=st.integers(2, 6),
    salt=st.integers(0, 10**6),
)
def test_an_event_from_seeding_to_final_ranking(n: int, table_size: int, finalists: int, salt: int) -> None:
    entries = [Entry(e, members=(f"{e}a", f"{e}b")) for e in ids(n)]
    config = AlalayEventConfig(
        entry_kind=PAIR, table_size=table_size, qualifying_rounds=3, finalists=finalists
    )
    check_event(entries, config)
    results: list[MatchResult] = []
    history: list[tuple[str, ...]] = []
    standings: Standings | None = None
    ranked = [e.id for e in entries]
    for r in (1, 2, 3):
        seating = qualifying_round(ranked, r, config, standings, history)
        seated = [e for t in seating.tables for e in t.seats]
        assert sorted(seated + list(seating.byes)) == sorted(ranked)
        assert len(seating.byes) == (n % 2 if table_size == 2 else 0)
        sizes = [t.size for t in seating.tables]
        assert max(sizes) - min(sizes) <= 1 and max(sizes) <= table_size
        history.extend(t.seats for t in seating.tables)
        results.extend(play(tuple(t.seats for t in seating.tables), r, salt))
        standings = qualifying_standings(results, config, entries)
        ranked = list(standings.ranking())
    assert standings is not None
    final = final_table(standings, config)
    assert final.table.seats == standings.ranking()[:finalists]
    final_result = play((final.table.seats,), 4, salt)[0]
    ranking = final_ranking(final_result, standings)
    assert sorted(ranking) == ids(n)
    winner = next(r.entry_id for r in final_result.results if r.placement == 1)
    assert ranking[0] == winner
    assert set(ranking[:finalists]) == set(final.table.seats)


def test_round_one_is_snake_seeded() -> None:
    config = AlalayEventConfig(table_size=4, finalists=4)
    seating = qualifying_round(ids(8), 1, config)
    assert [t.seats for t in seating.tables] == [
        ("e000", "e003", "e004", "e007"),
        ("e001", "e002", "e005", "e006"),
    ]
    with pytest.raises(CompetitionError):
        qualifying_round(ids(8), 4, config)


def test_event_checks() -> None:
    with pytest.raises(CompetitionError) as err:
        check_event([Entry("a"), Entry("b")], AlalayEventConfig(entry_kind=PAIR, finalists=2))
    assert err.value.code == "entry-kind-mismatch"
    with pytest.raises(CompetitionError):
        check_event([Entry("a")], AlalayEventConfig(finalists=7))
    with pytest.raises(CompetitionError):
        check_event([Entry("a")], AlalayEventConfig(finalists=2))
