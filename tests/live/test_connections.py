"""PostgreSQL connections stay bounded under load (project/settings.py, deploy/README.md):
two uvicorn processes, each with a pool of CACHO_DB_POOL_MAX connections, take a burst of
200 concurrent HTTP requests and 300 sockets; the server-side count of their connections
(`pg_stat_activity`, told apart by `application_name`) never passes 2 x the pool, and no
request fails. Before the pool every request's thread kept a connection of its own:
30 concurrent GETs left 30 idle connections, and PostgreSQL ran out ("too many clients")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from django.db import connection
from websockets.asyncio.client import connect

from cacho.services import matches
from tests.live.harness import Socket, origin_of, services_env, ws_url
from tests.test_foundation.helpers import Server, serve

pytestmark = [pytest.mark.slow]

POOL = 4
APP = "cacho-burst-test"
REQUESTS = 200
SOCKETS = 300


@contextlib.contextmanager
def two_servers(env: dict[str, str], tmp_path: Path) -> Iterator[list[Server]]:
    with serve(env, tmp_path) as first, serve(env, tmp_path) as second:
        yield [first, second]


def server_connections() -> int:
    """The connections of the servers under test, as PostgreSQL counts them."""
    db = connection.settings_dict
    host, port, user = db["HOST"] or "127.0.0.1", db["PORT"] or 5432, db["USER"] or "root"
    dsn = f"host={host} port={port} user={user} dbname=postgres"
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APP]
        ).fetchone()
    return int(row[0]) if row else 0


def sample(stop: threading.Event, counts: list[int]) -> None:
    while not stop.is_set():
        counts.append(server_connections())
        stop.wait(0.02)


async def get(url: str, path: str) -> int:
    """One HTTP/1.1 GET on a connection of its own; its status."""
    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    body = await asyncio.wait_for(reader.read(), 60)
    writer.close()
    return int(body.split(b" ", 2)[1])


async def spectator(url: str) -> Socket:
    """A socket whose handshake may wait its turn (the burst queues for the pools)."""
    opened = await connect(url, origin=origin_of(url), open_timeout=120)
    return Socket(opened)


def test_a_burst_of_requests_and_sockets_stays_within_the_pools(
    services: None, committed_db: None, tmp_path: Path
) -> None:
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    env = services_env(tmp_path, CACHO_DB_POOL_MAX=str(POOL), CACHO_DB_POOL_MIN="1", PGAPPNAME=APP)
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    paths = [f"/api/matches/{match.pk}", f"/api/matches/{match.pk}/events", "/api/lobby", "/api/rulesets"]

    with two_servers(env, tmp_path) as servers:
        counts: list[int] = []
        stop = threading.Event()
        sampler = threading.Thread(target=sample, args=(stop, counts))
        sampler.start()

        async def burst() -> tuple[list[int], list[Any]]:
            requests = [get(servers[n % 2].url, paths[n % len(paths)]) for n in range(REQUESTS)]
            sockets = [spectator(ws_url(servers[n % 2], match.pk)) for n in range(SOCKETS)]
            done = await asyncio.gather(*requests, *sockets, return_exceptions=True)
            statuses, opened = list(done[:REQUESTS]), list(done[REQUESTS:])
            failed = [repr(item) for item in opened if not hasattr(item, "next")]
            print("socket failures:", len(failed), sorted(set(failed))[:5])
            states = await asyncio.gather(
                *(
                    socket.next(lambda f: f["t"] == "state", timeout=60)
                    for socket in opened
                    if hasattr(socket, "next")
                ),
                return_exceptions=True,
            )
            for socket in opened:
                if hasattr(socket, "close"):
                    await socket.close()
            return statuses, list(states)

        started = time.perf_counter()
        try:
            statuses, states = asyncio.run(burst())
        finally:
            stop.set()
            sampler.join()
        peak = max(counts)
        figures = {
            "samples": len(counts),
            "peak": peak,
            "bound": 2 * POOL,
            "after": server_connections(),
            "seconds": round(time.perf_counter() - started, 1),
        }
        print("burst figures:", json.dumps(figures))
        assert statuses == [200] * REQUESTS, sorted(set(map(str, statuses)))
        assert len(states) == SOCKETS and all(isinstance(s, dict) and s["v"] == 2 for s in states), [
            s for s in states if not isinstance(s, dict)
        ][:3]
        assert 0 < peak <= 2 * POOL, figures
        for server in servers:
            assert "Traceback" not in server.output(), server.output()[-3000:]
