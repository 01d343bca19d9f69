"""What a test does when the machine lacks a service or a tool it needs (PostgreSQL,
Redis, Chromium): skipped on a developer's machine, failed under CI (the `CI` variable
set, as `.ci/run` sets it), where everything must be there and a silent skip would hide
a whole folder."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(reason: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: nothing may be skipped)", pytrace=False)
    pytest.skip(reason)
