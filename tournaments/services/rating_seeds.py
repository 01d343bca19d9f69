"""Seeding by platform rating: the organisers fill their entries' seeding ratings from the
players' platform ratings (through the write path's `set_rating`, each change logged), then
seed by rating as with ratings they typed. Entries with no platform rating keep theirs."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.clubs.roles import require_role
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Membership, Tournament
from tournaments.ratings.reading import entry_ratings
from tournaments.services.entries import set_rating


def fill_ratings(tournament_id: int, by: Any) -> list[dict[str, Any]]:
    """Set every entry's seeding rating to its platform rating where it has one; the
    entries' ratings after it (`reading.entry_ratings`)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("No such tournament."))
    require_role(by, tournament.club_id, Membership.MANAGERS)
    if tournament.status != Tournament.REGISTRATION:
        raise TournamentError(
            "registration-closed", _("Seeding ratings are fixed once the tournament starts.")
        )
    with transaction.atomic():
        for row in entry_ratings(tournament):
            if row["platform_rating"] is not None and row["seeding_rating"] != row["platform_rating"]:
                set_rating(row["entry"], by, row["platform_rating"])
    return entry_ratings(tournament)
