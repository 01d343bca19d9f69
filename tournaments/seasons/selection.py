"""Which tournaments a season counts, in its order of evenings, and its scoring.

A season counts the tournaments picked (`selection` "picked": of the club, or of the
league's member clubs) or every tournament of the club (of the member clubs) that started
within its dates ("dates"); never the final drawn from it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from tournaments.errors import NotFound
from tournaments.models import Tournament
from tournaments.seasons import leagues
from tournaments.seasons.models import Season, SeasonTournament
from tournaments.seasons.scoring import Scoring


def get_season(season_id: Any) -> Season:
    season = Season.objects.filter(pk=season_id).first() if plain_digits(season_id) else None
    if season is None:
        raise NotFound(_("No such season."))
    return season


def clubs_of(season: Season) -> list[int]:
    """The clubs whose tournaments may count: the club, or the league's member clubs."""
    return [season.club_id] if season.club_id else leagues.member_clubs(season.league_id)


def counted(season: Season) -> QuerySet[Tournament]:
    """The season's tournaments, finished or not, in the season's order of evenings (by
    start, then creation)."""
    hosts = clubs_of(season)
    if season.selection == Season.PICKED:
        tournaments = Tournament.objects.filter(
            pk__in=SeasonTournament.objects.filter(season=season).values("tournament_id"), club_id__in=hosts
        )
    else:
        start = dt.datetime.combine(season.starts_on, dt.time.min, tzinfo=timezone.get_current_timezone())
        end = dt.datetime.combine(
            season.ends_on + dt.timedelta(days=1), dt.time.min, tzinfo=timezone.get_current_timezone()
        )
        when = Q(started_at__gte=start, started_at__lt=end) | Q(
            started_at__isnull=True, created_at__gte=start, created_at__lt=end
        )
        tournaments = Tournament.objects.filter(when, club_id__in=hosts)
    if season.final_id:
        tournaments = tournaments.exclude(pk=season.final_id)
    return tournaments.order_by("started_at", "created_at", "pk")


def scoring_of(season: Season) -> Scoring:
    return Scoring(tuple(float(p) for p in season.points), float(season.participation), season.best_of)


__all__ = ["clubs_of", "counted", "get_season", "scoring_of"]
