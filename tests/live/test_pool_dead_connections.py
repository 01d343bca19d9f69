"""A pooled PostgreSQL connection that the server dropped (`pg_terminate_backend`, a
restart, a failover) is found dead when lent and replaced: the request that borrows it is
answered as usual, without a 500 and without waiting for the pool's timeout."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from cacho.services import matches
from tests.live.harness import services_env
from tests.live.test_connections import get
from tests.test_foundation.helpers import serve

pytestmark = [pytest.mark.slow]

APP = "cacho-dead-pool-test"
POOL = 6


def terminate_app_connections() -> int:
    """What an operator (or a failover) does to the server's sessions: all of them dropped."""
    db = connection.settings_dict
    host, port, user = db["HOST"] or "127.0.0.1", db["PORT"] or 5432, db["USER"] or "root"
    with psycopg.connect(f"host={host} port={port} user={user} dbname=postgres", autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", [APP]
        ).fetchall()
    return len(rows)


def test_dropped_pooled_connections_cost_no_request(
    services: None, committed_db: None, tmp_path: Path
) -> None:
    env = services_env(
        tmp_path,
        CACHO_DB_POOL_MAX=str(POOL),
        CACHO_DB_POOL_MIN="1",
        CACHO_DB_POOL_TIMEOUT="10",
        PGAPPNAME=APP,
    )
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    path = f"/api/matches/{match.pk}/events"
    with serve(env, tmp_path) as server:

        async def burst(count: int) -> list[int]:
            return list(await asyncio.gather(*(get(server.url, path) for _ in range(count))))

        assert asyncio.run(burst(40)) == [200] * 40  # the pool grows to its maximum
        for trial in range(3):
            assert terminate_app_connections() > 0
            started = time.monotonic()
            statuses = [asyncio.run(burst(1))[0] for _ in range(POOL + 2)]  # one after another
            statuses += asyncio.run(burst(2 * POOL))  # and all at once
            took = time.monotonic() - started
            assert statuses == [200] * len(statuses), (trial, statuses, server.output()[-3000:])
            assert took < 5, (trial, took)
        assert "PoolTimeout" not in server.output()
