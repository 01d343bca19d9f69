"""A Cochabamba-style Cacho Alalay event: qualifying tables of full scorecards, then a final table.

Entries are individuals, pairs or teams (one scorecard per entry). Round 1 seats the
seeded field by snake across tables; later qualifying rounds are Swiss (by points, fewest
repeat meetings). Results become points and standings (`standings.ALALAY_STANDINGS`:
match points, then total points, instant wins, best single card, head-to-head). The best
K (at most six) play the final table; the final's placements rank the finalists, the
qualifying standings rank everyone else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.competition.entries import INDIVIDUAL, PAIR, TEAM, Entry
from tournaments.competition.errors import CompetitionError
from tournaments.competition.standings import (
    ALALAY_STANDINGS,
    ByeAward,
    MatchResult,
    Standings,
    StandingsConfig,
    compute_standings,
)
from tournaments.competition.swiss import SwissPlayer, SwissRequest, SwissRound, choose_byes, pair_swiss_round
from tournaments.competition.tables import (
    LARGEST_TABLE,
    SMALLEST_TABLE,
    Table,
    number_tables,
    seatable,
    snake,
    table_sizes,
)


@dataclass(frozen=True)
class AlalayEventConfig:
    entry_kind: str = INDIVIDUAL
    table_size: int = 4
    qualifying_rounds: int = 3
    finalists: int = 6
    standings: StandingsConfig = ALALAY_STANDINGS


@dataclass(frozen=True)
class FinalTable:
    """The final table (the best qualified opens) and whether the cut split a shared rank."""

    table: Table
    tie_at_cut: bool


def check_event(entries: Sequence[Entry], config: AlalayEventConfig) -> None:
    if not SMALLEST_TABLE <= config.table_size <= LARGEST_TABLE:
        raise CompetitionError("table-size-limits", "Alalay tables seat 2 to 6")
    if not SMALLEST_TABLE <= config.finalists <= LARGEST_TABLE:
        raise CompetitionError("finalists-count", "a final table seats 2 to 6")
    if config.entry_kind not in (INDIVIDUAL, PAIR, TEAM):
        raise CompetitionError("entry-kind", "entries are individuals, pairs or teams")
    wrong = [e.id for e in entries if e.kind != config.entry_kind]
    if wrong:
        raise CompetitionError("entry-kind-mismatch", f"{wrong[0]!r} is not a {config.entry_kind}")
    if len(entries) < config.finalists:
        raise CompetitionError("too-few-entries", "more entries than finalists")


def qualifying_round(
    ranked_ids: Sequence[str],
    round_number: int,
    config: AlalayEventConfig,
    standings: Standings | None = None,
    previous_tables: Sequence[Sequence[str]] = (),
    opened: Mapping[str, int] | None = None,
    byes: Mapping[str, int] | None = None,
) -> SwissRound:
    """Tables for a qualifying round. Round 1: snake over `ranked_ids` (the seeding), the
    lowest seeds sitting out when the field does not split into tables (1-v-1, odd count);
    later rounds: Swiss on the standings' points (`ranked_ids` in standings order)."""
    if round_number < 1 or round_number > config.qualifying_rounds:
        raise CompetitionError("round-number", f"qualifying rounds are 1 to {config.qualifying_rounds}")
    if round_number == 1:
        seated_count = seatable(len(ranked_ids), SMALLEST_TABLE, config.table_size)
        sitting_out = choose_byes([SwissPlayer(e) for e in ranked_ids], len(ranked_ids) - seated_count)
        seated = [e for e in ranked_ids if e not in sitting_out]
        sizes = table_sizes(len(seated), SMALLEST_TABLE, config.table_size, preferred=config.table_size)
        tables = number_tables(snake(seated, sizes))
        return SwissRound(tables, sitting_out, (), 0.0, True)
    points = {r.entry_id: r.points for r in standings.rows} if standings else {}
    players = tuple(
        SwissPlayer(e, points.get(e, 0.0), (byes or {}).get(e, 0), (opened or {}).get(e, 0))
        for e in ranked_ids
    )
    request = SwissRequest(
        players,
        tuple(tuple(t) for t in previous_tables),
        min_size=SMALLEST_TABLE,
        max_size=config.table_size,
        preferred_size=config.table_size,
    )
    return pair_swiss_round(request)


def qualifying_standings(
    results: Sequence[MatchResult],
    config: AlalayEventConfig,
    entries: Sequence[Entry] = (),
    byes: Sequence[ByeAward] = (),
) -> Standings:
    return compute_standings(results, config.standings, entries, byes)


def final_table(standings: Standings, config: AlalayEventConfig) -> FinalTable:
    """The best `finalists` by qualifying rank, seated in that order (the best opens)."""
    rows = standings.rows
    if len(rows) < config.finalists:
        raise CompetitionError("too-few-entries", "more entries than finalists")
    chosen = tuple(r.entry_id for r in rows[: config.finalists])
    tie = len(rows) > config.finalists and rows[config.finalists].rank == rows[config.finalists - 1].rank
    return FinalTable(Table(1, chosen), tie)


def final_ranking(final: MatchResult, standings: Standings) -> tuple[str, ...]:
    """Finalists by their final placement (equal placements: qualifying order), then the rest
    by qualifying order."""
    qualifying = {e: i for i, e in enumerate(standings.ranking())}
    finalists = {r.entry_id: r for r in final.results}
    missing = [e for e in finalists if e not in qualifying]
    if missing:
        raise CompetitionError("finalist-unknown", f"{missing[0]!r} did not qualify")
    top = sorted(
        finalists,
        key=lambda e: (finalists[e].placement or len(finalists) + 1, qualifying[e]),
    )
    rest = [e for e in standings.ranking() if e not in finalists]
    return (*top, *rest)
