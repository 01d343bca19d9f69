"""The deployment's tests: the topology through nginx, metrics, backups, PgBouncer, the
manifests. nginx and PgBouncer are Debian packages that deploy/dev/test.sh installs; where
one is missing its tests skip on a developer's machine and fail under CI (tests/needs.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests import needs


@pytest.fixture
def services() -> dict[str, str]:
    urls = {name: os.environ.get(name, "") for name in ("DATABASE_URL", "REDIS_URL")}
    missing = [name for name, value in urls.items() if not value]
    if missing:
        needs.missing(f"{', '.join(missing)} not set: run the suite with `make test`")
    return urls


def tool(name: str, package: str) -> str:
    found = shutil.which(name) or next(
        (path for path in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if Path(path).exists()), None
    )
    if found is None:
        needs.missing(f"{name} is not installed (apt-get install {package}; deploy/dev/test.sh does it)")
    assert found is not None
    return found


@pytest.fixture
def nginx() -> str:
    return tool("nginx", "nginx")


@pytest.fixture
def pgbouncer() -> str:
    return tool("pgbouncer", "pgbouncer")
