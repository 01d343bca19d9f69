"""A pytest plugin: the SQL statements the tests' own process sends, counted by the project
code that sent them, to find where a test's database work comes from.

    .venv/bin/python -m pytest -p bench.sql_sites tests/tournaments/test_every_format.py

Each statement is counted under the first two frames of project code above it (tests and
libraries left out), or under the test's own frame when no project code sent it. At the
end of the run the 40 most frequent callers are printed with their mean time a statement
(the round trip and the driver's work, not the ORM's compilation). Statements sent by
other processes (servers, Celery workers, subprocesses, pytest-xdist's workers: run it
without `-n`) are not seen.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

ROOT = str(Path(__file__).resolve().parents[1]) + "/"
SHOWN = 40

counts: Counter[str] = Counter()
seconds: dict[str, float] = {}


def _project_frame(frame: FrameType) -> bool:
    name = frame.f_code.co_filename
    return name.startswith(ROOT) and not name.startswith((ROOT + "tests/", ROOT + ".venv/", ROOT + "bench/"))


def _site(frame: FrameType | None) -> str:
    """The first two frames of project code above `frame`, else the first frame of a test."""
    chain: list[str] = []
    test = ""
    while frame is not None and len(chain) < 2:
        name = frame.f_code.co_filename
        if _project_frame(frame):
            chain.append(f"{name[len(ROOT) :]}:{frame.f_code.co_name}")
        elif not test and name.startswith(ROOT + "tests/"):
            test = f"{name[len(ROOT) :]}:{frame.f_code.co_name} (test code)"
        frame = frame.f_back
    return " < ".join(chain) or test or "(elsewhere)"


def _counted(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    began = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        site = _site(sys._getframe(1))
        counts[site] += 1
        seconds[site] = seconds.get(site, 0.0) + time.perf_counter() - began


@pytest.fixture(autouse=True)
def _sql_sites() -> Iterator[None]:
    from django.db import connections

    with connections["default"].execute_wrapper(_counted):
        yield


def pytest_terminal_summary(terminalreporter: Any) -> None:
    total = sum(counts.values())
    terminalreporter.section(f"SQL statements by caller ({total:,} in all)")
    for site, number in counts.most_common(SHOWN):
        mean = seconds[site] * 1000 / number
        terminalreporter.write_line(
            f"{number:8,d} {number * 100 / max(total, 1):5.1f} % {mean:6.2f} ms  {site}"
        )
