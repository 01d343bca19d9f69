"""The live bench's capacity search (bench/live): levels of offered moves a second per
variant, the latency and CPU per move measured at each, py-spy profiles on demand, and the
moves a second where p99 crosses the limit."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import subprocess
import sys
import tempfile
import threading
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.live.clients import Socket, run_clients
from bench.live.setup import (
    Serving,
    _process_cpu,
    _redis_cpu,
    _with_descendants,
    make_matches,
    percentile,
    processes,
)


@dataclass(frozen=True)
class Variant:
    """A configuration of the server processes: a name and the environment it adds."""

    name: str
    env: dict[str, str]


def parse_variant(text: str) -> Variant:
    """`NAME` or `NAME:VAR=VALUE,VAR=VALUE`."""
    name, _, assignments = text.partition(":")
    env = dict(item.split("=", 1) for item in assignments.split(",") if item)
    return Variant(name, env)


@dataclass
class Step:
    level: float  # offered moves per second
    rate: float  # measured moves per second
    p50: float
    p99: float
    errors: int
    cpu_ms: float  # the server processes' and Redis's CPU per measured move

    @classmethod
    def of_run(cls, level: float, run: dict[str, Any]) -> Step:
        """One level's figures from what `run_clients` measured."""
        return cls(
            level,
            run["rate"],
            percentile(run["latencies"], 0.5),
            percentile(run["latencies"], 0.99),
            run["error_count"],
            1000 * run["cpu"] / max(1, len(run["latencies"])),
        )


def variant_env(env: dict[str, str], variant: Variant) -> dict[str, str]:
    return {**env, **variant.env}


# A variant's routing of sockets (read by the bench, not by the servers): by default every
# socket of a match goes to one server process, as the deploy's proxies route them by
# hashing the socket's path (deploy/local/nginx.conf); `spread` spreads a match's sockets
# over the processes, as a proxy balancing round robin does.
SOCKETS = "BENCH_SOCKETS"


def by_match(variant: Variant) -> bool:
    """Whether the variant opens every socket of a match on one server process."""
    return variant.env.get(SOCKETS, "by-match") == "by-match"


def table_sockets(
    made: list[tuple[str, list[str]]], urls: list[str], one_process: bool = False
) -> tuple[list[Socket], dict[str, int]]:
    """4 players and 2 spectators per match, spread over the server processes, or each
    match's on one process (`one_process`)."""
    sockets: list[Socket] = []
    expected: dict[str, int] = {}
    spread = 0 if one_process else 1
    for number, (match_id, cookies) in enumerate(made):
        path = f"/ws/matches/{match_id}/"
        for seat, cookie in enumerate(cookies):
            url = urls[(number + spread * seat) % len(urls)]
            sockets.append((match_id, url + path, cookie, number * 10 + seat))
        for extra in range(2):
            sockets.append((match_id, urls[(number + spread * extra) % len(urls)] + path, None, 0))
        expected[match_id] = len(cookies) + 2
    return sockets, expected


def measure_level(
    env: dict[str, str], variant: Variant, level: float, args: argparse.Namespace, tag: str
) -> Step:
    made = make_matches(max(1, round(level * args.think)), 4, args.turn_seconds, tag)
    with (
        tempfile.TemporaryDirectory() as logs,
        processes(variant_env(env, variant), args.servers, Path(logs)) as serving,
    ):
        sockets, expected = table_sockets(made, serving.urls, by_match(variant))
        think = args.think
        recorders: list[subprocess.Popen[bytes]] = []
        folder = Path(args.profile) / f"{variant.name.replace(' ', '-')}-{level:g}" if args.profile else None

        by_kind: list[dict[str, float]] = []

        def profile(seconds: float) -> None:
            assert folder is not None
            folder.mkdir(parents=True, exist_ok=True)
            by_kind.append(cpu_by_kind(serving, env["DATABASE_URL"]))
            for pid in _with_descendants(serving.pids):
                recorders.append(start_profiler(pid, seconds, folder))
            closing = threading.Timer(
                seconds, lambda: by_kind.append(cpu_by_kind(serving, env["DATABASE_URL"]))
            )
            closing.daemon = True
            closing.start()

        run = run_clients(
            sockets,
            expected,
            args.clients,
            think,
            args.seconds,
            args.warmup,
            serving.cpu_seconds,
            profile if folder else None,
        )
        for recorder in recorders:
            recorder.wait(timeout=60)
        if folder is not None:
            kinds = (
                {kind: by_kind[-1][kind] - by_kind[0][kind] for kind in by_kind[0]}
                if len(by_kind) == 2
                else {}
            )
            (folder / "run.json").write_text(
                json.dumps(
                    {
                        "moves": len(run["latencies"]),
                        "cpu_seconds": run["cpu"],
                        "level": level,
                        "by_kind": kinds,
                    }
                )
            )
    if run["errors"]:
        print(f"  {variant.name}: socket errors, e.g. {run['errors']}", file=sys.stderr)
    return Step.of_run(level, run)


def cpu_by_kind(serving: Serving, database_url: str) -> dict[str, float]:
    """CPU seconds used so far by each kind of process: the web (uvicorn), Celery, Redis, and
    the PostgreSQL backends connected to the bench's database (what the profile's per-move
    figures and the capacity plan of docs/deploy.md split by)."""
    totals = {"uvicorn": 0.0, "celery": 0.0, "redis": _redis_cpu(), "postgresql": 0.0}
    for pid in _with_descendants(serving.pids):
        with contextlib.suppress(OSError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            totals["uvicorn" if b"uvicorn" in command else "celery"] += _process_cpu(pid)
    database = urllib.parse.urlsplit(database_url).path.lstrip("/").encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                command = (entry / "cmdline").read_bytes()
                if command.startswith(b"postgres: ") and b" " + database + b" " in command:
                    totals["postgresql"] += _process_cpu(int(entry.name))
    return totals


PROFILE_RATE = 500  # samples a second: a sample is 2 ms of the GIL's time


def start_profiler(pid: int, seconds: float, folder: Path) -> subprocess.Popen[bytes]:
    """py-spy sampling one server process for the measured window, without pausing it
    (collapsed stacks: `bench/live/profile.py` reads them)."""
    kind = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    name = "uvicorn" if "uvicorn" in kind else "celery"
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "py-spy"),
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(max(1, round(seconds))),
            "--rate",
            str(PROFILE_RATE),
            "--gil",  # the thread holding the GIL only: what the process spends, not what it waits on
            "--nonblocking",
            "--format",
            "raw",
            "--output",
            str(folder / f"{name}-{pid}.txt"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def capacity(steps: list[Step], limit: float) -> str:
    """Moves per second where p99 crosses `limit` ms, between the last step under it and the
    first over it (steps in the order run, levels rising)."""
    for below, above in itertools.pairwise(steps):
        if below.p99 <= limit < above.p99:
            share = (limit - below.p99) / (above.p99 - below.p99)
            return f"{below.rate + share * (above.rate - below.rate):,.0f}"
    if steps and steps[0].p99 > limit:
        return f"< {steps[0].rate:,.0f}"
    return f"> {steps[-1].rate:,.0f}" if steps else "n/a"


def step_capacity(
    env: dict[str, str], variants: list[Variant], args: argparse.Namespace
) -> dict[str, list[Step]]:
    """Every variant at each level in turn (their order alternating), until each has passed
    the p99 limit (or through every level: `--through`)."""
    steps: dict[str, list[Step]] = {variant.name: [] for variant in variants}
    active = list(variants)
    for index, level in enumerate(args.levels):
        for variant in active if index % 2 == 0 else active[::-1]:
            step = measure_level(env, variant, level, args, f"{variant.name[:3]}{index}m")
            steps[variant.name].append(step)
            print(
                f"  {variant.name:>12} level {level:g}/s: {step.rate:,.1f} moves/s, "
                f"p50 {step.p50:.1f} ms, p99 {step.p99:.1f} ms, server CPU {step.cpu_ms:.1f} ms/move, "
                f"errors {step.errors}",
                flush=True,
            )
        if not args.through:
            active = [variant for variant in active if steps[variant.name][-1].p99 <= args.p99]
        if not active:
            break
    return steps
