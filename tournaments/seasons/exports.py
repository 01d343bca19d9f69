"""A season's standings for people and programs: the JSON (the page reads the same), CSV and
XLSX, in the request's language.

Each export is stamped like a tournament's: `head_hash` is the sha256 of the season's
scoring and of each counted tournament's log head (canonical JSON), so two files of one
season differ by name exactly when a counted tournament's log or the scoring moved on; the
metadata lists each evening with its log head and version.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl import Workbook
from openpyxl.styles import Font

from cacho.eventlog.chain import digest
from tournaments.exports.data import number
from tournaments.exports.files import BOM, _csv_cell, _fit_widths, _sheet_title, _write_rows
from tournaments.models import Tournament
from tournaments.seasons.models import Season, SeasonLine
from tournaments.seasons.scoring import BETTER_PLACES, LAST_EVENING
from tournaments.seasons.selection import counted

Cell = int | float | str | None


@dataclass(frozen=True)
class SeasonExport:
    season: Season
    evenings: list[Tournament]  # the counted tournaments that have finished, in order
    pending: list[Tournament]  # counted, not finished yet
    lines: list[SeasonLine]
    head_hash: str
    generated_at: str

    def evening_number(self, tournament_id: int) -> int:
        return next(i for i, t in enumerate(self.evenings, start=1) if t.pk == tournament_id)

    def names(self) -> dict[str, str]:
        return {line.player: line.name for line in self.lines}

    def tiebreak_text(self, line: SeasonLine) -> str:
        detail = line.tiebreak_detail or {}
        other = self.names().get(detail.get("against", ""), "")
        if line.tiebreak == BETTER_PLACES:
            mine, theirs = detail["counts"]
            return _("ahead of %(name)s: placed %(place)s more often (%(mine)s vs %(theirs)s)") % {
                "name": other,
                "place": _ordinal(detail["place"]),
                "mine": mine,
                "theirs": theirs,
            }
        if line.tiebreak == LAST_EVENING:
            mine, theirs = detail["places"]
            evening = next((t.name for t in self.evenings if t.pk == detail["tournament"]), "")
            if theirs is None:
                return _(
                    "ahead of %(name)s on the last evening either played, %(evening)s: %(name)s did not play"
                ) % {
                    "name": other,
                    "evening": evening,
                }
            return _(
                "ahead of %(name)s on the last evening either played, %(evening)s (%(mine)s vs %(theirs)s)"
            ) % {
                "name": other,
                "evening": evening,
                "mine": _ordinal(mine),
                "theirs": _ordinal(theirs),
            }
        return ""

    def metadata(self) -> dict[str, Any]:
        s = self.season
        return {
            "season": s.name,
            "season_id": s.pk,
            "club": s.club.name if s.club_id else None,
            "league": s.league.name if s.league_id else None,
            "starts_on": s.starts_on.isoformat(),
            "ends_on": s.ends_on.isoformat(),
            "points": s.points,
            "participation": number(s.participation),
            "best_of": s.best_of,
            "head_hash": self.head_hash,
            "generated_at": self.generated_at,
            "evenings": [
                {
                    "number": i,
                    "tournament_id": t.pk,
                    "name": t.name,
                    "club": t.club.name,
                    "date": (t.started_at or t.created_at).date().isoformat(),
                    "head_hash": t.head_hash,
                    "log_version": t.version,
                }
                for i, t in enumerate(self.evenings, start=1)
            ],
        }

    def as_dict(self) -> dict[str, Any]:
        s = self.season
        final = s.final
        return {
            "season": {
                "id": s.pk,
                "name": s.name,
                "club": {"id": s.club_id, "name": s.club.name} if s.club_id else None,
                "league": {"id": s.league_id, "name": s.league.name} if s.league_id else None,
                "starts_on": s.starts_on.isoformat(),
                "ends_on": s.ends_on.isoformat(),
                "selection": s.selection,
                "scoring": {
                    "points": s.points,
                    "participation": number(s.participation),
                    "best_of": s.best_of,
                },
                "final": {"id": final.pk, "name": final.name, "qualified": s.qualified} if final else None,
            },
            "head_hash": self.head_hash,
            "generated_at": self.generated_at,
            "evenings": self.metadata()["evenings"],
            "pending": [{"tournament_id": t.pk, "name": t.name, "status": t.status} for t in self.pending],
            "standings": [
                {
                    "rank": line.rank,
                    "player": line.player,
                    "name": line.name,
                    "username": line.user.get_username() if line.user_id else None,
                    "total": number(line.total),
                    "played": line.played,
                    "evenings": [
                        {
                            "number": self.evening_number(e["tournament"]),
                            "tournament_id": e["tournament"],
                            "place": e["place"],
                            "points": number(e["points"]),
                            "counted": e["counted"],
                        }
                        for e in line.evenings
                    ],
                    "tiebreak": line.tiebreak,
                    "tiebreak_text": self.tiebreak_text(line),
                }
                for line in self.lines
            ],
            "metadata": self.metadata(),
        }


def _ordinal(place: int) -> str:
    return _("%(n)s.") % {"n": place}


def build(season: Season) -> SeasonExport:
    tournaments = list(counted(season).select_related("club"))
    evenings = [t for t in tournaments if t.status == Tournament.FINISHED]
    pending = [t for t in tournaments if t.status != Tournament.FINISHED]
    # Only the evenings the lines were projected from: a tournament finished since the last
    # projection is not in them yet.
    projected = {e["tournament"] for line in season.lines.all() for e in line.evenings}
    evenings = [t for t in evenings if t.pk in projected]
    stamp = digest(
        {
            "season": season.pk,
            "points": season.points,
            "participation": season.participation,
            "best_of": season.best_of,
            "evenings": [[t.pk, t.head_hash] for t in evenings],
        }
    )
    lines = list(season.lines.select_related("user").order_by("position"))
    return SeasonExport(season, evenings, pending, lines, stamp, timezone.now().isoformat())


def table(export: SeasonExport) -> tuple[list[str], list[list[Cell]]]:
    """Place, player, points, evenings played, each evening's place and points, the
    evenings counted, the tiebreak: one shape for CSV and XLSX."""
    header = [
        pgettext("standings column", "Place"),
        _("Player"),
        pgettext("standings column", "Points"),
        pgettext("standings column", "Played"),
    ]
    for i, t in enumerate(export.evenings, start=1):
        header += [
            _("%(n)s. %(name)s: place") % {"n": i, "name": t.name},
            _("%(n)s. %(name)s: points") % {"n": i, "name": t.name},
        ]
    header += [_("Evenings counted"), pgettext("standings column", "Tiebreak")]
    rows: list[list[Cell]] = []
    for line in export.lines:
        by_evening = {e["tournament"]: e for e in line.evenings}
        row: list[Cell] = [line.rank, line.name, number(line.total), line.played]
        for t in export.evenings:
            e = by_evening.get(t.pk)
            row += [e["place"], number(e["points"])] if e else [None, None]
        kept = [str(export.evening_number(e["tournament"])) for e in line.evenings if e["counted"]]
        row += [", ".join(kept), export.tiebreak_text(line)]
        rows.append(row)
    return header, rows


def filename(export: SeasonExport, extension: str) -> str:
    slug = slugify(export.season.name) or "season"
    return f"{slug}-{export.head_hash[:12]}.{extension}"


def to_csv(export: SeasonExport) -> str:
    header, rows = table(export)
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out)
    writer.writerow([_csv_cell(h) for h in header])
    for row in rows:
        writer.writerow([_csv_cell(v) for v in row])
    return out.getvalue()


def to_xlsx(export: SeasonExport) -> bytes:
    """The table ("Standings"), then the metadata: the season, its scoring, the stamp, and
    each evening with its log head."""
    book = Workbook()
    taken: set[str] = set()
    sheet = book.active
    sheet.title = _sheet_title(_("Standings"), taken)
    header, rows = table(export)
    _write_rows(sheet, [header, *rows])
    sheet.freeze_panes = "A2"
    _fit_widths(sheet)
    meta = export.metadata()
    info = book.create_sheet(_sheet_title(pgettext("sheet", "Metadata"), taken))
    lines: list[tuple[str, Cell]] = [
        (_("Season"), meta["season"]),
        (_("Club"), meta["club"] or ""),
        (_("League"), meta["league"] or ""),
        (_("First day"), meta["starts_on"]),
        (_("Last day"), meta["ends_on"]),
        (_("Points by place"), "-".join(str(number(p)) for p in meta["points"])),
        (_("Participation points"), meta["participation"]),
        (_("Best evenings counted"), meta["best_of"] or _("all")),
        (_("Stamp"), meta["head_hash"]),
        (_("Generated at"), meta["generated_at"]),
    ]
    _write_rows(info, lines, header=False)
    for i in range(1, len(lines) + 1):
        info.cell(row=i, column=1).font = Font(bold=True)
    evenings: list[list[Cell]] = [
        [_("Evening"), _("Tournament"), _("Club"), _("Date"), _("Event log head"), _("Log version")],
        *[
            [e["number"], e["name"], e["club"], e["date"], e["head_hash"], e["log_version"]]
            for e in meta["evenings"]
        ],
    ]
    _write_rows(info, evenings, start=len(lines) + 2)
    _fit_widths(info)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


__all__ = ["SeasonExport", "build", "filename", "table", "to_csv", "to_xlsx"]
