"""What every export shows, gathered once per request: the tournament, its log head, the
final ranking with each entry's figures, and the standings of every started stage.

The figures come from the stored standings (`services.standings`) and the order from the
one final ranking (`standings.final_ranking`); nothing here ranks or scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.competition.standings import POINTS
from tournaments.models import Stage, Tournament
from tournaments.reads import catalogue
from tournaments.services import rankings, team_members
from tournaments.services.stage_data import standings_config
from tournaments.services.standings import (
    at_time_counts,
    current_stage,
    final_ranking,
    stage_numbered,
    standing_rows,
)

Row = dict[str, Any]


@dataclass(frozen=True)
class StageInfo:
    number: int
    name: str
    format: str
    status: str
    rows: list[Row]  # the stage's standings, in group then rank order

    @property
    def grouped(self) -> bool:
        return len({r["group"] for r in self.rows}) > 1

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "format": self.format, "status": self.status}


@dataclass(frozen=True)
class StandingsExport:
    tournament: Tournament
    head_hash: str
    version: int
    generated_at: str
    tiebreaks: list[str]  # the tiebreak chain, in order (points aside)
    stages: list[StageInfo]  # every stage of the plan, started or not
    stage: StageInfo | None  # the stage whose standings are shown (asked for, else the current one)
    stage_asked: bool  # `?stage=N`: the main table is that stage's standings, not the ranking
    final_ranking: list[Row]  # place, entry, name, and the figures of the last stage played

    @property
    def finished(self) -> bool:
        return bool(self.tournament.status == Tournament.FINISHED)

    @property
    def criteria(self) -> list[str]:
        return [POINTS, *self.tiebreaks]

    @property
    def rows(self) -> list[Row]:
        return self.stage.rows if self.stage else []

    def stage_label(self, number: int) -> str:
        stage = next((s for s in self.stages if s.number == number), None)
        return stage.name if stage and stage.name else _("Stage %(n)s") % {"n": number}

    def metadata(self) -> dict[str, Any]:
        t = self.tournament
        formats = {f["format"]: f["name"] for f in catalogue.formats()}
        return {
            "tournament": t.name,
            "tournament_id": t.pk,
            "club": t.club.name,
            "ruleset": t.ruleset,
            "ruleset_name": catalogue.ruleset_names().get(t.ruleset, t.ruleset),
            "options_hash": t.options_hash,
            "head_hash": self.head_hash,
            "log_version": self.version,
            "generated_at": self.generated_at,
            "stages": [{**s.as_dict(), "format_name": formats.get(s.format, s.format)} for s in self.stages],
        }

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
            "stage": self.stage.as_dict() if self.stage else None,
            "criteria": self.criteria,
            "standings": self.rows,
            "final_ranking": [_ranking_line(r) for r in self.final_ranking],
            "metadata": self.metadata(),
        }


def _ranking_line(row: Row) -> Row:
    """A line of the JSON's final ranking: place, entry, name, and `decided_at_time` only
    where time decided a table of the entry, as a result line's `at_time`: the JSON of a
    tournament without any keeps its lines as they were."""
    line = {k: row[k] for k in ("place", "entry", "name")}
    if "members" in row:
        line["members"] = row["members"]
    if row.get("decided_at_time"):
        line["decided_at_time"] = row["decided_at_time"]
    return line


def build(tournament: Tournament, stage_number: int | None = None) -> StandingsExport:
    """Everything the exports show. `stage_number`: the stage whose standings are shown
    (404 `stage-unknown` when there is none); default the running stage, else the last
    started."""
    tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
    chosen = (
        stage_numbered(tournament, stage_number) if stage_number is not None else current_stage(tournament)
    )
    stages = [_stage(tournament, s) for s in tournament.stages.order_by("number")]
    shown = next((s for s in stages if chosen and s.number == chosen.number), None)
    return StandingsExport(
        tournament=tournament,
        head_hash=tournament.head_hash,
        version=tournament.version,
        generated_at=timezone.now().replace(microsecond=0).isoformat(),
        tiebreaks=list(standings_config(tournament.standings_config, tournament.game).tiebreaks),
        stages=stages,
        stage=shown,
        stage_asked=stage_number is not None,
        final_ranking=_final_rows(tournament, stages),
    )


def _stage(tournament: Tournament, stage: Stage) -> StageInfo:
    rows = [] if stage.status == Stage.PENDING else standing_rows(tournament, stage.number)
    names = {r["entry"]: r["name"] for r in rows}
    for row in rows:
        row["tiebreak_text"] = tiebreak_text(row, names)
    return StageInfo(stage.number, stage.name, stage.format, stage.status, rows)


def _final_rows(tournament: Tournament, stages: list[StageInfo]) -> list[Row]:
    """The final ranking, each entry with its row of the last stage it played. A row keeps
    its stage's tiebreak reason only where that reason is why it placed above the next row:
    the stage ranks by its standings, the entry it beat comes next, at a worse place."""
    last: dict[int, tuple[StageInfo | None, Row]] = {}
    for stage in stages:
        for row in stage.rows:
            last[row["entry"]] = (stage, row)
    names = {e.pk: e.name for e in tournament.entries.all()}
    at_time = at_time_counts(tournament)  # every stage's tables, not only the last played
    lineup = team_members.lineups(tournament)
    placings = final_ranking(tournament)
    out: list[Row] = []
    for i, placing in enumerate(placings):
        played, row = last.get(placing.entry_id, (None, {}))
        below = placings[i + 1] if i + 1 < len(placings) else None
        explains = (
            played is not None
            and rankings.ranked_by_standings(played.format)
            and below is not None
            and below.entry_id == row.get("tiebreak_against")
            and below.place > placing.place
        )
        out.append(
            {
                "place": placing.place,
                "entry": placing.entry_id,
                "name": names.get(placing.entry_id, ""),
                "stage": played.number if played else None,
                "group": row.get("group") if played and played.grouped else None,
                "played": row.get("played"),
                "points": row.get("points"),
                "values": row.get("values", {}),
                "tiebreak_text": row.get("tiebreak_text", "") if explains else "",
                "decided_at_time": at_time.get(placing.entry_id, 0),
                **({"members": lineup.get(placing.entry_id, [])} if lineup else {}),
            }
        )
    return out


def tiebreak_text(row: Row, names: dict[int, str]) -> str:
    """The tie this row won, in the active language: "ahead of Ana on dice left (5 vs 3)"
    (the core's own `tiebreak_reason` is English, for logs)."""
    code, against, values = row.get("tiebreak"), row.get("tiebreak_against"), row.get("tiebreak_values")
    if not code or against is None or not values:
        return ""
    criterion = catalogue.criteria_names().get(code, code)
    return str(_("ahead of %(name)s on %(criterion)s (%(upper)s vs %(lower)s)")) % {
        "name": names.get(against, ""),
        "criterion": criterion,
        "upper": number_text(values[0]),
        "lower": number_text(values[1]),
    }


def number(value: float | int | None) -> int | float | None:
    """A figure for people: integers as integers (3, not 3.0), fractions to 2 decimals."""
    if value is None:
        return None
    rounded = round(float(value), 2)
    return int(rounded) if rounded.is_integer() else rounded


def number_text(value: float | int | None) -> str:
    shown = number(value)
    return "" if shown is None else str(shown)
