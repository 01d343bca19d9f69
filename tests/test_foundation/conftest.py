from __future__ import annotations

import os

import pytest

from tests import needs


@pytest.fixture
def services() -> dict[str, str]:
    """DATABASE_URL and REDIS_URL of the running PostgreSQL and Redis (`make test` sets them).

    Skipped when they are absent, except in CI, where their absence is a failure.
    """
    urls = {name: os.environ.get(name, "") for name in ("DATABASE_URL", "REDIS_URL")}
    missing = [name for name, value in urls.items() if not value]
    if missing:
        needs.missing(f"{', '.join(missing)} not set: run the suite with `make test`")
    return urls
