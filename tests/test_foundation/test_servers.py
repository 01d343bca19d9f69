"""Both configurations start for real: check, migrate, serve with uvicorn, GET /healthz."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_foundation.helpers import clean_env, http_get, manage, serve
from tests.test_foundation.installs import migrate_install

pytestmark = pytest.mark.slow

CLOSED_REDIS = "redis://127.0.0.1:1/0"
CLOSED_POSTGRES = "postgres://root@127.0.0.1:1/cacho"


def check_and_migrate(env: dict[str, str]) -> None:
    done = manage(env, "check")
    assert done.returncode == 0, done.stdout + done.stderr
    done = manage(env, "migrate", "--noinput")
    assert done.returncode == 0, done.stdout + done.stderr


def test_embedded_mode_starts_and_serves(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    check_and_migrate(env)
    assert (tmp_path / "cacho.sqlite3").is_file()

    with serve(env, tmp_path) as server:
        health = http_get(server.url + "/healthz")
        assert health.status == 200, health.body
        body = health.json()
        assert body["status"] == "ok"
        assert body["mode"] == "embedded"
        checks = body["checks"]
        assert checks["database"] == {"ok": True, "backend": "sqlite", "ms": checks["database"]["ms"]}
        assert checks["channel_layer"]["ok"] is True
        assert checks["channel_layer"]["backend"] == "in-memory"
        assert checks["broker"]["configured"] is False
        assert checks["broker"]["ok"] is True

        home = http_get(server.url + "/")
        assert home.status == 200
        assert b"Cacho" in home.body
        css = http_get(server.url + "/static/frontend/cacho.css")
        assert css.status == 200
        assert b"--leather" in css.body
        schema = http_get(server.url + "/api/schema/")
        assert schema.status == 200
        assert b"openapi" in schema.body


def test_embedded_mode_keeps_events_and_their_matches(tmp_path: Path) -> None:
    """SQLite's triggers (migrations 0002 and 0006): events are never changed or deleted,
    and a match that has events is never deleted or re-keyed; one without events is."""
    import sqlite3
    import uuid

    env = clean_env(tmp_path)
    migrate_install(env)  # the test above migrates a fresh install itself
    db = sqlite3.connect(tmp_path / "cacho.sqlite3")
    match, lone = uuid.uuid4().hex, uuid.uuid4().hex
    for ident in (match, lone):
        db.execute(
            "INSERT INTO cacho_match (id, game, ruleset, options, options_hash, turn_seconds, status, "
            "version, last_hash, pending_scope, turn_key, imported, tournament_ref, created_at) "
            "VALUES (?, 'dudo', 'dudo', '{}', '', 30, 'live', 0, '', '', '', 0, '', '2026-12-01')",
            (ident,),
        )
    db.execute(
        "INSERT INTO cacho_event (stream_id, version, type, schema_version, payload, metadata, "
        "recorded_at, hash, txid) VALUES (?, 1, 'match_started', 1, '{}', '{}', '2026-12-01', 'h', 0)",
        (match,),
    )
    db.commit()
    for sql, needle in (
        ("DELETE FROM cacho_match WHERE id = ?", "a stream is never deleted"),
        ("UPDATE cacho_match SET id = 'other' WHERE id = ?", "a stream is never deleted"),
        ("DELETE FROM cacho_event WHERE stream_id = ?", "append-only"),
        ("UPDATE cacho_event SET type = 'forged' WHERE stream_id = ?", "append-only"),
    ):
        with pytest.raises(sqlite3.IntegrityError, match=needle):
            db.execute(sql, (match,))
    db.execute("UPDATE cacho_match SET turn_seconds = 20 WHERE id = ?", (match,))  # not its id: allowed
    db.execute("DELETE FROM cacho_match WHERE id = ?", (lone,))
    db.commit()
    assert db.execute("SELECT count(*) FROM cacho_match").fetchone() == (1,)
    assert db.execute("SELECT type FROM cacho_event").fetchall() == [("match_started",)]


def test_service_mode_starts_and_serves(tmp_path: Path, services: dict[str, str]) -> None:
    env = clean_env(tmp_path, **services)
    check_and_migrate(env)

    with serve(env, tmp_path) as server:
        health = http_get(server.url + "/healthz")
        assert health.status == 200, health.body
        body = health.json()
        assert body["status"] == "ok"
        assert body["mode"] == "services"
        checks = body["checks"]
        assert checks["database"]["ok"] is True
        assert checks["database"]["backend"] == "postgresql"
        assert checks["channel_layer"]["ok"] is True
        assert checks["channel_layer"]["backend"] == "redis"
        assert checks["broker"] == {**checks["broker"], "ok": True, "configured": True, "backend": "redis"}


def test_healthz_names_redis_when_it_does_not_answer(tmp_path: Path, services: dict[str, str]) -> None:
    env = clean_env(tmp_path, DATABASE_URL=services["DATABASE_URL"], REDIS_URL=CLOSED_REDIS)
    with serve(env, tmp_path) as server:
        health = http_get(server.url + "/healthz")
    assert health.status == 503, health.body
    body = health.json()
    assert body["status"] == "fail"
    assert body["failing"] == ["broker", "channel_layer"]
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["channel_layer"]["ok"] is False
    assert "error" in body["checks"]["channel_layer"]
    assert body["checks"]["broker"]["ok"] is False
    assert "error" in body["checks"]["broker"]


def test_healthz_names_the_database_when_it_does_not_answer(tmp_path: Path) -> None:
    # A request waits for a pooled connection up to the pool's timeout (10 s by default)
    # before the database counts as not answering.
    env = clean_env(tmp_path, DATABASE_URL=CLOSED_POSTGRES, CACHO_DB_POOL_TIMEOUT="2")
    with serve(env, tmp_path) as server:
        health = http_get(server.url + "/healthz")
        home = http_get(server.url + "/")
    assert health.status == 503, health.body
    body = health.json()
    assert body["failing"] == ["database"]
    assert body["checks"]["database"]["backend"] == "postgresql"
    assert "connect" in body["checks"]["database"]["error"].lower()
    assert body["checks"]["channel_layer"]["ok"] is True
    # Pages that do not need the database still render.
    assert home.status == 200
