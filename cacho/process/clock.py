"""The server's clock: the one place that reads the time for the write path.

The engine never reads a clock (dice and time are its inputs); the shell stamps every
command, timeout and sweep with `now_ms()`, and each of those takes an `at` so that a
test can say when it happens instead of waiting for it.
"""

from __future__ import annotations

import time


def now_ms() -> int:
    """Milliseconds since the Unix epoch (the unit of events' `at` and deadlines)."""
    return time.time_ns() // 1_000_000
