"""A season's standings, a projection of its tournaments' final rankings.

Each counted tournament that has finished gives one `SeasonResult` per player (its final
place, `standings.final_ranking`, and the points the season's scoring gives it); the
season's `SeasonLine`s are `scoring.standings` over those results, in the season's order
of evenings. A player is their account across tournaments and clubs (`user:<id>`), a guest
their name, case and spacing aside (`guest:<name>`).

- `refresh_tournament(id)` (after the commit of a tournament's `tournament-finished`,
  `ranking-corrected`, `table-reopened`, `entry-renamed` or `entry-claimed`): that
  tournament's results in every season counting it, then those seasons' lines;
- `project_season(id)` (every edit of a season) and `rebuild()` (`manage.py
  rebuild_seasons`): everything from scratch. Both end in the same rows.

Every write holds the season's row lock, so two tournaments finishing at once never
interleave their rewrites of one season.
"""

from __future__ import annotations

from celery import shared_task
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.models import Entry, Tournament
from tournaments.seasons.models import LeagueClub, Season, SeasonLine, SeasonResult
from tournaments.seasons.scoring import Evening, standings
from tournaments.seasons.selection import counted, scoring_of
from tournaments.services.standings import final_ranking

# The tournament log's events after which a season may read the tournament differently.
EVENTS = ("tournament-finished", "ranking-corrected", "table-reopened", "entry-renamed", "entry-claimed")


def player_key(entry: Entry) -> str:
    if entry.user_id:
        return f"user:{entry.user_id}"
    return "guest:" + " ".join(entry.name.split()).casefold()


def _results(season: Season, tournament: Tournament) -> list[SeasonResult]:
    scoring = scoring_of(season)
    entries = {e.pk: e for e in tournament.entries.all()}
    rows: dict[str, SeasonResult] = {}
    for placing in final_ranking(tournament):
        entry = entries[placing.entry_id]
        key = player_key(entry)
        if key in rows:  # two guest entries of one name: the better place stands
            continue
        rows[key] = SeasonResult(
            season=season,
            tournament=tournament,
            player=key,
            user_id=entry.user_id,
            entry=entry,
            name=entry.name,
            place=placing.place,
            points=scoring.evening(placing.place),
        )
    return list(rows.values())


def _write_results(season: Season, tournament: Tournament) -> None:
    SeasonResult.objects.filter(season=season, tournament=tournament).delete()
    SeasonResult.objects.bulk_create(_results(season, tournament))


def _write_lines(season: Season) -> None:
    order = list(counted(season).values_list("pk", flat=True))
    results = list(SeasonResult.objects.filter(season=season, tournament_id__in=order))
    by_tournament: dict[int, dict[str, int]] = {}
    latest: dict[str, SeasonResult] = {}
    position = {t: i for i, t in enumerate(order)}
    for r in sorted(results, key=lambda r: position[r.tournament_id]):
        by_tournament.setdefault(r.tournament_id, {})[r.player] = r.place
        latest[r.player] = r
    evenings = [Evening(str(t), by_tournament[t]) for t in order if t in by_tournament]
    lines = []
    for i, line in enumerate(standings(evenings, scoring_of(season)), start=1):
        shown = latest[line.player]
        detail = dict(line.tiebreak_detail) if line.tiebreak_detail else None
        if detail and "tournament" in detail:
            detail["tournament"] = int(detail["tournament"])
        lines.append(
            SeasonLine(
                season=season,
                position=i,
                rank=line.rank,
                player=line.player,
                user_id=shown.user_id,
                name=shown.name,
                total=line.total,
                played=line.played,
                evenings=[
                    {"tournament": int(s.evening), "place": s.place, "points": s.points, "counted": s.counted}
                    for s in line.evenings
                ],
                tiebreak=line.tiebreak,
                tiebreak_detail=detail,
            )
        )
    SeasonLine.objects.filter(season=season).delete()
    SeasonLine.objects.bulk_create(lines)
    Season.objects.filter(pk=season.pk).update(projected_at=timezone.now())


def project_season(season_id: int) -> None:
    """The season's results and lines from scratch."""
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season_id)
        tournaments = list(counted(season))
        SeasonResult.objects.filter(season=season).exclude(tournament__in=tournaments).delete()
        for tournament in tournaments:
            _write_results(season, tournament)
        _write_lines(season)


def seasons_counting(tournament: Tournament) -> list[int]:
    """The seasons that count the tournament now, or counted it at their last projection."""
    leagues = LeagueClub.objects.filter(club_id=tournament.club_id, status=LeagueClub.ACCEPTED).values(
        "league_id"
    )
    candidates = Season.objects.filter(Q(club_id=tournament.club_id) | Q(league_id__in=leagues))
    ids = [s.pk for s in candidates if counted(s).filter(pk=tournament.pk).exists()]
    ids += SeasonResult.objects.filter(tournament=tournament).values_list("season_id", flat=True)
    return sorted(set(ids))


def refresh_tournament(tournament_id: int) -> list[int]:
    """The tournament's share of every season counting it, and those seasons' lines;
    idempotent. The seasons refreshed."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return []
    refreshed = seasons_counting(tournament)
    for season_id in refreshed:
        with transaction.atomic():
            season = Season.objects.select_for_update().get(pk=season_id)
            if counted(season).filter(pk=tournament.pk).exists():
                _write_results(season, tournament)
            else:
                SeasonResult.objects.filter(season=season, tournament=tournament).delete()
            _write_lines(season)
    return refreshed


def rebuild() -> int:
    """Every season projected from scratch; how many."""
    ids = list(Season.objects.values_list("pk", flat=True))
    for season_id in ids:
        project_season(season_id)
    return len(ids)


@shared_task(name="tournaments.refresh_seasons", ignore_result=True)
def refresh_seasons_task(tournament_id: int) -> list[int]:
    return refresh_tournament(tournament_id)


def refresh_after_commit(tournament_id: int) -> None:
    """Queue the seasons' refresh once the caller's transaction commits (a ruling's preview
    rolls back, and queues nothing)."""
    transaction.on_commit(lambda: refresh_seasons_task.delay(tournament_id))


def after_event(tournament: Tournament, event_type: str) -> None:
    """The tournament log's hook: the events after which a season may read it differently."""
    if event_type in EVENTS:
        refresh_after_commit(tournament.pk)


__all__ = [
    "EVENTS",
    "after_event",
    "player_key",
    "project_season",
    "rebuild",
    "refresh_after_commit",
    "refresh_seasons_task",
    "refresh_tournament",
    "seasons_counting",
]
