"""Tournament tests run on PostgreSQL (`make test`); without DATABASE_URL the database ones are skipped.

With REDIS_URL set, tasks go to the broker; no worker runs during the tests, so the
helpers call the task bodies themselves, as a worker would (they are idempotent)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cacho.services.matches import STATES


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("DATABASE_URL"):
        return
    skip = pytest.mark.skip(reason="DATABASE_URL not set: run the suite with `make test`")
    for item in items:
        path = str(item.fspath)
        if "tests/tournaments/" in path and "tests/tournaments/competition/" not in path:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def fresh_state_cache() -> Iterator[None]:
    """Every test starts without cached match states (the database is emptied between tests)."""
    STATES.clear()
    yield
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
