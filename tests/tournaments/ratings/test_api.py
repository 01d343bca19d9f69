"""The ratings API: leaderboards overall and per club, a player's ratings with their
history and head-to-head, and the organisers' seeding from platform ratings; bad input
answers its stable error code."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import club_with_organiser
from tests.tournaments.ratings.fixtures import rate_tables
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Membership, TournamentEvent
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]

NAMES = ("ana", "beto", "caro", "dani", "eva")


@pytest.fixture
def rated(make_user: Any) -> dict[str, Any]:
    users = {name: make_user(name) for name in NAMES}
    rate_tables(users)
    return users


def client(user: Any = None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def test_the_leaderboard_ranks_everyone_and_marks_provisional_ratings(rated: dict[str, Any]) -> None:
    answer = client().get("/api/ratings", {"family": "dudo"})
    assert answer.status_code == 200
    board = answer.json()
    rows = board["results"]
    assert [row["rank"] for row in rows] == [1, 2, 3, 4, 5]
    assert rows[0]["username"] == "ana" and rows[0]["tables"] == 6
    assert [row["rating"] for row in rows] == sorted((row["rating"] for row in rows), reverse=True)
    by_name = {row["username"]: row for row in rows}
    assert by_name["eva"]["provisional"] is True and by_name["eva"]["tables"] == 1
    assert by_name["beto"]["tables"] == 5
    assert client().get("/api/ratings", {"family": "alalay"}).json()["results"] == []


def test_a_club_leaderboard_lists_its_members_only(rated: dict[str, Any], make_user: Any) -> None:
    club, owner = club_with_organiser(make_user, "riberalta")
    for name in ("beto", "eva"):
        add_member(club.pk, rated[name], Membership.PLAYER, owner)
    for ref in (club.pk, club.slug):
        rows = client().get("/api/ratings", {"club": ref}).json()["results"]
        assert [row["username"] for row in rows] == ["beto", "eva"] or [r["username"] for r in rows] == [
            "eva",
            "beto",
        ]
        assert [row["rank"] for row in rows] == [1, 2]


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ({"family": "poker"}, 400, "rating-family-unknown"),
        ({"family": ""}, 400, "rating-family-unknown"),  # named but empty: not the default
        ({"club": "nowhere"}, 404, "not-found"),
    ],
)
def test_a_bad_leaderboard_query_answers_its_code(query: dict[str, str], status: int, code: str) -> None:
    answer = client().get("/api/ratings", query)
    assert answer.status_code == status and answer.json()["code"] == code


def test_a_players_ratings_have_their_history_and_head_to_head(rated: dict[str, Any]) -> None:
    answer = client().get("/api/players/ana/ratings")
    assert answer.status_code == 200
    (dudo,) = answer.json()["ratings"]
    assert dudo["family"] == "dudo" and dudo["rank"] == 1
    assert [p["number"] for p in dudo["history"]] == [1, 2, 3, 4, 5, 6]
    assert [p["placement"] for p in dudo["history"]] == [1, 1, 1, 1, 1, 2]
    assert dudo["history"][-1]["rating"] == dudo["rating"]
    h2h = {row["opponent"]: row for row in dudo["head_to_head"]}
    assert h2h["beto"] == {"opponent": "beto", "tables": 5, "won": 5, "lost": 0, "tied": 0}
    assert h2h["eva"] == {"opponent": "eva", "tables": 1, "won": 0, "lost": 1, "tied": 0}
    caro = {
        row["opponent"]: row
        for row in client().get("/api/players/caro/ratings").json()["ratings"][0]["head_to_head"]
    }
    assert caro["dani"] == {"opponent": "dani", "tables": 5, "won": 3, "lost": 1, "tied": 1}
    unknown = client().get("/api/players/nobody/ratings")
    assert unknown.status_code == 404 and unknown.json()["code"] == "player-unknown"


def test_organisers_fill_seeding_ratings_from_the_platform(rated: dict[str, Any], make_user: Any) -> None:
    club, organiser = club_with_organiser(make_user, "seeded")
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
    tournament = create_tournament(
        club.pk, organiser, name="Seeded", ruleset="dudo", stages=stages, seeding_method="rating"
    )
    for name in ("ana", "eva", "beto"):
        register(tournament.pk, organiser, name=name, user=rated[name])
    register(tournament.pk, organiser, name="guest")
    url = f"/api/tournaments/{tournament.pk}/platform-ratings"

    shown = {row["name"]: row for row in client(organiser).get(url).json()}
    assert shown["guest"]["platform_rating"] is None and shown["guest"]["provisional"] is True
    assert shown["eva"]["provisional"] is True and shown["ana"]["provisional"] is False
    assert all(row["seeding_rating"] is None for row in shown.values())

    refused = client(rated["ana"]).post(url)
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    filled = {row["name"]: row for row in client(organiser).post(url).json()}
    for name in ("ana", "eva", "beto"):
        assert filled[name]["seeding_rating"] == filled[name]["platform_rating"] is not None
    assert filled["guest"]["seeding_rating"] is None
    logged = TournamentEvent.objects.filter(tournament=tournament, type="rating-set").count()
    assert logged == 3

    start_tournament(tournament.pk, organiser)
    tournament.refresh_from_db()
    seeds = dict(tournament.entries.values_list("name", "seed"))
    assert seeds["ana"] < seeds["beto"]  # seeded by the platform ratings
    closed = client(organiser).post(url)
    assert closed.status_code == 400 and closed.json()["code"] == "registration-closed"
    missing = client(organiser).post("/api/tournaments/999999/platform-ratings")
    assert missing.status_code == 404 and missing.json()["code"] == "not-found"
