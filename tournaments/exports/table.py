"""The tables the exports show, one shape for CSV, XLSX and the printed page: translated
column titles and typed cells (numbers as numbers, text as text), each renderer formatting
them its own way.

Columns: place, entry, its members (in a tournament of pairs or teams), then group (where
the stage has several), the stage reached (in the final ranking of a multi-stage
tournament), played, points, one column per tiebreak criterion, the tiebreak reason, and
"decided at time" (how many of the entry's tables time decided, docs/rules.md §9.1) where
any row has one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.exports.data import Row, StageInfo, StandingsExport, number
from tournaments.models import Tournament
from tournaments.reads import catalogue

Cell = int | float | str | None


@dataclass(frozen=True)
class Column:
    title: str
    value: Callable[[Row], Cell]
    numeric: bool = False


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    caption: str = ""

    @property
    def header(self) -> list[str]:
        return [c.title for c in self.columns]


def _table(columns: Sequence[Column], rows: Sequence[Row], caption: str = "") -> Table:
    return Table(tuple(columns), tuple(tuple(c.value(r) for c in columns) for r in rows), caption)


def _figures(export: StandingsExport) -> list[Column]:
    """Played, points, one column per tiebreak criterion, the reason."""
    names = catalogue.criteria_names()

    def criterion(code: str) -> Column:
        return Column(capfirst(names.get(code, code)), lambda r: number(r["values"].get(code)), numeric=True)

    return [
        Column(pgettext("standings column", "Played"), lambda r: r["played"], numeric=True),
        Column(pgettext("standings column", "Points"), lambda r: number(r["points"]), numeric=True),
        *(criterion(code) for code in export.tiebreaks),
        Column(pgettext("standings column", "Tiebreak"), lambda r: r["tiebreak_text"]),
    ]


def _at_time(rows: Sequence[Row]) -> list[Column]:
    """The "decided at time" column, only where time decided a table of a row shown: every
    other export keeps its columns."""
    if not any(r.get("decided_at_time") for r in rows):
        return []
    title = pgettext("standings column", "Decided at time")
    return [Column(title, lambda r: r.get("decided_at_time", 0), numeric=True)]


def _place(key: str) -> Column:
    return Column(pgettext("standings column", "Place"), lambda r: r.get(key), numeric=True)


def _entry() -> Column:
    return Column(pgettext("standings column", "Entry"), lambda r: r["name"])


def _members(export: StandingsExport) -> list[Column]:
    """A pair's or team's players, in a tournament of pairs or teams only."""
    if export.tournament.entry_type == Tournament.INDIVIDUAL:
        return []
    return [Column(pgettext("standings column", "Members"), lambda r: ", ".join(r.get("members", [])))]


def _group() -> Column:
    return Column(pgettext("standings column", "Group"), lambda r: r["group"], numeric=True)


def ranking_table(export: StandingsExport) -> Table:
    """The final ranking, best first, each entry with the figures of the last stage it played."""
    rows = export.final_ranking
    columns = [_place("place"), _entry(), *_members(export)]
    if any(r["group"] is not None for r in rows):
        columns.append(_group())
    if len(export.stages) > 1:
        columns.append(
            Column(
                pgettext("standings column", "Stage reached"),
                lambda r: export.stage_label(r["stage"]) if r["stage"] else "",
            )
        )
    return _table([*columns, *_figures(export), *_at_time(rows)], rows, _("Final ranking"))


def standings_table(export: StandingsExport, stage: StageInfo, group: int | None = None) -> Table:
    """A stage's standings (one group's, with `group`); a group column where the stage has
    several groups and the table shows them all."""
    rows = stage.rows if group is None else [r for r in stage.rows if r["group"] == group]
    columns = [_place("rank"), _entry(), *_members(export)]
    if stage.grouped and group is None:
        columns.append(_group())
    caption = export.stage_label(stage.number)
    if group is not None and stage.grouped:
        caption = f"{caption} · " + _("Group %(n)s") % {"n": group}
    return _table([*columns, *_figures(export), *_at_time(rows)], rows, caption)


def main_table(export: StandingsExport) -> Table:
    """The one table of the CSV (and the XLSX's first sheet): the final ranking once the
    tournament is over, else (or when a stage was asked for) that stage's standings."""
    if export.finished and not export.stage_asked:
        return ranking_table(export)
    if export.stage is None:  # not started: the header alone
        return _table([_place("rank"), _entry(), *_members(export), *_figures(export)], [])
    return standings_table(export, export.stage)


def group_tables(export: StandingsExport) -> list[Table]:
    """The shown stage's standings, one table per group."""
    stage = export.stage
    if stage is None:
        return []
    groups = sorted({r["group"] for r in stage.rows}) or [1]
    return [standings_table(export, stage, g) for g in groups]
