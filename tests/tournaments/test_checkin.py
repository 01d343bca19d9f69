"""Check-in through the API: who may check an entry in, the deadline, and that only the
entries checked in are paired when the tournament starts (the others are no-shows)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.tournaments.helpers import club_with_organiser
from tournaments.models import Entry, Tournament, TournamentEvent

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]

STAGES = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _tournament(organiser: APIClient, club_id: int, deadline: dt.datetime | None) -> dict[str, Any]:
    body: dict[str, Any] = {"club": club_id, "name": "Copa", "ruleset": "dudo", "stages": STAGES}
    if deadline is not None:
        body["checkin_deadline"] = deadline.isoformat()
    created = organiser.post("/api/tournaments", body, format="json")
    assert created.status_code == 201, created.json()
    result: dict[str, Any] = created.json()
    return result


def test_only_checked_in_entries_are_paired(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user, "checkin")
    organiser = client_for(owner)
    t = _tournament(organiser, club.pk, timezone.now() + dt.timedelta(hours=1))
    players = {name: make_user(name) for name in ("ana", "beto", "carla", "dario", "eva")}
    entries = {}
    for name, user in players.items():
        made = client_for(user).post(f"/api/tournaments/{t['id']}/entries", {"name": name}, format="json")
        assert made.status_code == 201, made.json()
        entries[name] = made.json()["id"]

    # a player checks themself in; an organiser checks others in; a stranger may not
    mine = client_for(players["ana"]).post(f"/api/entries/{entries['ana']}/check-in")
    assert mine.status_code == 200 and mine.json()["status"] == "checked_in" and mine.json()["checked_in_at"]
    again = client_for(players["ana"]).post(f"/api/entries/{entries['ana']}/check-in")
    assert again.status_code == 200  # idempotent
    other = client_for(players["beto"]).post(f"/api/entries/{entries['carla']}/check-in")
    assert other.status_code == 403 and other.json()["code"] == "forbidden"
    anonymous = APIClient().post(f"/api/entries/{entries['carla']}/check-in")
    assert anonymous.status_code in (401, 403)
    for name in ("beto", "carla"):
        assert organiser.post(f"/api/entries/{entries[name]}/check-in").status_code == 200
    assert TournamentEvent.objects.filter(tournament_id=t["id"], type="checked-in").count() == 3

    # the start is refused while check-in is open
    early = organiser.post(f"/api/tournaments/{t['id']}/start", {}, format="json")
    assert early.status_code == 400 and early.json()["code"] == "checkin-open"

    # the deadline passes: check-in closes, the start drops the no-shows
    Tournament.objects.filter(pk=t["id"]).update(checkin_deadline=timezone.now() - dt.timedelta(seconds=1))
    late = client_for(players["dario"]).post(f"/api/entries/{entries['dario']}/check-in")
    assert late.status_code == 400 and late.json()["code"] == "checkin-closed"
    started = organiser.post(f"/api/tournaments/{t['id']}/start", {}, format="json")
    assert started.status_code == 200, started.json()

    listed = {e["name"]: e["status"] for e in organiser.get(f"/api/tournaments/{t['id']}/entries").json()}
    assert listed == {
        "ana": "active",
        "beto": "active",
        "carla": "active",
        "dario": "no_show",
        "eva": "no_show",
    }
    rounds = organiser.get(f"/api/tournaments/{t['id']}/rounds").json()
    assert len(rounds) == 1
    seated = {seat["name"] for table in rounds[0]["tables"] for seat in table["seats"]}
    bye_ids = {int(b) for b in rounds[0]["byes"]}
    byes = {name for name, pk in entries.items() if pk in bye_ids}
    assert seated | byes == {"ana", "beto", "carla"}
    assert not seated & {"dario", "eva"}
    dropped = TournamentEvent.objects.get(tournament_id=t["id"], type="no-shows-dropped")
    assert sorted(dropped.payload["entries"]) == sorted([entries["dario"], entries["eva"]])
    assert Entry.objects.filter(tournament_id=t["id"], status=Entry.NO_SHOW).count() == 2


def test_without_a_deadline_there_is_no_check_in_and_everyone_plays(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user, "open")
    organiser = client_for(owner)
    t = _tournament(organiser, club.pk, None)
    ids = []
    for i in range(4):
        body = {"name": f"P{i}", "username": make_user(f"p{i}").username}
        made = organiser.post(f"/api/tournaments/{t['id']}/entries", body, format="json")
        assert made.status_code == 201, made.json()
        ids.append(made.json()["id"])
    refused = organiser.post(f"/api/entries/{ids[0]}/check-in")
    assert refused.status_code == 400 and refused.json()["code"] == "checkin-not-required"
    assert organiser.post(f"/api/tournaments/{t['id']}/start", {}, format="json").status_code == 200
    rounds = organiser.get(f"/api/tournaments/{t['id']}/rounds").json()
    seated = {seat["entry"] for table in rounds[0]["tables"] for seat in table["seats"]}
    assert seated == set(ids)
