"""Creating and editing a season, and which tournaments it counts.

A club's season is run by the club's owners and organisers, a league's by the league's.
A season counts the tournaments picked (`selection` "picked": of the club, or of the
league's member clubs) or every tournament of the club (of the member clubs) that started
within its dates ("dates"); never the final drawn from it. Every edit projects the season
again (`projection.project_season`).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from tournaments.clubs.roles import has_role
from tournaments.errors import Forbidden, NotFound, TournamentError
from tournaments.models import Club, Membership, Tournament
from tournaments.seasons import leagues
from tournaments.seasons.models import DEFAULT_POINTS, League, Season, SeasonTournament
from tournaments.seasons.projection import project_season
from tournaments.seasons.selection import clubs_of, counted, get_season, scoring_of

MAX_PLACES = 200


def manages(user: Any, season: Season) -> bool:
    if season.club_id:
        return has_role(user, season.club_id, Membership.MANAGERS)
    return leagues.manages(user, season.league_id)


def require_manager(user: Any, season: Season) -> None:
    if not manages(user, season):
        raise Forbidden(_("Only the organisers of the season's club or league can do this."))


# ---------------------------------------------------------------- input checks


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and 0 <= value <= 10_000 else None


def _points(value: Any) -> list[float | int]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_PLACES:
        raise TournamentError(
            "points-invalid", _("Give the points of each place, 1st first (1 to 200 places)."), field="points"
        )
    out: list[float | int] = []
    for i, item in enumerate(value):
        number = _number(item)
        if number is None:
            raise TournamentError(
                "points-invalid",
                _("The points of place %(n)s are a number from 0 to 10000.") % {"n": i + 1},
                field=f"points[{i}]",
            )
        out.append(int(number) if number.is_integer() else number)
    return out


def _date(value: Any, field: str) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise TournamentError("date-invalid", _("A date is written YYYY-MM-DD."), field=field) from None


def _clean(season: Season, changes: dict[str, Any]) -> None:
    if "name" in changes:
        name = str(changes["name"] or "").strip()
        if not name or len(name) > 160:
            raise TournamentError(
                "name-missing", _("A season has a name of at most 160 characters."), field="name"
            )
        season.name = name
    if "starts_on" in changes:
        season.starts_on = _date(changes["starts_on"], "starts_on")
    if "ends_on" in changes:
        season.ends_on = _date(changes["ends_on"], "ends_on")
    if season.ends_on < season.starts_on:
        raise TournamentError(
            "dates-invalid", _("The season ends on or after its first day."), field="ends_on"
        )
    if "selection" in changes:
        if changes["selection"] not in (Season.PICKED, Season.DATES):
            raise TournamentError(
                "selection-invalid",
                _("Choose the tournaments picked or every tournament in the dates."),
                field="selection",
            )
        season.selection = changes["selection"]
    if "points" in changes:
        season.points = _points(changes["points"])
    if "participation" in changes:
        number = _number(changes["participation"])
        if number is None:
            raise TournamentError(
                "participation-invalid",
                _("Participation points are a number from 0 to 10000."),
                field="participation",
            )
        season.participation = number
    if "best_of" in changes:
        best = changes["best_of"]
        if best is not None and (
            isinstance(best, bool) or not isinstance(best, int) or not 1 <= best <= 1000
        ):
            raise TournamentError(
                "best-of-invalid",
                _("Count the best 1 to 1000 evenings, or leave it empty for all."),
                field="best_of",
            )
        season.best_of = best


def _pick(season: Season, ids: Sequence[Any]) -> None:
    if not isinstance(ids, list | tuple) or not all(plain_digits(i) for i in ids):
        raise TournamentError("tournaments-invalid", _("List the tournaments by id."), field="tournaments")
    wanted = {int(i) for i in ids}
    hosts = clubs_of(season)
    found = set(Tournament.objects.filter(pk__in=wanted, club_id__in=hosts).values_list("pk", flat=True))
    if found != wanted:
        raise TournamentError(
            "tournament-outside-season",
            _("Only tournaments of the season's club (or the league's member clubs) can count: %(ids)s.")
            % {"ids": ", ".join(str(i) for i in sorted(wanted - found))},
            field="tournaments",
        )
    SeasonTournament.objects.filter(season=season).exclude(tournament_id__in=wanted).delete()
    for tournament_id in sorted(wanted):
        SeasonTournament.objects.get_or_create(season=season, tournament_id=tournament_id)


EDITABLE = ("name", "starts_on", "ends_on", "selection", "points", "participation", "best_of")


def create_season(by: Any, *, club: Any = None, league: Any = None, **fields: Any) -> Season:
    """A club's season (its owners and organisers) or a league's (the league's); the
    scoring defaults to 25-18-15-12-10-8-6-4-2-1, no participation points, every evening."""
    if (club is None) == (league is None):
        raise TournamentError("season-owner", _("A season belongs to one club or one league."))
    tournaments = fields.pop("tournaments", None)
    unknown = sorted(set(fields) - set(EDITABLE))
    if unknown:
        raise TournamentError("field-unknown", _("Unknown fields: %s") % ", ".join(unknown))
    season = Season(points=list(DEFAULT_POINTS), created_by=by)
    if club is not None:
        season.club = Club.objects.filter(pk=club).first() if plain_digits(club) else None
        if season.club is None:
            raise NotFound(_("No such club."))
    else:
        season.league = League.objects.filter(pk=league).first() if plain_digits(league) else None
        if season.league is None:
            raise NotFound(_("No such league."))
    require_manager(by, season)
    for required in ("name", "starts_on", "ends_on"):
        if required not in fields:
            raise TournamentError("field-missing", _("A season needs %s.") % required, field=required)
    _clean(season, fields)
    with transaction.atomic():
        season.save()
        if tournaments is not None:
            _pick(season, tournaments)
        project_season(season.pk)
    return season


def update_season(season_id: Any, by: Any, **changes: Any) -> Season:
    """Edit the dates, the selection, the picked tournaments or the scoring; the standings
    are projected again at once."""
    season = get_season(season_id)
    require_manager(by, season)
    tournaments = changes.pop("tournaments", None)
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise TournamentError("field-unknown", _("Unknown fields: %s") % ", ".join(unknown))
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        _clean(season, changes)
        season.save()
        if tournaments is not None:
            _pick(season, tournaments)
        project_season(season.pk)
    return season


__all__ = [
    "EDITABLE",
    "clubs_of",
    "counted",
    "create_season",
    "get_season",
    "manages",
    "require_manager",
    "scoring_of",
    "update_season",
]
