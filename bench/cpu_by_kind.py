"""The CPU a command and everything it starts spend, summed by kind of process.

    .venv/bin/python bench/cpu_by_kind.py .venv/bin/python -m pytest -q tests/frontend/test_table.py

Reads every process's CPU time from /proc every 0.1 s while the command runs (a process
that ends between two reads loses at most its last 0.1 s), and prints the wall time, the
CPU of all the machine's processes that ran meanwhile, and that CPU by kind: Chromium's
renderers, GPU, utility and browser processes, the tests' servers (forked from
tests/live/server_forks.py or started as uvicorn), Celery, Node.js (Playwright's driver),
PostgreSQL, Redis, pytest and other Python processes. Run it on a quiet machine: other
processes' CPU is counted too (under their own kinds). Linux only.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections import Counter

TICKS = os.sysconf("SC_CLK_TCK")
PERIOD = 0.1
CHROMIUM_TYPES = ("renderer", "gpu-process", "utility", "zygote")


def kind_of(pid: int) -> str:
    """The kind of process `pid` is, from its command line."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as source:
            words = source.read().decode(errors="replace").split("\0")
    except OSError:
        return "gone"
    line = " ".join(words)
    if "chrom" in words[0] or "/proc/self/exe" in words[0]:
        for name in CHROMIUM_TYPES:
            if f"--type={name}" in line:
                return f"chromium {name}"
        return "chromium browser"
    rules = (
        ("server_forks", "servers (uvicorn)"),
        ("uvicorn", "servers (uvicorn)"),
        ("celery", "celery"),
        ("postgres", "postgresql"),
        ("redis-server", "redis"),
        ("pytest", "pytest"),
        ("exec(eval(sys.stdin", "pytest"),  # a pytest-xdist worker
    )
    for needle, kind in rules:
        if needle in line:
            return kind
    if "node" in os.path.basename(words[0]):
        return "node"
    if "python" in os.path.basename(words[0]):
        return "python, other"
    return os.path.basename(words[0]) or "kernel"


def read_all() -> dict[int, tuple[int, int]]:
    """pid -> (start time, CPU ticks used so far) of every process."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as source:
                text = source.read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        found[int(name)] = (int(fields[19]), int(fields[11]) + int(fields[12]))
    return found


class Sampler:
    """CPU by kind of every process that ran between `start()` and `stop()`, read from /proc
    every PERIOD seconds on a thread of its own (this process left out)."""

    def __init__(self) -> None:
        self.before: dict[int, tuple[int, int]] = {}
        self.last: dict[int, tuple[int, int]] = {}
        self.kinds: dict[int, str] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def start(self) -> Sampler:
        self.before = read_all()
        self.thread.start()
        return self

    def _read(self) -> None:
        for pid, (start, ticks) in read_all().items():
            if self.last.get(pid, (start,))[0] != start or pid not in self.kinds:
                self.kinds[pid] = kind_of(pid)  # a new process, or a pid used again
            self.last[pid] = (start, ticks)

    def _loop(self) -> None:
        while not self.done.wait(PERIOD):
            self._read()

    def stop(self) -> Counter[str]:
        """Seconds of CPU by kind (and in `self.started`, how many processes of each kind
        began while it ran)."""
        self.done.set()
        self.thread.join()
        self._read()
        spent: Counter[str] = Counter()
        self.started: Counter[str] = Counter(
            self.kinds[pid]
            for pid, (start, _) in self.last.items()
            if self.before.get(pid, (None,))[0] != start
        )
        for pid, (start, ticks) in self.last.items():
            if pid == os.getpid():
                continue
            earlier = self.before.get(pid)
            used = ticks - earlier[1] if earlier is not None and earlier[0] == start else ticks
            if used > 0:
                spent[self.kinds[pid]] += used / TICKS
        return spent


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    sampler = Sampler().start()
    started = time.monotonic()
    command = subprocess.run(sys.argv[1:], check=False)
    wall = time.monotonic() - started
    spent = sampler.stop()
    print(f"wall {wall:.1f} s, CPU {sum(spent.values()):.1f} s", file=sys.stderr)
    for kind, seconds in spent.most_common():
        if seconds >= 0.1:
            print(f"  {kind:24} {seconds:8.1f} s  {sampler.started[kind]:6} started", file=sys.stderr)
    return command.returncode


if __name__ == "__main__":
    sys.exit(main())
