"""A default install's data folder (embedded mode, `make run`), migrated.

`manage.py migrate` of a fresh install costs a test process about nine seconds of CPU on a
slow host, seven of them the migrations' own (the process's start is the rest). The first
install of a tree's migrations is migrated for real; the others start from a copy of its
SQLite file, kept under .venv/test-cache by the hash of every installed app's migrations,
so that pytest-xdist's workers, and the runs after, share it. A test of the migrations
themselves runs `manage.py migrate` (tests/test_foundation/test_servers.py's first test)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from tests.test_foundation.helpers import ROOT, clean_env, manage

CACHE = ROOT / ".venv" / "test-cache"
SQLITE_FILE = "cacho.sqlite3"  # project/config.py's `sqlite_path`, in CACHO_DATA_DIR


def migrate_install(env: Mapping[str, str]) -> None:
    """The install in `env`'s CACHO_DATA_DIR, fresh, as `manage.py migrate --noinput` leaves it."""
    data_dir = Path(env["CACHO_DATA_DIR"])
    assert not (data_dir / SQLITE_FILE).exists(), "a fresh install only"
    data_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(migrated_file(), data_dir / SQLITE_FILE)


def migrated_file() -> Path:
    """The SQLite file of a fresh install migrated by this tree's migrations."""
    CACHE.mkdir(parents=True, exist_ok=True)
    made = CACHE / f"install-{schema_key()}.sqlite3"
    with _held(CACHE / "install.lock"):
        if not made.exists():
            with tempfile.TemporaryDirectory(dir=CACHE) as scratch:
                done = manage(clean_env(Path(scratch)), "migrate", "--noinput")
                assert done.returncode == 0, done.stdout + done.stderr
                built = Path(scratch) / SQLITE_FILE
                with contextlib.closing(sqlite3.connect(built)) as db:  # the file whole, no WAL beside it
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                os.replace(built, made)
    return made


def schema_key() -> str:
    """What a fresh install's schema follows: every installed app's migrations (Django's and
    Django REST framework's among them)."""
    from django.apps import apps

    digest = hashlib.sha256()
    for config in sorted(apps.get_app_configs(), key=lambda config: config.label):
        for path in sorted(Path(config.path).glob("migrations/*.py")):
            digest.update(f"{config.label}/{path.name}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def _held(lock: Path) -> Iterator[None]:
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
