from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import needs
from tests.live.harness import asgi_server, celery_worker, services_env
from tests.test_foundation.helpers import Server, ServerForks


@pytest.fixture
def services() -> None:
    missing = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name)]
    if missing:
        needs.missing(f"{', '.join(missing)} not set: run the suite with `make test`")


@pytest.fixture
def env(services: None, tmp_path: Path, committed_db: None) -> dict[str, str]:
    # Earlier tests leave turn-timer tasks in the broker (no worker ran them); a worker
    # started here would first work through all of them, late. Start from an empty Redis db.
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    return services_env(tmp_path)


@pytest.fixture(scope="session")
def server_forks(
    tmp_path_factory: pytest.TempPathFactory, test_database: None
) -> Iterator[ServerForks | None]:
    """The parent the `server` fixture forks its servers from (tests/live/server_forks.py):
    one per test process, started by the first test that asks for a server."""
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        yield None
        return
    forks = ServerForks(services_env(tmp_path_factory.mktemp("server-forks")), tmp_path_factory.getbasetemp())
    try:
        yield forks
    finally:
        forks.close()


@pytest.fixture
def server(env: dict[str, str], tmp_path: Path, server_forks: ServerForks | None) -> Iterator[Server]:
    with asgi_server(env, tmp_path, server_forks) as running:
        yield running


@pytest.fixture
def worker(env: dict[str, str], tmp_path: Path) -> Iterator[object]:
    with celery_worker(env, tmp_path) as running:
        yield running
