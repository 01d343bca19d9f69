"""PgBouncer in transaction mode in front of PostgreSQL (docs/deploy.md): one server
connection lent to one transaction at a time, so nothing of a session may outlive its
transaction. With `CACHO_DB_TRANSACTION_POOLING=1` (no prepared statements, no
server-side cursors) two processes, one after the other on the same pooled server
connection, each play a whole match through the write path, and `rebuild_projections`
(an `.iterator()` over every match) and `restore_check` run through the pooler. With the
event store's prepared statements left on, the second process finds the first one's
statements on the connection it was lent: the reason the setting exists (PgBouncer before
1.21 keeps no prepared statements per client)."""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.test_foundation.helpers import PYTHON, ROOT, clean_env, free_port, manage

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("committed_db")]

PLAY = """
import random, sys, django
django.setup()
from cacho.services import matches
from tests.cacho.helpers import command_id, legal_bidding_move, state_of
rng = random.Random(int(sys.argv[1]))
match = matches.create_match("dudo", ["ana", "beto"], turn_seconds=60, first_seat=0)
moves = 0
while state_of(match.pk).phase != "over":
    player, move = legal_bidding_move(state_of(match.pk), rng)
    matches.submit(match.pk, player, move, command_id())
    moves += 1
from cacho.services.dispatch import DISPATCH
DISPATCH.drain()
print("played", moves)
"""


@contextlib.contextmanager
def pooler(binary: str) -> Iterator[int]:
    """PgBouncer in transaction mode, one server connection for everyone (every client is
    lent the same one), on a free port; as root it runs as `postgres` (it refuses root)."""
    db = connection.settings_dict
    folder = Path(tempfile.mkdtemp(prefix="cacho-pgbouncer-"))
    port = free_port()
    user = db["USER"] or "root"
    (folder / "users.txt").write_text(f'"{user}" ""\n')
    (folder / "pgbouncer.ini").write_text(
        f"""[databases]
* = host={db["HOST"] or "127.0.0.1"} port={db["PORT"] or 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {folder}/users.txt
admin_users = {user}
pool_mode = transaction
default_pool_size = 1
max_client_conn = 50
logfile = {folder}/pgbouncer.log
pidfile = {folder}/pgbouncer.pid
"""
    )
    args = [binary, str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        for path in (folder, *folder.iterdir()):
            os.chown(path, owner.pw_uid, owner.pw_gid)
        args[1:1] = ["-u", "postgres"]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 15
        while True:
            with contextlib.suppress(psycopg.OperationalError):
                psycopg.connect(f"postgres://{user}@127.0.0.1:{port}/pgbouncer", autocommit=True).close()
                break
            if process.poll() is not None or time.monotonic() > deadline:
                log = (folder / "pgbouncer.log").read_text() if (folder / "pgbouncer.log").exists() else ""
                raise AssertionError(
                    f"pgbouncer did not start: {process.stdout.read() if process.stdout else ''}{log}"
                )
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def pooled_env(tmp_path: Path, port: int, **extra: str) -> dict[str, str]:
    db = connection.settings_dict
    url = f"postgres://{db['USER'] or 'root'}@127.0.0.1:{port}/{db['NAME']}"
    return clean_env(tmp_path, DATABASE_URL=url, **extra)


def play(env: dict[str, str], seed: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-c", PLAY, str(seed)],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "project.settings"},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def transactions_through(port: int) -> int:
    user = connection.settings_dict["USER"] or "root"
    with psycopg.connect(f"postgres://{user}@127.0.0.1:{port}/pgbouncer", autocommit=True) as admin:
        cursor = admin.execute("SHOW STATS")
        columns = [column.name for column in cursor.description or ()]
        rows = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
    return sum(
        int(row["total_xact_count"]) for row in rows if row["database"] == connection.settings_dict["NAME"]
    )


def test_matches_play_through_pgbouncer_in_transaction_mode(pgbouncer: str, tmp_path: Path) -> None:
    with pooler(pgbouncer) as port:
        env = pooled_env(tmp_path, port, CACHO_DB_TRANSACTION_POOLING="1")
        for seed in (1, 2):  # one after the other: the second is lent the first's connection
            done = play(env, seed)
            assert done.returncode == 0, done.stdout + done.stderr
            assert re.search(r"played \d+", done.stdout), done.stdout
        rebuilt = manage(env, "rebuild_projections")
        assert rebuilt.returncode == 0 and "2 match(es)" in rebuilt.stdout, rebuilt.stdout + rebuilt.stderr
        checked = manage(env, "restore_check")
        assert checked.returncode == 0 and "all whole and equal" in checked.stdout, checked.stderr
        assert transactions_through(port) > 50, "the traffic went through the pooler"


def test_prepared_statements_break_on_a_pooled_connection(pgbouncer: str, tmp_path: Path) -> None:
    version = subprocess.run([pgbouncer, "--version"], capture_output=True, text=True, check=False).stdout
    found = re.search(r"PgBouncer (\d+)\.(\d+)", version)
    if found is None or (int(found.group(1)), int(found.group(2))) >= (1, 21):
        pytest.skip(f"this PgBouncer can keep prepared statements per client ({version.strip()})")
    with pooler(pgbouncer) as port:
        env = pooled_env(tmp_path, port, CACHO_DB_TRANSACTION_POOLING="1", CACHO_DB_PREPARED="1")
        first = play(env, 1)
        assert first.returncode == 0, first.stdout + first.stderr
        second = play(env, 2)
    assert second.returncode != 0
    assert "prepared statement" in second.stderr and "already exists" in second.stderr, second.stderr[-2000:]
