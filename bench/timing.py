"""Timing helpers shared by the benchmark scripts."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(repeats: int, action: Callable[[], Any]) -> float:
    """The fastest of `repeats` runs of `action`, in seconds (the least disturbed one)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best
