"""Match-server tests run on PostgreSQL and Redis (`make test`); without DATABASE_URL they
are skipped, or fail under CI (tests.needs)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from cacho.services import notices
from cacho.services.dispatch import DISPATCH
from cacho.services.matches import STATES
from tests.needs import missing


@pytest.fixture(autouse=True)
def postgresql(request: pytest.FixtureRequest) -> None:
    """These tests need PostgreSQL, but those marked `sqlite_too` (run on SQLite too)."""
    if not os.environ.get("DATABASE_URL") and request.node.get_closest_marker("sqlite_too") is None:
        missing("DATABASE_URL not set: run the suite with `make test`")


@pytest.fixture(autouse=True)
def no_celery_timers(settings: Any) -> None:
    """These tests drive `expire_turn` themselves: no timer thread plays for them, and no
    ETA task is left in the shared Redis queue for another suite's worker."""
    settings.CACHO_TIMERS = "off"


@pytest.fixture(autouse=True)
def fresh_state_cache() -> Iterator[None]:
    """Every test starts without cached states (the database is emptied between tests)."""
    STATES.clear()
    yield
    settle_after_commit_work()
    STATES.clear()


def settle_after_commit_work() -> None:
    """Let the dispatch thread finish (projections, notices) and close its connection,
    so that the test database can be emptied and dropped."""
    from django.db import connections

    DISPATCH.drain()
    DISPATCH.call(connections.close_all)
    DISPATCH.drain()
    notices.settle()


@pytest.fixture
def redis_layer() -> Any:
    """A channels-redis layer of its own (a fresh prefix) on REDIS_URL, emptied afterwards."""
    url = os.environ.get("REDIS_URL")
    if not url:
        missing("REDIS_URL is not set: run the suite with `make test`")
    from channels_redis.core import RedisChannelLayer

    prefix = f"cachotest{uuid.uuid4().hex[:8]}"
    layer = RedisChannelLayer(
        hosts=[{"address": url, "socket_timeout": None}], prefix=prefix, channel_capacity={"hub-*": 5}
    )
    yield layer
    client = redis.Redis.from_url(url)
    for key in client.scan_iter(f"{prefix}*"):  # (not `layer.flush()`: it closes the pools of
        client.delete(key)  # every loop from this one, the notice loop's among them)
