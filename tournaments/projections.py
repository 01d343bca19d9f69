"""Projections of the tournaments: table results from the match event streams, and standings.

Results. `project_results()` reads the global match event order from its checkpoint
(`ProjectionCheckpoint` "tournament-results", a point of the order (txid, position), via
`cacho.store.read_all_after`, which never skips an event committed late: cacho.log_order),
and for each stream that belongs to a playing tournament table and whose match is over,
records the table's result (`services.record_table_result`, idempotent). The checkpoint
moves in the same transaction as the results it caused.

Standings. `standings_from_events(tournament)` folds the tournament's own event log
(table-finished results, round-created byes worth bye points) through `competition.standings`;
`write_standings` stores it as `StandingRow`s. The incremental path and
`rebuild_tournament_projections` call the same function, so they agree by construction,
and `rebuild` also re-derives every table result from the match events and reports any
difference.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from cacho.log_order import LogPosition
from tournaments import matches
from tournaments.competition.entries import Entry as CoreEntry
from tournaments.competition.standings import ByeAward, EntryResult, MatchResult, Standings, compute_standings
from tournaments.models import Entry, ProjectionCheckpoint, StandingRow, Table, Tournament, TournamentEvent
from tournaments.services import formats, log

CHECKPOINT = "tournament-results"


def project_results(batch: int = 1000, max_batches: int = 1000) -> int:
    """Advance the results projection to the head of the match log; the tables finished."""
    from tournaments.services.tournaments import record_table_result

    finished = 0
    for _ in range(max_batches):
        with transaction.atomic():
            checkpoint, _created = ProjectionCheckpoint.objects.select_for_update().get_or_create(
                name=CHECKPOINT
            )
            seen = matches.events_after(LogPosition(checkpoint.txid, checkpoint.position), batch)
            if not seen:
                return finished
            streams = {match_id for _, match_id in seen}
            for table in Table.objects.filter(match_id__in=streams, status=Table.PLAYING).order_by("pk"):
                outcome = matches.match_result(table.match_id)
                if outcome.over and record_table_result(table.pk, outcome):
                    finished += 1
            checkpoint.txid, checkpoint.position = seen[-1][0]
            checkpoint.save(update_fields=["txid", "position", "updated_at"])
        if len(seen) < batch:
            return finished
    return finished


def _entries(tournament: Tournament) -> list[Entry]:
    return list(
        tournament.entries.exclude(status=Entry.NO_SHOW).filter(seed__isnull=False).order_by("seed", "pk")
    )


def standings_from_events(tournament: Tournament) -> Standings:
    results: list[MatchResult] = []
    byes: list[ByeAward] = []
    for event in TournamentEvent.objects.filter(
        tournament=tournament, type__in=(log.TABLE_FINISHED, log.ROUND_CREATED)
    ).order_by("version"):
        data = event.payload
        if event.type == log.ROUND_CREATED:
            # Only byes worth points (`formats.SCORED_BYES`); a log written before the flag
            # existed listed only such byes.
            if data.get("bye_points", True):
                byes += [ByeAward(str(b), data["round"]) for b in data.get("byes", [])]
            continue
        results.append(
            MatchResult(
                data["match"],
                data["round"],
                data["table"],
                tuple(
                    EntryResult(
                        entry_id=str(r["entry"]),
                        placement=r["placement"],
                        dice_left=r.get("dice_left", 0),
                        eliminations=r.get("eliminations", 0),
                        alalay_total=r.get("alalay_total"),
                        instant_win=bool(r.get("instant_win")),
                    )
                    for r in data["result"]
                ),
            )
        )
    config = formats.standings_config(tournament.standings_config, tournament.game)
    entries = [CoreEntry(str(e.pk), e.name) for e in _entries(tournament)]
    return compute_standings(results, config, entries, byes)


def write_standings(tournament: Tournament) -> Standings:
    standings = standings_from_events(tournament)
    rows = [
        StandingRow(
            tournament=tournament,
            position=i,
            rank=row.rank,
            entry_id=int(row.entry_id),
            played=row.played,
            points=row.points,
            values=dict(row.values),
            tiebreak=row.tiebreak or "",
            tiebreak_reason=row.tiebreak_reason or "",
        )
        for i, row in enumerate(standings.rows, start=1)
    ]
    with transaction.atomic():
        StandingRow.objects.filter(tournament=tournament).delete()
        StandingRow.objects.bulk_create(rows)
    return standings


def standing_rows(tournament: Tournament) -> list[dict[str, Any]]:
    names = {e.pk: e.name for e in tournament.entries.all()}
    return [
        {
            "rank": r.rank,
            "entry": r.entry_id,
            "name": names.get(r.entry_id, ""),
            "played": r.played,
            "points": r.points,
            "values": r.values,
            "tiebreak": r.tiebreak,
            "tiebreak_reason": r.tiebreak_reason,
        }
        for r in StandingRow.objects.filter(tournament=tournament).order_by("position")
    ]


@dataclass
class RebuildReport:
    tournaments: int = 0
    tables_checked: int = 0
    mismatches: list[str] = field(default_factory=list)


def rebuild(tournament: Tournament, report: RebuildReport | None = None) -> RebuildReport:
    """Re-derive every table result from its match's events, compare with the log, and
    rewrite the standings from the events."""
    report = report or RebuildReport()
    report.tournaments += 1
    for event in TournamentEvent.objects.filter(tournament=tournament, type=log.TABLE_FINISHED):
        data = event.payload
        table = Table.objects.filter(match_id=data["match"]).first()
        outcome = matches.match_result(data["match"])
        report.tables_checked += 1
        if table is None or not outcome.over:
            report.mismatches.append(f"{tournament.pk}: table of match {data['match']} is not over")
            continue
        by_name = {s.entry.name: s.entry_id for s in table.seats.select_related("entry")}
        again = [{"entry": by_name[r.seat], **r.as_dict()} for r in outcome.results]
        if again != data["result"]:
            report.mismatches.append(f"{tournament.pk}: table {data['round']}.{data['table']} differs")
    write_standings(tournament)
    return report
