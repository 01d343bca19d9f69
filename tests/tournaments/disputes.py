"""A club evening for the dispute tests: an organiser, a club referee, four players with
accounts in a two-round Swiss of 1v1 Dudo tables, started."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import club_with_organiser
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Membership, Table, Tournament
from tournaments.services import create_tournament, register, start_tournament

TWO_ROUNDS_1V1 = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]


@dataclass
class Club:
    tournament: Tournament
    organiser: Any
    referee: Any
    players: dict[str, Any]

    def client(self, user: Any) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    def table_of(self, player: str, number: int = 1) -> Table:
        return Table.objects.get(
            round__tournament=self.tournament, round__number=number, seats__entry__name=player
        )

    def opponent(self, player: str) -> Any:
        """Ana's opponent at round 1 (the draw decides who)."""
        names = self.table_of(player).seats.values_list("entry__name", flat=True)
        return self.players[next(name for name in names if name != player)]

    def elsewhere(self, player: str) -> Any:
        """A player of round 1's other table."""
        names = set(self.table_of(player).seats.values_list("entry__name", flat=True))
        return self.players[next(name for name in self.players if name not in names)]


@pytest.fixture
def club(make_user: Any) -> Club:
    club, organiser = club_with_organiser(make_user, "disputes")
    referee = make_user("rita")
    add_member(club.pk, referee, Membership.REFEREE, organiser)
    tournament = create_tournament(club.pk, organiser, name="Open", ruleset="dudo", stages=TWO_ROUNDS_1V1)
    players = {name: make_user(name) for name in ("ana", "beto", "caro", "dani")}
    for name, user in players.items():
        register(tournament.pk, organiser, name=name, user=user)
    start_tournament(tournament.pk, organiser)
    return Club(tournament, organiser, referee, players)


__all__ = ["Club", "club", "club_with_organiser"]
