"""A final drawn from a season: its entries are the top N lines of the season's standings,
accounts and guests alike, seeded in that order, in one transaction through the entries'
own write path (`register`, `set_seeds`: each logged in the final's
log). The season then links its final, which it never counts.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from cacho.edge.inputs import plain_digits
from tournaments.clubs.roles import require_role
from tournaments.competition import seeding
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Entry, Membership, Tournament
from tournaments.seasons import seasons
from tournaments.seasons.models import Season, SeasonLine
from tournaments.seasons.projection import project_season
from tournaments.seasons.selection import clubs_of
from tournaments.services.desk import set_seeds
from tournaments.services.entries import register
from tournaments.services.lifecycle import locked


def _name(line: SeasonLine, taken: set[str]) -> str:
    """The line's name, or, when an entry of the final has it already (two players of one
    name across clubs), the name with its account's username, or numbered for a guest."""
    name, n = line.name, 2
    if name.casefold() in taken and line.user is not None:
        name = f"{line.name} ({line.user.get_username()})"[:64]
    while name.casefold() in taken:
        name, n = f"{line.name[:58]} ({n})", n + 1
    taken.add(name.casefold())
    return name


def qualify(season_id: Any, tournament_id: Any, by: Any, count: Any) -> list[Entry]:
    """Register the season's top `count` into the final `tournament_id`, seeded in the
    standings' order. The final is a tournament of the season's club (of a member club of
    the league) still taking registrations and with no entries yet; a cut that would split
    a shared place is refused, naming the counts that do not."""
    season = seasons.get_season(season_id)
    seasons.require_manager(by, season)
    if not plain_digits(tournament_id) or not Tournament.objects.filter(pk=tournament_id).exists():
        raise NotFound(_("No such tournament."))
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise TournamentError(
            "qualify-count-invalid", _("Say how many go to the final, from 1."), field="count"
        )
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        final = locked(int(tournament_id))
        require_role(by, final.club_id, Membership.MANAGERS)
        if season.final_id is not None:
            raise TournamentError("season-final-set", _("This season has drawn its final already."), 409)
        if final.club_id not in clubs_of(season):
            raise TournamentError(
                "final-outside-season",
                _("The final is a tournament of the season's club (or of a member club of its league)."),
                field="tournament",
            )
        if final.status != Tournament.REGISTRATION:
            raise TournamentError("registration-closed", _("The final has started already."), 409)
        if final.entries.exists():
            raise TournamentError(
                "final-has-entries",
                _("The final already has entries: draw the season's top into an empty tournament."),
                409,
            )
        if final.seeding != seeding.MANUAL:
            raise TournamentError(
                "final-not-manual",
                _("Create the final with manual seeding: the season's order seeds it."),
                field="tournament",
            )
        lines = list(SeasonLine.objects.filter(season=season).select_related("user").order_by("position"))
        if count > len(lines):
            raise TournamentError(
                "qualify-count-invalid",
                _("The season's standings have %(n)s players: draw at most %(n)s.") % {"n": len(lines)},
                field="count",
            )
        if count < len(lines) and lines[count - 1].rank == lines[count].rank:
            shared = lines[count].rank
            below = next((line.position - 1 for line in lines if line.rank == shared), count)
            above = next((line.position - 1 for line in lines[count:] if line.rank != shared), len(lines))
            raise TournamentError(
                "qualify-tie-at-cut",
                _(
                    "Place %(place)s is shared, so a final of %(count)s splits it: draw %(below)s or "
                    "%(above)s instead."
                )
                % {"place": shared, "count": count, "below": below, "above": above},
                field="count",
            )
        taken: set[str] = set()
        entries = [register(final.pk, by, name=_name(line, taken), user=line.user) for line in lines[:count]]
        set_seeds(final.pk, by, [e.pk for e in entries])
        season.final, season.qualified = final, count
        season.save(update_fields=["final", "qualified"])
        project_season(season.pk)
    return entries


__all__ = ["qualify"]
