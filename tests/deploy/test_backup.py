"""Backup and restore end to end: a database holding a finished Swiss tournament (its
matches played through the write path), an Alalay tournament still running and a casual
match still live is dumped by deploy/backup.sh, restored into a fresh database by
deploy/restore.sh, whose `manage.py restore_check` finds every chain whole and the
rebuilt standings equal to the backed-up ones. A tampered copy (an event's actor forged,
the last tournament-log event missing, a standings row's points changed) is refused, each
problem named."""

from __future__ import annotations

import random
import subprocess
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from cacho.models import Match
from cacho.services import matches as match_service
from tests.cacho.helpers import command_id, legal_bidding_move, state_of
from tests.test_foundation.helpers import PYTHON, ROOT, clean_env, manage
from tests.tournaments.helpers import drive, register_bots
from tournaments.clubs.members import create_club
from tournaments.models import Tournament
from tournaments.services import create_tournament, start_tournament

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("committed_db")]


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> Iterator[None]:
    """The bots' moves record their tables and draw the next rounds at once, in this process
    (as tests/tournaments do); no timer plays for anyone."""
    from project.celery import app

    settings.CACHO_TIMERS = "off"
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def database_url(name: str | None = None) -> str:
    db = connection.settings_dict
    user, host, port = db["USER"] or "root", db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{name or db['NAME']}"


@pytest.fixture
def fresh_database() -> Iterator[str]:
    name = f"{connection.settings_dict['NAME']}_restored"
    admin = urllib.parse.urlsplit(database_url())._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    yield database_url(name)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def evening() -> Tournament:
    rng = random.Random(22)
    owner = get_user_model().objects.create_user("owner", password="pw-1234567")
    club = create_club("Club del Cacho", "cacho", owner)
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 3}}]
    swiss = create_tournament(club.pk, owner, name="Viernes", ruleset="dudo", stages=stages)
    register_bots(swiss, owner, 6)
    start_tournament(swiss.pk, owner)
    drive(swiss, rng)
    running = create_tournament(club.pk, owner, name="Alalay", ruleset="alalay", stages=stages)
    register_bots(running, owner, 3, prefix="Alalay")
    start_tournament(running.pk, owner)
    casual = match_service.create_match("dudo", ["ana", "beto"], turn_seconds=30, first_seat=0)
    for _ in range(4):
        player, move = legal_bidding_move(state_of(casual.pk), rng)
        match_service.submit(casual.pk, player, move, command_id())
    swiss.refresh_from_db()
    return swiss


def restore_check(url: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    return manage(clean_env(data_dir, DATABASE_URL=url), "restore_check")


def test_a_backup_restores_whole_and_a_tampered_one_is_refused(tmp_path: Path, fresh_database: str) -> None:
    swiss = evening()
    assert swiss.status == Tournament.FINISHED
    env = clean_env(tmp_path, DATABASE_URL=database_url())
    dump = tmp_path / "cacho.dump"
    made = subprocess.run(
        ["deploy/backup.sh", str(dump)], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert made.returncode == 0 and made.stdout.strip() == str(dump), made.stderr

    restored = subprocess.run(
        ["deploy/restore.sh", str(dump), fresh_database],
        cwd=ROOT,
        env={**env, "PYTHON": PYTHON},
        capture_output=True,
        text=True,
        check=False,
    )
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert "all whole and equal" in restored.stdout
    assert f"{Match.objects.count()} match(es)" in restored.stdout
    assert "2 tournament(s)" in restored.stdout

    # The same copy, tampered with as only the database's owner can (triggers lifted).
    with psycopg.connect(fresh_database, autocommit=True) as conn:
        (match_id,) = conn.execute(
            "SELECT stream_id FROM cacho_event GROUP BY stream_id HAVING max(version) > 2 ORDER BY 1 LIMIT 1"
        ).fetchone()
        conn.execute("ALTER TABLE cacho_event DISABLE TRIGGER USER")
        conn.execute(
            "UPDATE cacho_event SET metadata = jsonb_set(metadata, '{actor}', '\"referee:forged\"') "
            "WHERE stream_id = %s AND version = 2",
            [match_id],
        )
        conn.execute("ALTER TABLE tournaments_tournamentevent DISABLE TRIGGER USER")
        conn.execute(
            "DELETE FROM tournaments_tournamentevent WHERE tournament_id = %s AND version = %s",
            [swiss.pk, swiss.version],
        )
        conn.execute(
            "UPDATE tournaments_standingrow SET points = points + 1 "
            "WHERE tournament_id = %s AND position = 1",
            [swiss.pk],
        )
    checked = restore_check(fresh_database, tmp_path)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    problems = checked.stderr
    assert f"match {match_id}: match-chain-broken: event 2" in problems and "hash-mismatch" in problems
    assert f"tournament {swiss.pk}: log-events-missing" in problems
    assert f"tournament {swiss.pk}: standings-differ: stage 1, position 1" in problems
    assert "3 problem(s)" in checked.stdout, problems
