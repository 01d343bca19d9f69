"""`CACHO_DEMO=0 make run`: a 4-entry tournament played through the HTTP API by its players
reaches its next round within 2 s of its last table ending, and finishes, and its four
players are on the leaderboard, with nothing but the serving process (SQLite, in-memory
layer, no worker, no beat, no demo bots)."""

from __future__ import annotations

import itertools
import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.test_foundation.helpers import Server, clean_env, manage, serve
from tests.test_foundation.installs import migrate_install

pytestmark = pytest.mark.slow

NEXT_ROUND_WITHIN = 2.0
_commands = itertools.count(1)

USERS = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
users = get_user_model()
tokens = {}
for name in ["organiser", "ana", "beto", "caro", "dani"]:
    user = users.objects.create_user(name, password="a-long-pass-phrase")
    tokens[name] = [user.pk, Token.objects.create(user=user).key]
print(json.dumps(tokens))
"""


def call(server: Server, token: str, method: str, path: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        server.url + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read()[:500]!r}") from error


def rounds(server: Server, token: str, tournament: int) -> list[dict[str, Any]]:
    return sorted(
        call(server, token, "GET", f"/api/tournaments/{tournament}/rounds"), key=lambda r: r["number"]
    )


def test_a_tournament_runs_to_its_end_on_the_default_install(tmp_path: Path) -> None:
    env = clean_env(tmp_path)  # no DATABASE_URL, no REDIS_URL, no demo bots: `CACHO_DEMO=0 make run`
    migrate_install(env)
    made = manage(env, "shell", "-c", USERS)
    assert made.returncode == 0, made.stderr
    people = json.loads(made.stdout.strip().splitlines()[-1])
    organiser = people["organiser"][1]
    token_of = {pk: token for pk, token in people.values()}

    with serve(env, tmp_path) as server:
        club = call(server, organiser, "POST", "/api/clubs", {"name": "Club Norte", "slug": "norte"})
        tournament = call(
            server,
            organiser,
            "POST",
            "/api/tournaments",
            {
                "club": club["id"],
                "name": "Martes",
                "ruleset": "dudo",
                "stages": [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}],
            },
        )["id"]
        for name in ("ana", "beto", "caro", "dani"):
            call(
                server,
                organiser,
                "POST",
                f"/api/tournaments/{tournament}/entries",
                {"name": name, "username": name},
            )
        call(server, organiser, "POST", f"/api/tournaments/{tournament}/start", {})
        entries = {
            e["id"]: e["user"]
            for e in call(server, organiser, "GET", f"/api/tournaments/{tournament}/entries")
        }

        waits = []
        for number in (1, 2):
            (current,) = [r for r in rounds(server, organiser, tournament) if r["number"] == number]
            assert len(current["tables"]) == 2
            for table in current["tables"]:
                # The second seat's player leaves: the first wins the table.
                leaver = token_of[entries[table["seats"][1]["entry"]]]
                body = {"command_id": f"leave-{next(_commands)}", "type": "abandon"}
                call(server, leaver, "POST", f"/api/matches/{table['match_id']}/commands", body)
            ended = time.monotonic()
            while True:
                waited = time.monotonic() - ended
                state = call(server, organiser, "GET", f"/api/tournaments/{tournament}")
                if number == 1 and len(rounds(server, organiser, tournament)) == 2:
                    break
                if number == 2 and state["status"] == "finished":
                    break
                assert waited < NEXT_ROUND_WITHIN, f"round {number}: nothing happened in {waited:.1f} s"
                time.sleep(0.05)
            waits.append(waited)
        ranking = call(server, organiser, "GET", f"/api/tournaments/{tournament}/ranking")
        assert ranking["finished"] and [p["place"] for p in ranking["ranking"]][:1] == [1]
        assert len(ranking["ranking"]) == 4
        assert max(waits) < NEXT_ROUND_WITHIN
        # The rated tables reach the leaderboard in embedded mode too (SQLite has no DISTINCT ON).
        board = call(server, organiser, "GET", "/api/ratings?family=dudo")["results"]
        assert sorted(row["username"] for row in board) == ["ana", "beto", "caro", "dani"]
        drawn, finished = (round(w * 1000) for w in waits)
        print(f"round 2 drawn {drawn} ms after round 1 ended; finished {finished} ms after round 2 ended")
