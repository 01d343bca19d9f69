"""A rated tournament played through the API by its players' accounts puts every one of
them on the leaderboard: on PostgreSQL and, as `make run` stores it, on SQLite."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

NAMES = ("ana", "beto", "caro", "dani")
_commands = itertools.count(1)


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def ok(answer: Any) -> Any:
    assert answer.status_code < 300, answer.content
    return answer.json()


def test_four_accounts_play_a_tournament_and_are_rated(make_user: Any) -> None:
    organiser = make_user("organiser")
    players = {name: make_user(name) for name in NAMES}
    desk = api(organiser)
    club = ok(desk.post("/api/clubs", {"name": "Club Norte", "slug": "norte"}, format="json"))
    tournament = ok(
        desk.post(
            "/api/tournaments",
            {
                "club": club["id"],
                "name": "Martes",
                "ruleset": "dudo",
                "stages": [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}],
            },
            format="json",
        )
    )["id"]
    for name in NAMES:
        ok(
            desk.post(
                f"/api/tournaments/{tournament}/entries", {"name": name, "username": name}, format="json"
            )
        )
    ok(desk.post(f"/api/tournaments/{tournament}/start", {}, format="json"))
    user_of = {e["id"]: e["user"] for e in ok(desk.get(f"/api/tournaments/{tournament}/entries"))}
    by_pk = {user.pk: user for user in players.values()}

    for number in (1, 2):
        (current,) = [
            r for r in ok(desk.get(f"/api/tournaments/{tournament}/rounds")) if r["number"] == number
        ]
        for table in current["tables"]:
            # The second seat's player leaves: the first wins the table, both sat in its match.
            leaver = by_pk[user_of[table["seats"][1]["entry"]]]
            body = {"command_id": f"leave-{next(_commands)}", "type": "abandon"}
            ok(api(leaver).post(f"/api/matches/{table['match_id']}/commands", body, format="json"))
    assert ok(desk.get(f"/api/tournaments/{tournament}"))["status"] == "finished"

    board = ok(APIClient().get("/api/ratings", {"family": "dudo"}))["results"]
    assert sorted(row["username"] for row in board) == sorted(NAMES)
    assert all(row["tables"] == 2 for row in board)
    assert [row["rank"] for row in board] == [1, 2, 3, 4]
    for name in NAMES:
        (dudo,) = ok(APIClient().get(f"/api/players/{name}/ratings"))["ratings"]
        assert len(dudo["history"]) == 2
