"""What each pytest-xdist worker keeps to itself, so that `make test` runs the suite on
every core without two tests meeting in a shared service.

The test settings (tests/settings.py) choose the Redis database, in the environment, before
the project's settings read it: the test process's channel layer and Celery app, and every
server or Celery worker a test starts (tests/live/harness.py), read the same.

- Redis: worker N (`gwN`) uses REDIS_URL's database plus N (`/8` → `/8`, `/9`, …), which
  it may flush (tests/live/conftest.py does) without touching the other workers'.
- PostgreSQL: pytest-django names worker N's test database `test_<name>_gwN`; databases
  a test makes beside it are named from it (`connection.settings_dict["NAME"]`). Its
  sequences start at N × `SEQUENCE_SPACING` (tests/database.py): Redis pub/sub channels are
  shared by every database number, and a club's or user's group is named by its id.
- Ports: `tests.test_foundation.helpers.free_port()` takes them from a range of the worker's
  own, below the kernel's range for outgoing connections.
- Time: the body of a test marked `alone` (it asserts a latency) runs while the other
  workers wait (`turn`, tests/conftest.py); its set-up and teardown do not.

A single process (no xdist, or `-p no:xdist`) is worker 0 and changes nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

REDIS_DATABASES = 16  # Redis's default `databases`

# How long a long test waits for the tests marked `alone` at most (a worker that crashed
# in one never says it is done).
ALONE_WAIT = 180.0

SEQUENCE_SPACING = 100_000_000  # ids per worker, well inside an `integer` column's range


def index() -> int:
    """This process's worker number: 0 for `gw0` or a run without xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker[2:]) if worker.startswith("gw") else 0


def redis_url(url: str, worker: int) -> str:
    parts = urllib.parse.urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = base + worker
    if database >= REDIS_DATABASES:
        raise RuntimeError(
            f"REDIS_URL={url}: worker {worker} would need Redis database {database} "
            f"(there are {REDIS_DATABASES}); use fewer workers (-n) or a lower database"
        )
    return parts._replace(path=f"/{database}").geturl()


def use_own_redis() -> None:
    if index() and os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = redis_url(os.environ["REDIS_URL"], index())


@contextlib.contextmanager
def turn(*, alone: bool) -> Iterator[None]:
    """One test's turn. A test marked `alone` (it measures a latency) runs while no other
    worker runs a test: it closes the gate, waits for the running ones to end, and the
    others wait at the gate until it is done. A test marked `alone` that is waiting goes
    before any test that has not begun: the gate's lock is no queue, and a long test that
    took it between two of them held every worker but its own (the API's fuzzing, 13 s,
    with two of them waiting). Without xdist, every turn is at once."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        yield
        return
    folder = Path(tempfile.gettempdir())
    with (
        (folder / f"cacho-tests-{run}.waiting").open("a") as waiting,
        (folder / f"cacho-tests-{run}.gate").open("a") as gate,
        (folder / f"cacho-tests-{run}.turns").open("a") as turns,
    ):
        if alone:
            fcntl.flock(waiting, fcntl.LOCK_SH)  # held while it waits: the others let it pass
            try:
                fcntl.flock(gate, fcntl.LOCK_EX)
                fcntl.flock(turns, fcntl.LOCK_EX)
            finally:
                fcntl.flock(waiting, fcntl.LOCK_UN)
        else:
            while True:
                fcntl.flock(gate, fcntl.LOCK_EX)
                try:
                    fcntl.flock(waiting, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:  # one marked `alone` waits: the gate is its
                    fcntl.flock(gate, fcntl.LOCK_UN)
                    fcntl.flock(waiting, fcntl.LOCK_EX)  # until it has its turn
                    fcntl.flock(waiting, fcntl.LOCK_UN)
                    continue
                fcntl.flock(waiting, fcntl.LOCK_UN)
                try:
                    fcntl.flock(turns, fcntl.LOCK_SH)
                finally:
                    fcntl.flock(gate, fcntl.LOCK_UN)
                break
        try:
            yield
        finally:
            fcntl.flock(turns, fcntl.LOCK_UN)
            if alone:
                fcntl.flock(gate, fcntl.LOCK_UN)


def _alone_done(run: str) -> Path:
    return Path(tempfile.gettempdir()) / f"cacho-tests-{run}.alone-done"


def alone_test_done() -> None:
    """A test marked `alone` has ended (whatever its outcome): one byte more in the run's
    count."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run:
        with _alone_done(run).open("ab") as done:
            done.write(b".")


def after_the_alone_tests(count: int) -> None:
    """Wait until the run's `count` tests marked `alone` have ended. For the longest tests:
    one begun while a test marked `alone` is still setting up holds the exclusive turn back
    for its whole length, every other worker waiting (the final ranking oracle, half a
    minute, with two of them waiting)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run or not count:
        return
    done, deadline = _alone_done(run), time.monotonic() + ALONE_WAIT
    while time.monotonic() < deadline:
        if done.exists() and done.stat().st_size >= count:
            return
        time.sleep(0.05)
