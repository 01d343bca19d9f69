"""What the metrics cost the write path: the instruments one command touches
(`cacho.observability.metrics.command` once, `cacho.observability.metrics.appended` once
per append), timed alone, in a process of their own, in prometheus-client's two modes:
values in the process (embedded) and memory-mapped files (`PROMETHEUS_MULTIPROC_DIR`, production).

    .venv/bin/python bench/instruments.py [--calls 200000] [--rounds 5]

Prints microseconds per command (best and median of the rounds); compare with a command's
time through the write path (docs/benchmarks.md, "Event store": p50 about 1.6 ms).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import sys, time
sys.path.insert(0, sys.argv[3])
from cacho.observability import metrics
calls, rounds = int(sys.argv[1]), int(sys.argv[2])
out = []
for _ in range(rounds):
    started = time.perf_counter()
    for _ in range(calls):
        metrics.command(metrics.PLAYER, metrics.OK, started)
        metrics.appended(2)
    out.append((time.perf_counter() - started) / calls * 1e6)
print(" ".join(f"{value:.3f}" for value in out))
"""


def measure(calls: int, rounds: int, multiprocess: bool) -> list[float]:
    env = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
    with tempfile.TemporaryDirectory() as folder:
        if multiprocess:
            env["PROMETHEUS_MULTIPROC_DIR"] = folder
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(calls), str(rounds), str(ROOT)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    return [float(value) for value in done.stdout.split()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"Measured with `bench/instruments.py`, {args.calls:,} commands a round:")
    for name, multiprocess in (("in the process", False), ("multiprocess files", True)):
        values = measure(args.calls, args.rounds, multiprocess)
        print(f"- {name}: {min(values):.2f} µs per command (median {statistics.median(values):.2f} µs)")


if __name__ == "__main__":
    main()
