"""The standings projection and the final ranking.

`write_standings(tournament, stage)` recomputes a stage's standings (per group; without
`stage`, every started stage's) from the tables' results (`stage_rows.stage_input`, the
same reader the formats use) and stores them as `StandingRow`s; it runs whenever a table
of that stage finishes, so the rows always equal a full rebuild. `final_ranking(tournament)`
is the tournament's one final ranking (the page, the API and every export read it):
`rankings.final_tiers` over the finished stages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.models import Entry, Stage, StandingRow, Table, Tournament
from tournaments.services import rankings, team_members
from tournaments.services.stage_data import stage_standings
from tournaments.services.stage_rows import stage_input


def _groups(stage: Stage) -> list[list[str]]:
    groups = stage.plan.get("groups") if stage.format == "round_robin" else None
    return [list(g) for g in groups] if groups else [list(stage.entrants)]


def write_standings(tournament: Tournament, only: Stage | None = None) -> None:
    """The standings rows of stage `only` (default: of every started stage), rewritten."""
    rows: list[StandingRow] = []
    stages = (
        [only] if only is not None else tournament.stages.exclude(status=Stage.PENDING).order_by("number")
    )
    for stage in stages:
        data = stage_input(tournament, stage, finished_only=False)
        position = 0
        for group, members in enumerate(_groups(stage), start=1):
            for row in stage_standings(data, ids=members).rows:
                position += 1
                rows.append(
                    StandingRow(
                        tournament=tournament,
                        stage=stage.number,
                        group=group,
                        position=position,
                        rank=row.rank,
                        entry_id=int(row.entry_id),
                        played=row.played,
                        points=row.points,
                        values=dict(row.values),
                        tiebreak=row.tiebreak or "",
                        tiebreak_reason=row.tiebreak_reason or "",
                        tiebreak_against_id=int(row.tiebreak_against) if row.tiebreak_against else None,
                        tiebreak_values=list(row.tiebreak_values) if row.tiebreak_values else None,
                    )
                )
    with transaction.atomic():
        stale = StandingRow.objects.filter(tournament=tournament)
        if only is not None:
            stale = stale.filter(stage=only.number)
        stale.delete()
        StandingRow.objects.bulk_create(rows)


@dataclass(frozen=True)
class Placing:
    place: int
    entry_id: int


def final_ranking(tournament: Tournament) -> list[Placing]:
    """Everyone who played, best first, with shared places (`rankings`); empty until the
    tournament has finished."""
    if tournament.status != Tournament.FINISHED:
        return []
    return [Placing(place, int(e)) for place, e in rankings.places(final_tiers(tournament))]


def final_tiers(tournament: Tournament) -> rankings.Tiers:
    """The stages' tiers (`rankings.final_tiers`), the disqualified entries moved to a last
    tier of their own, which they share."""
    finished = tournament.stages.filter(status=Stage.FINISHED).order_by("number")
    tiers = rankings.final_tiers([rankings.stage_tiers(stage_input(tournament, s)) for s in finished])
    out = set(
        str(pk) for pk in tournament.entries.filter(status=Entry.DISQUALIFIED).values_list("pk", flat=True)
    )
    if not out:
        return tiers
    kept = [[e for e in tier if e not in out] for tier in tiers]
    last = [e for tier in tiers for e in tier if e in out]
    return [tier for tier in kept if tier] + ([last] if last else [])


def stage_numbered(tournament: Tournament, number: int) -> Stage:
    """The tournament's stage `number`; 404 `stage-unknown` when it has none."""
    stage = tournament.stages.filter(number=number).first()
    if stage is None:
        raise TournamentError(
            "stage-unknown", _("This tournament has no stage %(n)s.") % {"n": number}, status=404
        )
    return stage


def current_stage(tournament: Tournament) -> Stage | None:
    """The stage whose standings a reader wants: the running one, else the last started."""
    started = tournament.stages.exclude(status=Stage.PENDING).order_by("-number")
    return started.filter(status=Stage.RUNNING).first() or started.first()


def standing_rows(tournament: Tournament, stage: int | None = None) -> list[dict[str, Any]]:
    """One stage's stored standings (default: `current_stage`), as plain data."""
    if stage is None:
        current = current_stage(tournament)
        stage = current.number if current else 1
    names = {e.pk: e.name for e in tournament.entries.all()}
    at_time = at_time_counts(tournament, stage)
    lineup = team_members.lineups(tournament)
    return [
        {
            "stage": r.stage,
            "group": r.group,
            "rank": r.rank,
            "entry": r.entry_id,
            "name": names.get(r.entry_id, ""),
            "played": r.played,
            "points": r.points,
            "values": r.values,
            "tiebreak": r.tiebreak,
            "tiebreak_reason": r.tiebreak_reason,
            "tiebreak_against": r.tiebreak_against_id,
            "tiebreak_values": r.tiebreak_values,
            "decided_at_time": at_time.get(r.entry_id, 0),
            # A pair's or team's players (tournaments of individuals leave the key out).
            **({"members": lineup.get(r.entry_id, [])} if lineup else {}),
        }
        for r in StandingRow.objects.filter(tournament=tournament, stage=stage).order_by("position")
    ]


def decided_at_time(result: list[Any]) -> bool:
    """Whether a table's result says time decided it (docs/rules.md §9.1, T-4): its lines
    carry `at_time` then, and only then."""
    return any(isinstance(line, dict) and line.get("at_time") for line in result or [])


def at_time_counts(tournament: Tournament, stage: int | None = None) -> dict[int, int]:
    """Entry id -> how many of its finished tables time decided (of stage `stage`; default:
    the whole tournament). Read from the tables' results at every call rather than stored,
    so a ruling that changes a result (a reopen, an award) changes the count with it."""
    tables = Table.objects.filter(round__tournament=tournament, status=Table.FINISHED)
    if stage is not None:
        tables = tables.filter(round__stage__number=stage)
    counts: dict[int, int] = {}
    for result in tables.values_list("result", flat=True):
        if decided_at_time(result):
            for line in result:
                if line.get("forfeit"):
                    continue  # a forfeit is not a place that time decided
                entry = int(line["entry"])
                counts[entry] = counts.get(entry, 0) + 1
    return counts
