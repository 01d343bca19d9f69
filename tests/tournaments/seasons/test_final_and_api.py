"""A season's final drawn in one step, its API (OpenAPI, refusals that store nothing) and its
exports, which open with openpyxl and hold what the JSON holds."""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

import pytest
from django.utils import timezone
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.tournaments.helpers import club_with_organiser
from tests.tournaments.seasons.helpers import evening, one_table
from tournaments.models import Entry, Tournament, TournamentEvent
from tournaments.seasons.models import Season, SeasonLine
from tournaments.services import create_tournament, register

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

TODAY = timezone.localdate()


def client(user: Any) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def a_season(make_user: Any, slug: str = "jueves") -> tuple[Any, Any, Season, dict[str, Any]]:
    """Three evenings, best 2 of 3: Ana and Beto have accounts, Caro, Dani and Eva are guests."""
    club, organiser = club_with_organiser(make_user, slug)
    users = {"Ana": make_user(f"ana-{slug}"), "Beto": make_user(f"beto-{slug}")}
    answer = client(organiser).post(
        "/api/seasons",
        {
            "club": club.pk,
            "name": "Jueves de Cacho 2026",
            "starts_on": (TODAY - dt.timedelta(days=1)).isoformat(),
            "ends_on": (TODAY + dt.timedelta(days=60)).isoformat(),
            "best_of": 2,
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["points"] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    season = Season.objects.get(pk=answer.json()["id"])
    evening(club, organiser, "Jueves 1", {"Ana": 1, "Caro": 2, "Beto": 3, "Dani": 3, "Eva": 5}, users)
    evening(club, organiser, "Jueves 2", {"Caro": 1, "Ana": 2, "Eva": 3, "Beto": 4, "Dani": 4}, users)
    evening(club, organiser, "Jueves 3", {"Eva": 1, "Beto": 2, "Dani": 2, "Caro": 4, "Ana": 5}, users)
    return club, organiser, season, users


def test_the_top_four_are_drawn_into_the_final_in_one_step_seeded_in_order(make_user: Any) -> None:
    club, organiser, season, users = a_season(make_user)
    order = list(SeasonLine.objects.filter(season=season).order_by("position").values_list("name", "rank"))
    # best 2 of 3: Caro 18+25, Ana 25+18 (Caro has a 4th place, Ana none), Eva 15+25, then
    # Beto and Dani 15+18 with the same place every evening: they share 4th
    assert order[:3] == [("Caro", 1), ("Ana", 2), ("Eva", 3)]
    assert sorted(order[3:]) == [("Beto", 4), ("Dani", 4)]
    final = create_tournament(
        club.pk, organiser, name="Gran final", ruleset="dudo", stages=one_table(3), seeding_method="manual"
    )
    events = TournamentEvent.objects.filter(tournament=final).count()

    # a cut through a shared place is refused, naming the counts that do not split it
    refused = client(organiser).post(f"/api/seasons/{season.pk}/final", {"tournament": final.pk, "count": 4})
    assert refused.status_code == 400 and refused.json()["code"] == "qualify-tie-at-cut", refused.json()
    assert "3" in refused.json()["message"] and "5" in refused.json()["message"]
    assert refused.json()["field"] == "count"
    player = client(users["Ana"]).post(
        f"/api/seasons/{season.pk}/final", {"tournament": final.pk, "count": 3}
    )
    assert player.status_code == 403
    assert TournamentEvent.objects.filter(tournament=final).count() == events  # nothing stored
    assert not Entry.objects.filter(tournament=final).exists()

    drawn = client(organiser).post(f"/api/seasons/{season.pk}/final", {"tournament": final.pk, "count": 3})
    assert drawn.status_code == 200, drawn.json()
    assert [(e["name"], e["seed"]) for e in drawn.json()["entries"]] == [("Caro", 1), ("Ana", 2), ("Eva", 3)]
    entries = list(Entry.objects.filter(tournament=final).order_by("seed"))
    assert [(e.name, e.seed, e.user_id) for e in entries] == [
        ("Caro", 1, None),  # a guest, by name
        ("Ana", 2, users["Ana"].pk),  # an account
        ("Eva", 3, None),
    ]
    types = list(TournamentEvent.objects.filter(tournament=final).values_list("type", flat=True))
    assert types[-4:] == ["registered", "registered", "registered", "seeds-set"]
    season.refresh_from_db()
    assert season.final_id == final.pk and season.qualified == 3
    page = client(None).get(f"/seasons/{season.pk}/")
    assert page.status_code == 200 and f'href="/tournaments/{final.pk}/"' in page.content.decode()
    again = client(organiser).post(f"/api/seasons/{season.pk}/final", {"tournament": final.pk, "count": 3})
    assert again.status_code == 409 and again.json()["code"] == "season-final-set"


def test_a_final_must_be_empty_seeded_by_hand_and_of_the_club(make_user: Any) -> None:
    club, organiser, season, _ = a_season(make_user, "rules")
    drawn = create_tournament(club.pk, organiser, name="Drawn", ruleset="dudo", stages=one_table(3))
    answer = client(organiser).post(f"/api/seasons/{season.pk}/final", {"tournament": drawn.pk, "count": 3})
    assert answer.json()["code"] == "final-not-manual"
    full = create_tournament(
        club.pk, organiser, name="Full", ruleset="dudo", stages=one_table(3), seeding_method="manual"
    )
    register(full.pk, organiser, name="Somebody")
    answer = client(organiser).post(f"/api/seasons/{season.pk}/final", {"tournament": full.pk, "count": 3})
    assert answer.status_code == 409 and answer.json()["code"] == "final-has-entries"
    other, other_owner = club_with_organiser(make_user, "other")
    outside = create_tournament(
        other.pk, other_owner, name="Elsewhere", ruleset="dudo", stages=one_table(3), seeding_method="manual"
    )
    answer = client(other_owner).post(
        f"/api/seasons/{season.pk}/final", {"tournament": outside.pk, "count": 3}
    )
    assert answer.status_code == 403  # not an organiser of the season's club
    assert Season.objects.get(pk=season.pk).final_id is None


def test_exports_open_with_openpyxl_and_match_the_json(make_user: Any) -> None:
    _, _, season, _ = a_season(make_user, "exports")
    data = client(None).get(f"/api/seasons/{season.pk}/standings", HTTP_ACCEPT_LANGUAGE="en").json()
    assert [e["name"] for e in data["evenings"]] == ["Jueves 1", "Jueves 2", "Jueves 3"]
    assert all(len(e["head_hash"]) == 64 for e in data["evenings"])
    assert len(data["head_hash"]) == 64
    expected = [
        [
            row["rank"],
            row["name"],
            row["total"],
            row["played"],
            *[v for e in row["evenings"] for v in (e["place"], e["points"])],
        ]
        for row in data["standings"]
    ]

    xlsx = client(None).get(f"/api/seasons/{season.pk}/standings/xlsx", HTTP_ACCEPT_LANGUAGE="en")
    assert xlsx.status_code == 200
    assert f"-{data['head_hash'][:12]}.xlsx" in xlsx["Content-Disposition"]
    book = load_workbook(io.BytesIO(xlsx.content))
    sheet = book.worksheets[0]
    rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert rows[0][:4] == ["Place", "Player", "Points", "Played"]
    assert [r[:10] for r in rows[1:]] == expected
    meta = {r[0]: r[1] for r in book["Metadata"].iter_rows(values_only=True) if r and r[0]}
    assert meta["Stamp"] == data["head_hash"] and meta["Season"] == "Jueves de Cacho 2026"
    assert data["evenings"][0]["head_hash"] in [
        c for r in book["Metadata"].iter_rows(values_only=True) for c in r
    ]

    text = (
        client(None)
        .get(f"/api/seasons/{season.pk}/standings/csv", HTTP_ACCEPT_LANGUAGE="en")
        .content.decode("utf-8-sig")
    )
    parsed = list(csv.reader(io.StringIO(text)))
    assert [[str(v) for v in row] for row in expected] == [r[:10] for r in parsed[1:]]
    # the Spanish export translates its columns
    spanish = client(None).get(f"/api/seasons/{season.pk}/standings/csv", HTTP_ACCEPT_LANGUAGE="es")
    assert spanish.content.decode("utf-8-sig").startswith("Puesto,Jugador")


def test_the_api_refuses_bad_input_and_storing_nothing_and_is_in_the_schema(make_user: Any) -> None:
    club, organiser = club_with_organiser(make_user, "api")
    base = {"club": club.pk, "name": "S", "starts_on": TODAY.isoformat(), "ends_on": TODAY.isoformat()}
    bad = client(organiser).post("/api/seasons", {**base, "points": [25, -1]}, format="json")
    assert bad.status_code == 400
    bad = client(organiser).post("/api/seasons", {**base, "ends_on": "2000-01-01"}, format="json")
    assert (
        bad.status_code == 400 and bad.json()["code"] == "dates-invalid" and bad.json()["field"] == "ends_on"
    )
    stranger = client(make_user("stranger")).post("/api/seasons", base, format="json")
    assert stranger.status_code == 403 and stranger.json()["code"] == "forbidden"
    assert client(None).post("/api/seasons", base, format="json").status_code in (401, 403)
    assert not Season.objects.exists()
    made = client(organiser).post(
        "/api/seasons", {**base, "points": [10, 6, 3], "participation": 1}, format="json"
    )
    assert made.status_code == 201 and made.json()["points"] == [10, 6, 3]
    patched = client(organiser).patch(f"/api/seasons/{made.json()['id']}", {"best_of": 0}, format="json")
    assert patched.status_code == 400
    assert client(None).get("/api/seasons/999999").json()["code"] == "not-found"
    schema = client(None).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/seasons",
        "/api/seasons/{season_id}/standings",
        "/api/seasons/{season_id}/standings/csv",
        "/api/seasons/{season_id}/standings/xlsx",
        "/api/seasons/{season_id}/final",
        "/api/leagues",
        "/api/leagues/{league_id}/clubs",
    ):
        assert path in schema["paths"], path
    assert Tournament.objects.count() == 0


def test_a_league_through_the_api_clubs_accept_and_roles(make_user: Any) -> None:
    north, north_owner = club_with_organiser(make_user, "north-api")
    boss, stranger = make_user("boss"), make_user("stranger")
    made = client(boss).post("/api/leagues", {"name": "Liga"}, format="json")
    assert made.status_code == 201 and made.json()["my_roles"] == ["owner"]
    league = made.json()["id"]
    assert client(stranger).post(f"/api/leagues/{league}/clubs", {"club": north.pk}).status_code == 403
    invited = client(boss).post(f"/api/leagues/{league}/clubs", {"club": north.pk})
    assert invited.status_code == 201 and invited.json()["clubs"] == [
        {"id": north.pk, "name": north.name, "status": "invited"}
    ]
    refused = client(boss).post(f"/api/leagues/{league}/clubs/{north.pk}/accept")
    assert refused.status_code == 403 and refused.json()["code"] == "owner-only"
    accepted = client(north_owner).post(f"/api/leagues/{league}/clubs/{north.pk}/accept")
    assert accepted.status_code == 200 and accepted.json()["clubs"][0]["status"] == "accepted"
    again = client(north_owner).post(f"/api/leagues/{league}/clubs/{north.pk}/decline")
    assert again.status_code == 409 and again.json()["code"] == "invitation-answered"
    granted = client(boss).post(f"/api/leagues/{league}/roles", {"username": "stranger", "role": "organiser"})
    assert granted.status_code == 200 and granted.json()["roles"] == ["organiser"]
    last = client(boss).delete(
        f"/api/leagues/{league}/roles", {"username": "boss", "role": "owner"}, format="json"
    )
    assert last.status_code == 409 and last.json()["code"] == "last-owner"
    # the league's new organiser creates a season of the league: it counts the member club's evenings
    season = client(stranger).post(
        "/api/seasons",
        {
            "league": league,
            "name": "Liga 2026",
            "starts_on": (TODAY - dt.timedelta(days=1)).isoformat(),
            "ends_on": TODAY.isoformat(),
        },
        format="json",
    )
    assert season.status_code == 201, season.json()
    evening(north, north_owner, "North", {"Ana": 1, "Beto": 2})
    standings = client(None).get(f"/api/seasons/{season.json()['id']}/standings").json()
    assert [(row["name"], row["total"]) for row in standings["standings"]] == [("Ana", 25), ("Beto", 18)]
    assert standings["season"]["league"] == {"id": league, "name": "Liga"}


def test_the_season_pages_create_edit_and_speak_spanish(make_user: Any) -> None:
    from django.test import Client

    club, organiser = club_with_organiser(make_user, "pages")
    browser = Client(HTTP_ACCEPT_LANGUAGE="es")
    browser.force_login(organiser)
    form = {"name": "Temporada", "starts_on": TODAY.isoformat(), "ends_on": "2000-01-01", "points": "10-5"}
    refused = browser.post(f"/clubs/{club.pk}/seasons/new/", form)
    assert refused.status_code == 400 and 'data-code="dates-invalid"' in refused.content.decode()
    assert not Season.objects.exists()
    made = browser.post(f"/clubs/{club.pk}/seasons/new/", {**form, "ends_on": TODAY.isoformat()})
    season = Season.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/seasons/{season.pk}/"
    assert season.points == [10, 5]
    evening(club, organiser, "Jueves", {"Ana": 1, "Beto": 2})
    page = browser.get(f"/seasons/{season.pk}/").content.decode()
    assert "Clasificación de la temporada" in page and "Puntos por puesto" in page
    bad = browser.post(f"/seasons/{season.pk}/", {"action": "scoring", "points": "10-x", "best_of": "1"})
    assert bad.status_code == 400 and 'data-code="points-invalid"' in bad.content.decode()
    browser.post(f"/seasons/{season.pk}/", {"action": "scoring", "points": "3-1", "participation": "0,5"})
    assert [line.total for line in SeasonLine.objects.filter(season=season)] == [3.5, 1.5]
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(f"/clubs/{club.pk}/seasons/new/").status_code == 403
    assert stranger.post(f"/seasons/{season.pk}/", {"action": "scoring", "points": "1"}).status_code == 200
    assert Season.objects.get().points == [3, 1]  # the page ignores a form from a non-organiser
