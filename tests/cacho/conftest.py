"""Match-server tests run on PostgreSQL (`make test`); without DATABASE_URL they are skipped."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync

from cacho.services.dispatch import DISPATCH
from cacho.services.matches import STATES


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("DATABASE_URL"):
        return
    skip = pytest.mark.skip(reason="DATABASE_URL not set: run the suite with `make test`")
    for item in items:
        if "tests/cacho/" in str(item.fspath):
            item.add_marker(skip)


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


@pytest.fixture
def redis_layer() -> Any:
    """A channels-redis layer of its own (a fresh prefix) on REDIS_URL, emptied afterwards."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("REDIS_URL is not set")
    from channels_redis.core import RedisChannelLayer

    prefix = f"cachotest{uuid.uuid4().hex[:8]}"
    layer = RedisChannelLayer(
        hosts=[{"address": url, "socket_timeout": None}], prefix=prefix, channel_capacity={"hub-*": 5}
    )
    yield layer
    client = redis.Redis.from_url(url)
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)
    async_to_sync(layer.flush)()
