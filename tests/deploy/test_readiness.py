"""Liveness and readiness are different answers: a process whose database answers but
whose schema is behind its code's migrations (a new release before its migration job) is
alive (`/healthz` 200) and not ready (`/readyz` 503 naming `migrations`); once migrated,
ready."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.test_foundation.helpers import clean_env, http_get, manage, serve

pytestmark = pytest.mark.slow


@pytest.fixture
def empty_database() -> Iterator[str]:
    db = connection.settings_dict
    name = f"{db['NAME']}_unmigrated"
    base = f"postgres://{db['USER'] or 'root'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    admin = urllib.parse.urlsplit(base + "/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"{base}/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_process_before_its_migrations_is_alive_but_not_ready(
    services: dict[str, str], empty_database: str, tmp_path: Path
) -> None:
    env = clean_env(tmp_path, DATABASE_URL=empty_database, REDIS_URL=services["REDIS_URL"])
    with serve(env, tmp_path) as server:
        assert http_get(server.url + "/healthz").status == 200
        before = http_get(server.url + "/readyz")
        assert before.status == 503, before.body
        body = before.json()
        assert body["failing"] == ["migrations"]
        assert "not applied" in body["checks"]["migrations"]["error"]
        done = manage(env, "migrate", "--noinput")
        assert done.returncode == 0, done.stderr
        after = http_get(server.url + "/readyz")
        assert after.status == 200, after.body
        assert after.json()["checks"]["migrations"]["ok"] is True
