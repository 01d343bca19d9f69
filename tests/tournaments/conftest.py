"""Tournament tests run on PostgreSQL (`make test`); without DATABASE_URL the database ones
are skipped, or fail under CI (tests.needs): only the pure ones (competition/) and those
marked `sqlite_too` run without it.

Celery runs the tasks in-process here, as in embedded mode: a match that ends records its
table's result and draws the next round through the real listener and tasks, at once.
(tests/live checks the same flow through a real broker and worker.)"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cacho.services.matches import STATES
from tests.cacho.conftest import settle_after_commit_work
from tests.needs import missing
from tests.tournaments.disputes import club  # noqa: F401 - the dispute tests' club evening


@pytest.fixture(autouse=True)
def postgresql(request: pytest.FixtureRequest) -> None:
    """Without DATABASE_URL only the pure tests and those marked `sqlite_too` run (the
    latter are run that way, on SQLite, by their PostgreSQL run)."""
    if os.environ.get("DATABASE_URL") or request.node.get_closest_marker("sqlite_too") is not None:
        return
    if "tests/tournaments/competition/" not in str(request.node.fspath):
        missing("DATABASE_URL not set: run the suite with `make test`")


@pytest.fixture(autouse=True)
def no_turn_timers(settings: Any) -> None:
    """These tests play every move themselves: no timer plays for a player (embedded, a
    timer thread would outlive the test's database access)."""
    settings.CACHO_TIMERS = "off"


@pytest.fixture(autouse=True)
def tasks_in_process() -> Iterator[None]:
    from project.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def fresh_state_cache() -> Iterator[None]:
    """Every test starts without cached match states (the database is emptied between tests),
    and ends once the after-commit work of its moves is done (nothing writes while the
    database is emptied)."""
    STATES.clear()
    yield
    settle_after_commit_work()
    STATES.clear()


@pytest.fixture
def make_user(django_user_model: Any) -> Callable[..., Any]:
    counter = iter(range(1, 100000))

    def make(name: str | None = None, **extra: Any) -> Any:
        username = name or f"user{next(counter)}"
        return django_user_model.objects.create_user(username=username, password="pw-1234567", **extra)

    return make


@pytest.fixture
def rng() -> random.Random:
    return random.Random(7)
