"""Results flow from the match's own commit; a tournament whose result cannot be recorded
has the failure noted on it (its organisers see it in the API), never stops the others,
and the sweep records it once the cause is gone."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from rest_framework.test import APIClient

from cacho.services import matches as match_service
from tests.tournaments.helpers import club_with_organiser
from tournaments.models import Round, Table, TableSeat, Tournament
from tournaments.services import create_tournament, register, start_tournament, sweep

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

_commands = itertools.count(1)
ONE_ROUND_1V1 = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]


def four_players(organiser: Any, club_id: int, name: str) -> Tournament:
    tournament = create_tournament(club_id, organiser, name=name, ruleset="dudo", stages=ONE_ROUND_1V1)
    for player in ("ana", "beto", "caro", "dani"):
        register(tournament.pk, organiser, name=player)
    start_tournament(tournament.pk, organiser)
    return tournament


def end_round(tournament: Tournament) -> None:
    for table in Table.objects.filter(round__tournament=tournament, status=Table.PLAYING):
        leaver = table.seats.order_by("index").last().entry.name
        match_service.submit(table.match_id, leaver, {"type": "abandon"}, f"flow-{next(_commands)}")


def test_one_broken_tournament_does_not_stop_the_others(make_user: Any) -> None:
    club, organiser = club_with_organiser(make_user)
    broken, healthy = four_players(organiser, club.pk, "Broken"), four_players(organiser, club.pk, "Healthy")
    # Somebody damaged a row by hand: one table's seat no longer says where it sits in its match.
    seat = TableSeat.objects.filter(table__round__tournament=broken).first()
    TableSeat.objects.filter(pk=seat.pk).update(match_seat=None)

    end_round(broken)
    end_round(healthy)
    assert Round.objects.filter(tournament=healthy).count() == 2  # drawn at once, from the commits
    assert Round.objects.filter(tournament=broken).count() == 1
    broken.refresh_from_db()
    assert broken.projection_error.startswith("result: KeyError")
    seen = APIClient()
    seen.force_authenticate(organiser)
    assert seen.get(f"/api/tournaments/{broken.pk}").json()["problem"]["message"] == broken.projection_error
    assert APIClient().get(f"/api/tournaments/{broken.pk}").json()["problem"] is None  # organisers only

    assert sweep() == 0  # retried: still broken, still noted
    TableSeat.objects.filter(pk=seat.pk).update(match_seat=seat.match_seat)
    assert sweep() == 1  # the cause is gone: the sweep records the table and draws round 2
    broken.refresh_from_db()
    assert broken.projection_error == "" and Round.objects.filter(tournament=broken).count() == 2
