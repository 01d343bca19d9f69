"""Standings exports: CSV, XLSX (openpyxl), JSON and a printable page.

Every export carries the tournament's event log head hash (`head_hash`, with the log
version) and its generation time, so a printed sheet can be matched to the log.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook

from tournaments.models import Tournament
from tournaments.projections import standing_rows
from tournaments.services.tournaments import final_ranking

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@dataclass(frozen=True)
class StandingsExport:
    tournament: Tournament
    head_hash: str
    version: int
    generated_at: str
    criteria: list[str]
    rows: list[dict[str, Any]]
    final_ranking: list[dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        t = self.tournament
        return {
            "tournament": {
                "id": t.pk,
                "name": t.name,
                "club": t.club.name,
                "game": t.game,
                "ruleset": t.ruleset,
                "options_hash": t.options_hash,
                "status": t.status,
            },
            "head_hash": self.head_hash,
            "log_version": self.version,
            "generated_at": self.generated_at,
            "criteria": self.criteria,
            "standings": self.rows,
            "final_ranking": self.final_ranking,
        }


def build(tournament: Tournament) -> StandingsExport:
    tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
    rows = standing_rows(tournament)
    criteria = list(rows[0]["values"].keys()) if rows else []
    names = {e.pk: e.name for e in tournament.entries.all()}
    final: list[dict[str, Any]] = []
    if tournament.status == Tournament.FINISHED:
        # Everyone who played, across all stages (the same ranking as `tournament-finished`).
        ids = [int(e) for e in final_ranking(tournament)]
        final = [{"place": i, "entry": e, "name": names.get(e, "")} for i, e in enumerate(ids, start=1)]
    return StandingsExport(
        tournament,
        tournament.head_hash,
        tournament.version,
        timezone.now().isoformat(),
        criteria,
        rows,
        final,
    )


def header(export: StandingsExport) -> list[str]:
    return [_("Rank"), _("Entry"), _("Played"), _("Points"), *export.criteria, _("Tiebreak"), _("Reason")]


def _line(export: StandingsExport, row: dict[str, Any]) -> list[Any]:
    return [
        row["rank"],
        row["name"],
        row["played"],
        row["points"],
        *(row["values"].get(c) for c in export.criteria),
        row["tiebreak"],
        row["tiebreak_reason"],
    ]


def _stamp(export: StandingsExport) -> list[list[str]]:
    return [
        [_("Tournament"), export.tournament.name],
        [_("Event log head"), export.head_hash],
        [_("Log version"), str(export.version)],
        [_("Generated at"), export.generated_at],
    ]


def to_csv(export: StandingsExport) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    for line in _stamp(export):
        writer.writerow(["#", *line])
    writer.writerow(header(export))
    for row in export.rows:
        writer.writerow(_line(export, row))
    return out.getvalue()


def to_xlsx(export: StandingsExport) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = _("Standings")[:31]
    sheet.append(header(export))
    for row in export.rows:
        sheet.append(_line(export, row))
    info = book.create_sheet(_("Stamp")[:31])
    for line in _stamp(export):
        info.append(line)
    if export.final_ranking:
        final = book.create_sheet(_("Final ranking")[:31])
        final.append([_("Place"), _("Entry")])
        for item in export.final_ranking:
            final.append([item["place"], item["name"]])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def lines(export: StandingsExport) -> list[list[Any]]:
    return [_line(export, row) for row in export.rows]
