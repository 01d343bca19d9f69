"""The match server's instruments (Prometheus, through prometheus-client): what the write
path and the sockets count as they go. Read at `/metrics` (project.observability.metrics), together
with the figures that are read from the database at scrape time.

Cheap on the write path: each labelled child is looked up once and kept, so a command
costs one histogram observation (a few microseconds; docs/benchmarks.md) and its append
one counter increment. With `PROMETHEUS_MULTIPROC_DIR` set (production: several uvicorn
and Celery processes) every process writes its own memory-mapped files there and the
endpoint sums them; without it (embedded) the values live in the process. The engine
knows nothing of this module.
"""

from __future__ import annotations

import time
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

# Outcomes of a command through the write path (label `outcome`).
OK = "ok"
REPEATED = "repeated"  # a command id seen before: the first result, nothing written
REFUSED = "refused"  # the engine's rule error, nothing written
CONFLICT = "conflict"  # made for another version of the match
NOT_FOUND = "not-found"
STALE = "stale"  # a timer for a turn already played: nothing to do
ERROR = "error"

# Kinds of command (label `kind`).
PLAYER = "player"
RULING = "ruling"
TIMEOUT = "timeout"

# From a fast append (about 2 ms) to a slow locked path under contention.
COMMAND_BUCKETS = (0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.0, 2.5)
LATENESS_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

COMMAND_SECONDS = Histogram(
    "cacho_command_seconds",
    "Time a match command spent in the write path, by kind and outcome (its _count is the command count).",
    ["kind", "outcome"],
    buckets=COMMAND_BUCKETS,
)
EVENTS_APPENDED = Counter("cacho_events_appended", "Match events committed to the event store.")
TIMER_LATENESS = Histogram(
    "cacho_timer_lateness_seconds",
    "How long after its deadline a timed-out turn was played (Celery ETA task or sweep).",
    buckets=LATENESS_BUCKETS,
)
OPEN_SOCKETS = Gauge(
    "cacho_open_sockets",
    "Websockets open on the serving processes, by role (player, spectator, disputes).",
    ["role"],
    multiprocess_mode="livesum",
)

_COMMANDS: dict[tuple[str, str], Any] = {}
_SOCKETS: dict[str, Any] = {}


def command(kind: str, outcome: str, started: float) -> None:
    """One command of `kind` ended with `outcome`; `started` is its `time.perf_counter()`."""
    child = _COMMANDS.get((kind, outcome))
    if child is None:
        child = _COMMANDS[(kind, outcome)] = COMMAND_SECONDS.labels(kind, outcome)
    child.observe(time.perf_counter() - started)


def appended(count: int) -> None:
    EVENTS_APPENDED.inc(count)


def timer_fired(lateness_ms: int) -> None:
    TIMER_LATENESS.observe(max(0, lateness_ms) / 1000)


def socket_opened(role: str) -> None:
    _socket(role).inc()


def socket_closed(role: str) -> None:
    _socket(role).dec()


def _socket(role: str) -> Any:
    child = _SOCKETS.get(role)
    if child is None:
        child = _SOCKETS[role] = OPEN_SOCKETS.labels(role)
    return child
