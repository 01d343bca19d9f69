"""The exports as files: CSV (one table, header row first), XLSX (the same table, a sheet per
stage, a metadata sheet) and the printed page's context; their file name.

Entry names are typed by players: a name that a spreadsheet would read as a formula
(`=HYPERLINK(…)`) stays text, in CSV by a leading apostrophe, in XLSX by the cell's type.
"""

from __future__ import annotations

import csv
import io
import math
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from django.utils.formats import number_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from tournaments.exports.data import StandingsExport, number_text
from tournaments.exports.table import Cell, Table, group_tables, main_table, ranking_table, standings_table
from tournaments.models import Stage

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# What a spreadsheet may take for the start of a formula (OWASP's "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Excel refuses these in sheet titles, and titles longer than 31 characters.
SHEET_TITLE_REFUSED = re.compile(r"[\[\]:*?/\\]")
SHEET_TITLE_LENGTH = 31
WIDTH_MIN, WIDTH_MAX = 6, 80  # 80: the 64 hex digits of a log head fit
BOM = "\ufeff"
# Excel's column width counts the digit "0" of the default font (Calibri 11); wider
# letters need more of them, or a name is cut at the column's edge.
WIDER = {"M": 1.7, "W": 1.8, "m": 1.5, "w": 1.4, "@": 1.7, "%": 1.4}
UPPER, BOLD = 1.25, 1.1


def filename(export: StandingsExport, extension: str) -> str:
    """`<slug of the tournament's name>-<first 12 hex of the log head>.<extension>`: two
    files of the same tournament differ by name exactly when the log moved on."""
    slug = slugify(export.tournament.name) or "tournament"
    head = export.head_hash[:12]
    return f"{slug}-{head}.{extension}" if head else f"{slug}.{extension}"


# ---------------------------------------------------------------- CSV


def _csv_cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return f"'{value}" if value.startswith(FORMULA_START) else value
    return number_text(value)


def to_csv(export: StandingsExport) -> str:
    """One table, its header row first: the final ranking once the tournament is over, else
    the shown stage's standings. The log head and the rest are in the file name, the JSON's
    `metadata` and the XLSX's metadata sheet, not in rows above the header."""
    table = main_table(export)
    out = io.StringIO()
    # The byte-order mark tells spreadsheet programs the file is UTF-8: without it Excel
    # reads "María" as "MarÃ­a".
    out.write(BOM)
    writer = csv.writer(out)
    writer.writerow([_csv_cell(title) for title in table.header])
    for row in table.rows:
        writer.writerow([_csv_cell(v) for v in row])
    return out.getvalue()


# ---------------------------------------------------------------- XLSX


def _put(sheet: Worksheet, row: int, column: int, value: Cell, bold: bool = False) -> None:
    cell = sheet.cell(row=row, column=column)
    if isinstance(value, str):
        cell.value = ILLEGAL_CHARACTERS_RE.sub("", value)
        cell.data_type = "s"  # never a formula, whatever the text starts with
    else:
        cell.value = value
    if bold:
        cell.font = Font(bold=True)


def _write_rows(
    sheet: Worksheet, rows: Sequence[Sequence[Cell]], *, header: bool = True, start: int = 1
) -> int:
    """Write `rows` from row `start` (the first in bold when `header`); the next free row."""
    for i, line in enumerate(rows):
        for j, value in enumerate(line, start=1):
            _put(sheet, start + i, j, value, bold=header and i == 0)
    return start + len(rows)


def text_width(text: str, bold: bool = False) -> float:
    """How many "0" digits of the default font the text takes, about: combining accents
    take none, East Asian wide characters two, capitals and M, W a little more."""
    width = 0.0
    for char in text:
        if unicodedata.combining(char):
            continue
        if unicodedata.east_asian_width(char) in ("W", "F"):
            width += 2
        else:
            width += WIDER.get(char, UPPER if char.isupper() else 1.0)
    return width * (BOLD if bold else 1.0)


def _fit_widths(sheet: Worksheet) -> None:
    """Each column as wide as its widest text, plus a margin (within bounds)."""
    widths: dict[int, float] = {}
    for line in sheet.iter_rows():
        for cell in line:
            if cell.value is not None:
                needed = text_width(str(cell.value), bool(cell.font and cell.font.b))
                widths[cell.column] = max(widths.get(cell.column, 0.0), needed)
    for column, width in widths.items():
        fitted = min(max(math.ceil(width) + 2, WIDTH_MIN), WIDTH_MAX)
        sheet.column_dimensions[get_column_letter(column)].width = fitted


def _sheet_title(title: str, taken: set[str]) -> str:
    base = SHEET_TITLE_REFUSED.sub("-", title).strip("' ")[:SHEET_TITLE_LENGTH] or "-"
    candidate, n = base, 2
    while candidate.lower() in taken:
        suffix = f" ({n})"
        candidate, n = base[: SHEET_TITLE_LENGTH - len(suffix)] + suffix, n + 1
    taken.add(candidate.lower())
    return candidate


def _table_sheet(sheet: Worksheet, table: Table) -> None:
    _write_rows(sheet, [table.header, *table.rows])
    sheet.freeze_panes = "A2"
    _fit_widths(sheet)


def metadata_lines(export: StandingsExport) -> list[tuple[str, Cell]]:
    """The export's provenance, translated: what to match a printed sheet to the log with."""
    meta = export.metadata()
    return [
        (_("Tournament"), meta["tournament"]),
        (_("Club"), meta["club"]),
        (_("Ruleset"), meta["ruleset_name"]),
        (_("Options hash"), meta["options_hash"]),
        (_("Event log head"), meta["head_hash"]),
        (_("Log version"), meta["log_version"]),
        (_("Generated at"), meta["generated_at"]),
    ]


def _metadata_sheet(sheet: Worksheet, export: StandingsExport) -> None:
    lines: list[Sequence[Cell]] = [(label, value) for label, value in metadata_lines(export)]
    _write_rows(sheet, lines, header=False)
    for i in range(1, len(lines) + 1):
        sheet.cell(row=i, column=1).font = Font(bold=True)
    statuses = {code: str(name) for code, name in Stage.STATUS_CHOICES}
    stages: list[Sequence[Cell]] = [
        (_("Stage"), pgettext("stage", "Name"), _("Format"), _("Status")),
        *(
            (s["number"], s["name"], s["format_name"], statuses.get(s["status"], s["status"]))
            for s in export.metadata()["stages"]
        ),
    ]
    _write_rows(sheet, stages, start=len(lines) + 2)
    _fit_widths(sheet)


def to_xlsx(export: StandingsExport) -> bytes:
    """Sheets: the CSV's table ("Ranking"), one per started stage with its standings, then
    the metadata."""
    book = Workbook()
    taken: set[str] = set()
    first = book.active
    first.title = _sheet_title(pgettext("sheet", "Ranking"), taken)
    _table_sheet(first, main_table(export))
    for stage in export.stages:
        if stage.rows:
            title = f"{stage.number}. {export.stage_label(stage.number)}"
            _table_sheet(book.create_sheet(_sheet_title(title, taken)), standings_table(export, stage))
    _metadata_sheet(book.create_sheet(_sheet_title(pgettext("sheet", "Metadata"), taken)), export)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# ---------------------------------------------------------------- the printed page


def _html_table(table: Table) -> dict[str, Any]:
    """Cells as text in the page's language (2,67 in Spanish), numbers flagged to align."""

    def text(value: Cell) -> str:
        if value is None:
            return ""
        return value if isinstance(value, str) else number_format(value, use_l10n=True)

    numeric = [c.numeric for c in table.columns]
    return {
        "caption": table.caption,
        "header": list(zip(table.header, numeric, strict=True)),
        "rows": [list(zip((text(v) for v in row), numeric, strict=True)) for row in table.rows],
    }


def print_context(export: StandingsExport) -> dict[str, Any]:
    """The printed page: the final ranking first (once the tournament is over), then the
    shown stage's standings per group, and the metadata for the footer."""
    ranking = [_html_table(ranking_table(export))] if export.final_ranking else []
    return {
        "export": export,
        "meta": export.metadata(),
        "ranking": ranking,
        "standings": [_html_table(t) for t in group_tables(export)],
        "metadata": metadata_lines(export),
        # the legend of the "decided at time" column, shown where the column is
        "at_time": any(r.get("decided_at_time") for r in [*export.final_ranking, *export.rows]),
    }
