"""The match API's cost a move: what a player's client pays for each move over HTTP.

    DATABASE_URL=postgres://root@127.0.0.1:5432/cacho .venv/bin/python bench/api_match.py \
        [--moves 300] [--rounds 3]
    .venv/bin/python bench/api_match.py            # SQLite, as `make run` stores matches

A Dudo match of three accounts and an Alalay match of two pairs (each seat held by one
account and partnered by another) are played through the whole Django stack in this
process (`django.test.Client`, signed in by session: the middleware, DRF, the views, the
one write path, what follows each commit), each move as a client makes it: the state as
the mover sees it (`GET /api/matches/<id>`), then the command (`POST .../commands`).
Printed for each request kind: the median wall and CPU time of a request, and its SQL
statements (counted by a `connection.execute_wrapper`). Each round plays new matches;
the figures are the medians over the rounds' medians.

PostgreSQL: a database `<name>_bench` next to DATABASE_URL's (dropped, created and
migrated on start). SQLite: a file under a temporary directory (embedded mode).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup_django(base: str | None) -> str:
    if base:
        from bench.databases import bench_url, ensure_database

        os.environ["DATABASE_URL"] = bench_url(base)
        ensure_database(os.environ["DATABASE_URL"])
        where = f"PostgreSQL ({urllib.parse.urlsplit(os.environ['DATABASE_URL']).path.lstrip('/')})"
    else:
        os.environ.pop("REDIS_URL", None)  # embedded mode: neither service
        os.environ["CACHO_DATA_DIR"] = tempfile.mkdtemp(prefix="cacho-bench-")
        where = "SQLite (embedded mode)"
    os.environ["CACHO_ENV"] = "production"  # DEBUG off: no query log
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return where


class Counted:
    """SQL statements run through Django's connection while it is installed."""

    def __init__(self) -> None:
        self.statements = 0

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        self.statements += 1
        return execute(sql, params, many, context)


_ids = itertools.count(1)


def play(
    ruleset: str, moves: int, rng: random.Random, figures: dict[str, list[tuple[float, float, int]]]
) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from cacho.engine.games import game_for
    from cacho.services import matches
    from cacho.services.creation import create_match

    users = get_user_model().objects
    run = next(_ids)
    if ruleset == "alalay":
        seats = ["Reds", "Blues"]
        members = [[f"r{run}a", f"r{run}b"], [f"b{run}a", f"b{run}b"]]
        match = create_match(ruleset, seats, members=members, turn_seconds=600)
        holders = [users.create_user(username=team[0]) for team in members]
        partners = {i: [users.create_user(username=team[1])] for i, team in enumerate(members)}
    else:
        seats = [f"ana{run}", f"beto{run}", f"caro{run}"]
        match = create_match(ruleset, seats, turn_seconds=600)
        holders = [users.create_user(username=name) for name in seats]
        partners = {}
    matches.take_seats(match.pk, dict(enumerate(holders)))
    if partners:
        matches.add_partners(match.pk, partners)
    clients: dict[str, list[Client]] = {}
    for index, name in enumerate(seats):
        signed = []
        for user in [holders[index], *partners.get(index, [])]:
            client = Client(HTTP_ACCEPT_LANGUAGE="en", HTTP_X_FORWARDED_PROTO="https")  # as behind the proxy
            client.force_login(user)
            signed.append(client)
        clients[name] = signed
    game = game_for(ruleset)
    base = f"/api/matches/{match.pk}"
    for _ in range(moves):
        fresh = type(match).objects.get(pk=match.pk)
        state = matches.load_state(fresh, game)
        player = game.to_act(state)
        if player is None:
            return
        client = rng.choice(clients[player])
        counted = Counted()
        with connection.execute_wrapper(counted):
            started, cpu = time.perf_counter(), time.process_time()
            shown = client.get(base)
            figures["GET match"].append(
                (time.perf_counter() - started, time.process_time() - cpu, counted.statements)
            )
        assert shown.status_code == 200, shown.content
        payload = game.bot_payload(state, player, rng)
        assert payload is not None
        body = {"command_id": f"bench-{next(_ids)}", "expected_version": shown.json()["version"], **payload}
        counted = Counted()
        with connection.execute_wrapper(counted):
            started, cpu = time.perf_counter(), time.process_time()
            sent = client.post(f"{base}/commands", body, content_type="application/json")
            figures["POST command"].append(
                (time.perf_counter() - started, time.process_time() - cpu, counted.statements)
            )
        assert sent.status_code == 201, sent.content


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="moves a round, over its matches")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    where = setup_django(os.environ.get("DATABASE_URL"))
    print(f"the match API over {where}: {args.moves} moves a round, {args.rounds} rounds")
    rng = random.Random(31)
    rounds: list[dict[str, list[tuple[float, float, int]]]] = []
    for _ in range(args.rounds):
        figures: dict[str, list[tuple[float, float, int]]] = {"GET match": [], "POST command": []}
        for ruleset in ("dudo", "alalay"):
            played = 0
            while played < args.moves // 2:
                before = len(figures["POST command"])
                play(ruleset, args.moves // 2 - played, rng, figures)
                played += len(figures["POST command"]) - before
        rounds.append(figures)
    for kind in ("GET match", "POST command"):
        wall = statistics.median(statistics.median(f[0] for f in r[kind]) for r in rounds)
        cpu = statistics.median(statistics.median(f[1] for f in r[kind]) for r in rounds)
        queries = statistics.median(statistics.mean(f[2] for f in r[kind]) for r in rounds)
        print(
            f"{kind:13} wall {wall * 1000:6.2f} ms   CPU {cpu * 1000:6.2f} ms   SQL statements {queries:5.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
