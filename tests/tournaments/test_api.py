"""The tournaments API: role permissions, error codes, exports (CSV, XLSX, JSON, print page)."""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import openpyxl
import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import club_with_organiser, register_bots
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Membership, Tournament
from tournaments.services import create_tournament, start_tournament, sweep
from tournaments.services.bots import play_bots_until_stuck

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]

STAGES = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 3}}]


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_roles_on_the_api(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user, "mine")
    other_club, _other_owner = club_with_organiser(make_user, "theirs")
    player = make_user("player")
    add_member(club.pk, player, Membership.PLAYER, player)
    body = {"club": other_club.pk, "name": "Mine now", "ruleset": "dudo", "stages": STAGES}
    denied = client_for(player).post("/api/tournaments", body, format="json")
    assert denied.status_code == 403 and denied.json()["code"] == "forbidden"
    as_player_here = client_for(player).post("/api/tournaments", {**body, "club": club.pk}, format="json")
    assert as_player_here.status_code == 403
    organiser = make_user("organiser")
    add_member(club.pk, organiser, Membership.ORGANISER, owner)
    created = client_for(organiser).post("/api/tournaments", {**body, "club": club.pk}, format="json")
    assert created.status_code == 201, created.json()
    tournament_id = created.json()["id"]
    assert len(created.json()["draw_commitment"]) == 64
    mine = client_for(player).post(
        f"/api/tournaments/{tournament_id}/entries", {"name": "Ana"}, format="json"
    )
    assert mine.status_code == 201 and mine.json()["user"] == player.pk
    stranger = make_user("stranger")
    for_other = client_for(player).post(
        f"/api/tournaments/{tournament_id}/entries",
        {"name": "Beto", "username": stranger.username},
        format="json",
    )
    assert for_other.status_code == 403 and for_other.json()["code"] == "forbidden"
    start = client_for(player).post(f"/api/tournaments/{tournament_id}/start", {}, format="json")
    assert start.status_code == 403
    anonymous = APIClient().post("/api/tournaments", body, format="json")
    assert anonymous.status_code in (401, 403) and "code" in anonymous.json()
    joined = client_for(stranger).post(
        f"/api/clubs/{club.pk}/members", {"username": stranger.username, "role": "organiser"}, format="json"
    )
    assert joined.status_code == 403


def test_bad_input_gives_codes_not_500(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user)
    client = client_for(owner)
    cases = [
        ({"club": club.pk, "name": "x", "ruleset": "chess"}, "ruleset-unknown"),
        (
            {"club": club.pk, "name": "x", "ruleset": "dudo", "stages": [{"format": "knockout"}]},
            "stage-format",
        ),
        (
            {"club": club.pk, "name": "x", "ruleset": "dudo", "standings": {"tiebreaks": ["luck"]}},
            "tiebreak-unknown",
        ),
        ({"club": club.pk, "name": "x", "ruleset": "dudo", "options": {"nope": 1}}, "options-invalid"),
        ({"club": club.pk, "name": "x", "ruleset": "dudo", "standings": {"fixed": ["a"]}}, "fixed-invalid"),
        ({"club": club.pk, "name": "x", "ruleset": "dudo", "standings": {"scale": "fixed"}}, "fixed-invalid"),
        ({"club": "abc", "name": "x", "ruleset": "dudo"}, "invalid-input"),
        ({"club": club.pk, "name": "x", "ruleset": "dudo", "turn_seconds": 1}, "turn-seconds-invalid"),
    ]
    for body, code in cases:
        response = client.post("/api/tournaments", body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert response.json()["code"] == code
    assert client.get("/api/tournaments/xyz").status_code == 404
    assert client.post("/api/entries/abc/withdraw").json()["code"] == "not-found"
    malformed = client.generic("POST", "/api/tournaments", "{not json", content_type="application/json")
    assert malformed.status_code == 400 and malformed.json()["code"] == "malformed-request"


def test_exports_are_stamped_with_the_log_head(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user)
    tournament = create_tournament(club.pk, owner, name="Export", ruleset="dudo", stages=STAGES)
    register_bots(tournament, owner, 6)
    start_tournament(tournament.pk, owner)
    play_bots_until_stuck(tournament, random.Random(11))
    sweep()  # one test transaction: no after-commit work, the safety net records the tables
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED
    client = APIClient()
    base = f"/api/tournaments/{tournament.pk}/standings"

    data = client.get(base).json()
    assert data["head_hash"] == tournament.head_hash and data["generated_at"]
    assert data["metadata"]["head_hash"] == tournament.head_hash
    assert data["metadata"]["log_version"] == tournament.version == data["log_version"]
    assert len(data["standings"]) == 6 and len(data["final_ranking"]) == 6
    assert data["standings"][0]["rank"] == 1
    ranking = [item["name"] for item in data["final_ranking"]]

    # The CSV: one table, the header row first, the final ranking best first; the log head
    # in the file name (the rest of the stamp is in the JSON, the XLSX and the page).
    csv_response = client.get(f"{base}/csv", HTTP_ACCEPT_LANGUAGE="en")
    assert tournament.head_hash[:12] in csv_response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(csv_response.content.decode("utf-8-sig"))))
    assert rows[0][:2] == ["Place", "Entry"] and len(rows) == 7
    assert [r[1] for r in rows[1:]] == ranking
    assert rows[1][0] == "1"

    book = openpyxl.load_workbook(io.BytesIO(client.get(f"{base}/xlsx", HTTP_ACCEPT_LANGUAGE="en").content))
    assert book.sheetnames == ["Ranking", "1. swiss", "Metadata"]
    values = list(book.worksheets[0].iter_rows(values_only=True))
    assert len(values) == 7 and values[1][:2] == (1, ranking[0])
    metadata = book["Metadata"]
    assert tournament.head_hash in [row[1] for row in metadata.iter_rows(values_only=True)]

    page = client.get(f"{base}/print")
    assert page.status_code == 200 and tournament.head_hash in page.content.decode()
    assert b"tournaments/standings_print.css" in page.content  # its print styles (no inline style: CSP)


def test_schema_documents_the_tournament_api() -> None:
    response = APIClient().get("/api/schema/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "/api/tournaments/{id}/standings/csv" in text and "/api/entries/{id}/check-in" in text


def test_management_commands(make_user: Any) -> None:
    from django.core.management import call_command

    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=out)  # idempotent: the same three tournaments
    assert Tournament.objects.filter(club__slug="demo", status=Tournament.RUNNING).count() == 2
    assert Tournament.objects.filter(club__slug="demo", status=Tournament.FINISHED).count() == 1
    call_command("rebuild_tournament_projections", stdout=out)
    assert "3 tournament(s)" in out.getvalue()
