"""League referees: who, beyond the host club's own, rules on a tournament's disputes."""

from __future__ import annotations

from typing import Any

from tournaments.models import Tournament
from tournaments.seasons.models import LeagueClub, LeagueRole, Season
from tournaments.seasons.selection import counted


def referees_tournament(user: Any, tournament: Tournament | int) -> bool:
    """A referee (or organiser, owner) of a league one of whose seasons counts this
    tournament, hosted by a member club, or drew it as its final: they rule on its disputes
    as the club's referees do."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    leagues = list(
        LeagueRole.objects.filter(user=user, role__in=LeagueRole.REFEREES).values_list("league_id", flat=True)
    )
    if not leagues:
        return False
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else int(tournament)
    club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    member_of = LeagueClub.objects.filter(
        league_id__in=leagues, club_id=club_id, status=LeagueClub.ACCEPTED
    ).values_list("league_id", flat=True)
    return any(
        season.final_id == tournament_id or counted(season).filter(pk=tournament_id).exists()
        for season in Season.objects.filter(league_id__in=list(member_of))
    )


__all__ = ["referees_tournament"]
