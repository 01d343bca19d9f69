"""The tests marked `sqlite_too` again, on SQLite: a process of its own with neither
DATABASE_URL nor REDIS_URL (embedded mode, as `make run` stores a club's evening)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_foundation.helpers import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.first, pytest.mark.runs_tests]


@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="this is the SQLite run itself")
def test_the_sqlite_too_tests_pass_on_sqlite(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["CACHO_DATA_DIR"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests", "-m", "sqlite_too", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=2400,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and " skipped" not in done.stdout.splitlines()[-1], done.stdout[-500:]
