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
from psycopg_pool import ConnectionPool

from cacho.services import matches
from project.backends.db_pool import check_connection, server_is_quiet
from tests.live.harness import services_env
from tests.live.test_connections import get
from tests.test_foundation.helpers import serve

pytestmark = [pytest.mark.slow]

APP = "cacho-dead-pool-test"
POOL = 6


def server_address() -> str:
    db = connection.settings_dict
    host, port, user = db["HOST"] or "127.0.0.1", db["PORT"] or 5432, db["USER"] or "root"
    return f"host={host} port={port} user={user} dbname=postgres"


def terminate_app_connections() -> int:
    """What an operator (or a failover) does to the server's sessions: all of them dropped."""
    with psycopg.connect(server_address(), autocommit=True) as conn:
        rows = conn.execute(
            # Waited for (up to 5 s): each backend gone, its socket closed.
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = %s",
            [APP],
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


def test_an_idle_connection_is_lent_unchecked_until_the_server_drops_it() -> None:
    """The loan's check makes no round trip while the server has said nothing (the server
    still shows the connection's last statement, not the check's empty one); once the
    server dropped the connection, the check finds it dead."""
    with (
        psycopg.connect(server_address(), autocommit=True) as idle,
        psycopg.connect(server_address(), autocommit=True) as admin,
    ):
        idle.execute("SELECT 1 AS last_statement")
        pid = idle.info.backend_pid

        def last_statement() -> str:
            return admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()[0]

        check_connection(idle)
        assert last_statement() == "SELECT 1 AS last_statement"
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + 5
        while server_is_quiet(idle):
            assert time.monotonic() < deadline, "a dropped connection still looked quiet"
            time.sleep(0.01)
        with pytest.raises(psycopg.OperationalError):
            ConnectionPool.check_connection(idle)  # what check_connection runs on it
