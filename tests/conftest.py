"""Shared pytest setup. Kept minimal: engine tests are pure and never touch a database;
pytest-django only opens one for tests marked `django_db`, or that use `committed_db`.

Tests marked `sqlite_too` run on PostgreSQL with the suite, and again on SQLite in a
process of their own (tests/test_foundation/test_sqlite_run.py), as embedded mode stores
them."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from tests import browser_loop, workers
from tests.database import space_sequences

# Tournaments draw their next round as soon as a round ends unless a test sets an appeal
# period (tests/tournaments/test_appeals.py): here and in the servers the tests start.
os.environ.setdefault("CACHO_ROUND_APPEAL_MINUTES", "0")
settings.CACHO_ROUND_APPEAL_MINUTES = int(os.environ["CACHO_ROUND_APPEAL_MINUTES"])

# The test process borrows no pooled connections: its tests hold connections in threads of
# their own (across barriers, past a request's end), which no server does and a bounded pool
# would make wait on each other. The servers the tests start (tests/live, tests/test_foundation)
# run with the pool as deployed.
if "pool" in settings.DATABASES["default"].get("OPTIONS", {}):
    settings.DATABASES["default"]["OPTIONS"].pop("pool")
    settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] = False


def _pytest_django_creates_the_database(items: list[pytest.Item]) -> bool:
    """pytest-django creates the test database only when a collected test is marked
    `django_db` (or asks for `db`)."""
    wanted = {"db", "transactional_db", "live_server"}
    return any(
        item.get_closest_marker("django_db") or wanted & set(getattr(item, "fixturenames", ()))
        for item in items
    )


@pytest.fixture(scope="session")
def django_db_setup(
    django_db_setup: None, django_db_blocker: Any, request: pytest.FixtureRequest
) -> Iterator[None]:
    """pytest-django's test database (`test_<name>_gwN` under pytest-xdist), its ids in
    this worker's own range (tests/workers.py). Embedded mode's turn timers (the SQLite run)
    stop before it is destroyed: their next sweep would query it."""
    from cacho.live.timers import TIMERS

    if _pytest_django_creates_the_database(request.session.items):
        with django_db_blocker.unblock():
            space_sequences(workers.index() * workers.SEQUENCE_SPACING)
    yield
    TIMERS.stop()


@pytest.fixture(scope="session")
def test_database(
    django_db_setup: None, django_db_blocker: Any, request: pytest.FixtureRequest
) -> Iterator[None]:
    """A run of `committed_db` tests alone would otherwise use the development database
    (pytest-django did not create one): then it is created here, and destroyed at the end."""
    from django.test.utils import setup_databases, teardown_databases

    from cacho.live.timers import TIMERS

    if _pytest_django_creates_the_database(request.session.items):
        yield
        return
    with django_db_blocker.unblock():
        created = setup_databases(verbosity=0, interactive=False, aliases={"default"})
        space_sequences(workers.index() * workers.SEQUENCE_SPACING)
    yield
    TIMERS.stop()
    with django_db_blocker.unblock():
        teardown_databases(created, verbosity=0)


@pytest.fixture
def committed_db(test_database: None, django_db_blocker: Any) -> Iterator[None]:
    """The test database in autocommit, as the servers use it (no transaction around the
    test), emptied afterwards (tests/database.py) once the after-commit work of the test
    has run; then, as after Django's transactional tests, every connection is closed (one
    left inside a transaction would hold back the readers of the global order)."""
    from django.db import connections

    from cacho.services import notices
    from cacho.services.dispatch import DISPATCH
    from tests.database import empty_tables

    with django_db_blocker.unblock():
        try:
            yield
        finally:
            DISPATCH.drain()
            notices.settle()
            empty_tables()
            DISPATCH.call(connections.close_all)  # the after-commit thread's own
            DISPATCH.drain()
            connections.close_all()


@pytest.fixture(autouse=True)
def sqlite_can_empty_its_database(request: pytest.FixtureRequest) -> Iterator[None]:
    """On SQLite a test's database is emptied by DELETE, which the append-only triggers
    refuse (PostgreSQL empties them by TRUNCATE, which they allow): the emptying lifts them
    and puts them back (tests/database.py); they are put back before each test, should a
    test have lifted them. A `sqlite_too` test that asks for no database gets the
    rolled-back one."""
    if request.node.get_closest_marker("sqlite_too") is None or os.environ.get("DATABASE_URL"):
        yield
        return
    from pytest_django.fixtures import validate_django_db

    from tests.database import restore_sqlite_triggers

    marker = request.node.get_closest_marker("django_db")
    if "committed_db" in request.fixturenames:
        database = "committed_db"
    elif marker is not None and validate_django_db(marker)[0]:  # transaction=True
        database = "transactional_db"
    else:  # rolled back, never emptied
        database = "db"
    request.getfixturevalue(database)
    restore_sqlite_triggers()
    yield


ALONE_TESTS = pytest.StashKey[int]()  # how many tests of the run are marked `alone`


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked `alone` before all others: each waits for the tests running on the
    other workers to end, and those workers wait for it; at the start nothing long is
    running yet (begun later, such a test waited for the longest test running to end, and
    the other workers' cores idled meanwhile). Then the longest tests, so that under
    pytest-xdist the workers end together: the tests marked `first` (the SQLite run's
    shards, each a process of its own, the final-ranking oracle's longest test and the
    API's schema fuzzing; but for the shards, each begins once the tests marked `alone`
    have ended: `workers.after_the_alone_tests`), the
    modules with a `slow` test (servers, browsers, tools in subprocesses) taken from their
    folders in turn, then the rest, each in the order collected. The same order on every
    worker.

    With CACHO_TEST_SHARD=k/n (a shard of the SQLite run, tests/test_foundation/test_sqlite_run.py)
    only every n-th test from the k-th runs: the parametrised tests of minutes spread over
    the shards."""
    slow_modules = interleaved_by_folder(
        [item.module for item in items if item.get_closest_marker("slow")]  # type: ignore[attr-defined]
    )

    def rank(item: pytest.Item) -> tuple[int, int]:
        if item.get_closest_marker("alone"):
            return 0, 0
        if item.get_closest_marker("first"):
            return 1, 0
        module = getattr(item, "module", None)
        return (2, slow_modules[module]) if module in slow_modules else (3, 0)

    items.sort(key=rank)
    shard = os.environ.get("CACHO_TEST_SHARD")
    if shard:
        number, count = (int(part) for part in shard.split("/"))
        kept = items[number::count]
        config.hook.pytest_deselected(
            items=[item for position, item in enumerate(items) if position % count != number]
        )
        items[:] = kept


def pytest_collection_finish(session: pytest.Session) -> None:
    """How many tests of the run are marked `alone`, once -k, -m and --deselect have left
    out theirs (their hooks run after `pytest_collection_modifyitems` above): a long test
    waits for those that run, not for one left out."""
    session.config.stash[ALONE_TESTS] = sum(1 for item in session.items if item.get_closest_marker("alone"))


def interleaved_by_folder(modules: list[Any]) -> dict[Any, int]:
    """Each module's place when the folders' modules are spread evenly over the whole:
    tests/live's among tests/frontend's, tests/deploy's few among both. A folder's slow
    tests wait alike (tests/live on timers, Redis restarts and idle sockets;
    tests/frontend on Chromium, which works meanwhile), and in the order collected the
    three workers waited in tests/live together while the cores idled."""
    folders: dict[str, list[Any]] = {}
    for module in dict.fromkeys(modules):
        folders.setdefault(os.path.dirname(module.__file__), []).append(module)
    spread = sorted(
        ((place + 0.5) / len(members), module.__name__, module)
        for members in folders.values()
        for place, module in enumerate(members)
    )
    return {module: place for place, (_, _, module) in enumerate(spread)}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """The test's turn (`_turn`) for the whole of its run. The browser's event loop is set
    aside for the tests that do not use it (tests/browser_loop.py)."""
    uses_browser = "browser" in getattr(item, "fixturenames", ())
    if item.get_closest_marker("first") and not item.get_closest_marker("runs_tests"):
        workers.after_the_alone_tests(item.config.stash.get(ALONE_TESTS, 0))
    try:
        with browser_loop.for_test(uses_browser=uses_browser), _turn(item, "run"):
            return (yield)
    finally:
        if item.get_closest_marker("alone"):
            workers.alone_test_done()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> object:
    with _turn(item, "setup"):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    with _turn(item, "call"):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    with _turn(item, "teardown"):
        return (yield)


def _turn(item: pytest.Item, phase: str) -> contextlib.AbstractContextManager[None]:
    """The turn (tests/workers.py) a test takes around `phase`: "run" (the whole of it),
    "setup", "call" or "teardown". A test takes one shared turn for its whole run. A test
    marked `alone` takes one per phase, the exclusive one for its body only: its fixtures
    (the worker's test database, servers, Chromium) measure nothing, and made inside the
    exclusive turn they kept every other core waiting. A test marked `runs_tests` takes
    none: the tests it runs in a process of its own take theirs."""
    if item.get_closest_marker("runs_tests"):
        return contextlib.nullcontext()
    if item.get_closest_marker("alone"):
        return contextlib.nullcontext() if phase == "run" else workers.turn(alone=phase == "call")
    return workers.turn(alone=False) if phase == "run" else contextlib.nullcontext()


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> Iterator[None]:
    """Rate limits (cacho.edge.limits) count per address, and every test client is 127.0.0.1:
    a test that counted leaves no count behind for the next one."""
    yield
    limits = sys.modules.get("cacho.edge.limits")
    if limits is not None and limits.used():
        limits.clear()
