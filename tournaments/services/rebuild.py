"""The rebuild check: every recorded table result (the latest, after any ruling's
correction) derived again from its match's events
(a difference is reported, never silently rewritten: the log is the record), then the
standings rewritten from the tables' results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tournaments import matches
from tournaments.models import Table, Tournament
from tournaments.services import log, standings, tables


@dataclass
class RebuildReport:
    tournaments: int = 0
    tables_checked: int = 0
    mismatches: list[str] = field(default_factory=list)


def rebuild(tournament: Tournament, report: RebuildReport | None = None) -> RebuildReport:
    report = report or RebuildReport()
    report.tournaments += 1
    latest: dict[str, dict[str, Any]] = {}  # each match's last recorded result (rulings correct them)
    kinds = (log.TABLE_FINISHED, log.TABLE_CORRECTED, log.TABLE_REOPENED)
    for event in tournament.events.filter(type__in=kinds).order_by("version"):
        if event.payload.get("match"):  # a walkover has no match to derive it from
            if event.type == log.TABLE_REOPENED:
                latest.pop(event.payload["match"], None)
            else:
                latest[event.payload["match"]] = event.payload
    for data in latest.values():
        table = Table.objects.filter(match_id=data["match"]).first()
        outcome = matches.match_result(data["match"])
        report.tables_checked += 1
        if table is None or not outcome.over:
            report.mismatches.append(f"{tournament.pk}: table of match {data['match']} is not over")
            continue
        again = tables.result_from_match(table, outcome)
        if again != data["result"]:
            report.mismatches.append(f"{tournament.pk}: table {data['round']}.{data['table']} differs")
    standings.write_standings(tournament)
    return report
