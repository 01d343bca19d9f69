"""`GET /api/matches/<id>/tournament`: where a match sits in its tournament, for the match
page's end screen (the tournament, round and table, the caller's next match, the places)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from cacho.services import matches
from tests.tournaments.helpers import club_with_organiser, seat_named
from tournaments.models import Table
from tournaments.services import create_tournament, register, start_tournament
from tournaments.services.standings import standing_rows

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]

STAGES = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]


def test_a_casual_match_and_an_unknown_id_have_no_tournament(make_user: Any) -> None:
    match = matches.create_match("dudo", ["ana", "beto"], turn_seconds=30)
    for match_id in (str(match.pk), "not-a-uuid"):
        answer = APIClient().get(f"/api/matches/{match_id}/tournament")
        assert answer.status_code == 200 and answer.json() == {"tournament": None}


def test_a_table_names_its_tournament_and_no_next_match_before_the_next_round(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user, "links")
    tournament = create_tournament(club.pk, owner, name="Copa", ruleset="dudo", stages=STAGES)
    ana = make_user("ana")
    register(tournament.pk, owner, name="ana", user=ana)
    register(tournament.pk, owner, name="beto", user=make_user("beto"))
    start_tournament(tournament.pk, owner)
    table = Table.objects.get(round__tournament=tournament)
    client = APIClient()
    client.force_authenticate(ana)
    body = client.get(f"/api/matches/{table.match_id}/tournament").json()
    assert body["tournament"] == {"id": tournament.pk, "name": "Copa", "status": "running"}
    assert (body["round"], body["table"], body["table_status"]) == (1, 1, "playing")
    assert body["next_match"] is None and body["placements"] == []


@pytest.mark.django_db(transaction=True)  # the table's result is recorded after the match's commit
def test_a_finished_table_brings_the_standings_it_changed_with_the_viewers_own_row(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user, "links")
    tournament = create_tournament(club.pk, owner, name="Copa", ruleset="dudo", stages=STAGES)
    names = ("ana", "beto", "caro", "dani", "eva", "fito", "gabi", "hugo")
    users = {name: make_user(name) for name in names}
    for name in names:
        register(tournament.pk, owner, name=name, user=users[name])
    start_tournament(tournament.pk, owner)
    table = Table.objects.get(round__tournament=tournament, seats__entry__name="ana")
    matches.submit(table.match_id, seat_named(table.match_id, "ana"), {"type": "abandon"}, "links-ana-leaves")
    last = standing_rows(tournament, 1)[-1]["name"]  # the viewer: whoever stands last now
    client = APIClient()
    client.force_authenticate(users[last])
    body = client.get(f"/api/matches/{table.match_id}/tournament").json()
    assert body["table_status"] == "finished"
    shown = body["standings"]
    assert shown["stage"] == {"number": 1, "name": "swiss"} and shown["count"] == 8
    rows = shown["rows"]
    assert len(rows) == 6 and rows[-1]["name"] == last and rows[-1]["mine"] is True
    assert [row["mine"] for row in rows[:5]] == [False] * 5
    assert [row["name"] for row in rows[:5]] == [row["name"] for row in standing_rows(tournament, 1)[:5]]
    assert set(rows[0]) == {"position", "rank", "entry", "name", "played", "points", "mine"}
    assert [row["position"] for row in rows] == [0, 1, 2, 3, 4, 7]
    # a spectator sees the leaders only; a playing table shows no standings yet
    public = APIClient().get(f"/api/matches/{table.match_id}/tournament").json()["standings"]
    assert [row["mine"] for row in public["rows"]] == [False] * 5
    playing = Table.objects.filter(round__tournament=tournament, status=Table.PLAYING).first()
    assert APIClient().get(f"/api/matches/{playing.match_id}/tournament").json()["standings"] is None
