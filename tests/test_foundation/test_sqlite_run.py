"""The tests marked `sqlite_too` again, on SQLite: processes of their own with neither
DATABASE_URL nor REDIS_URL (embedded mode, as `make run` stores a club's evening).

The run is cut into shards, every n-th test to a shard (CACHO_TEST_SHARD, tests/conftest.py),
so that pytest-xdist hands them to different workers; each shard collects only the modules
that mark a test `sqlite_too`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_foundation.helpers import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.first, pytest.mark.runs_tests]

# Each shard pays a process, a collection and the SQLite migrations (ten to fifteen seconds):
# a shard for each of the three workers of a 2-core machine, which take them first.
SHARDS = 3

PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider")
SERVICES = ("DATABASE_URL", "REDIS_URL")  # embedded mode: neither


def marking_modules() -> list[str]:
    """The test modules that mark a test `sqlite_too` (the marker is spelt in them)."""
    return sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("test_*.py")
        if "mark.sqlite_too" in path.read_text(encoding="utf-8")
    )


def test_every_sqlite_too_test_is_in_a_module_the_shards_collect(request: pytest.FixtureRequest) -> None:
    """The shards collect only `marking_modules()`: the whole tree holds no other
    `sqlite_too` test (a marker applied from a conftest would escape them). A run of the
    whole tree has collected it already (each pytest-xdist worker collects every test);
    a narrower run collects it in a process of its own."""
    if collected_the_whole_tree(request.config):
        marked = {
            item.nodeid.split("::")[0]
            for item in request.session.items
            if item.get_closest_marker("sqlite_too")
        }
    else:
        marked = sqlite_too_modules_collected_apart()
    assert marked and marked <= set(marking_modules()), marked - set(marking_modules())


def collected_the_whole_tree(config: pytest.Config) -> bool:
    """This run collected every test of the tree and deselected none (`make test`)."""
    return (
        config.args_source is pytest.Config.ArgsSource.TESTPATHS
        and not config.option.keyword
        and not config.option.markexpr
        and not config.getoption("deselect")
        and not config.getoption("lf", False)  # --last-failed, --stepwise: a part of the tree
        and not config.getoption("stepwise", False)
        and not os.environ.get("CACHO_TEST_SHARD")
    )


def sqlite_too_modules_collected_apart() -> set[str]:
    done = subprocess.run(
        [*PYTEST, "tests", "-m", "sqlite_too", "--collect-only"],
        cwd=ROOT,
        env={
            k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHO_TEST_SHARD")
        },
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}


@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="this is the SQLite run itself")
@pytest.mark.parametrize("shard", range(SHARDS))
def test_the_sqlite_too_tests_pass_on_sqlite(tmp_path: Path, shard: int) -> None:
    env = {k: v for k, v in os.environ.items() if k not in SERVICES}
    env["CACHO_DATA_DIR"] = str(tmp_path)
    env["CACHO_TEST_SHARD"] = f"{shard}/{SHARDS}"
    done = subprocess.run(
        [*PYTEST, *marking_modules(), "-m", "sqlite_too"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=2400,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-3000:]
    summary = done.stdout.splitlines()[-1]
    assert re.search(r"\d+ passed", summary) and " skipped" not in summary, done.stdout[-500:]
