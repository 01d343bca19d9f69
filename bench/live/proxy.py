"""The live bench through nginx (bench/live --through-proxy): the production topology
(deploy/topology.py), one ASGI process against two behind the same nginx."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from bench.live.capacity import Step, capacity, table_sockets
from bench.live.clients import run_clients
from bench.live.setup import (
    PROXY_HEADING,
    TLS,
    _process_cpu,
    _redis_cpu,
    _with_descendants,
    make_matches,
    setup_django,
    write_section,
)


def measure_proxied(
    env: dict[str, str], web: int, level: float, args: argparse.Namespace, run_dir: Path
) -> Step:
    """One level through nginx in front of `web` uvicorn processes (a topology of its own,
    started for the level, as `measure_level` starts its processes)."""
    import ssl

    from deploy.topology import running

    made = make_matches(max(1, round(level * args.think)), 4, args.turn_seconds, f"x{web}l{int(level)}m")
    first = not (run_dir / "static" / "staticfiles.json").exists()
    base = {**env, "LOG_LEVEL": "WARNING"}
    with running(base, run_dir, web=web, migrate=False, collectstatic=first) as topology:
        TLS["context"] = ssl.create_default_context(cafile=str(topology.certificate))
        sockets, expected = table_sockets(made, [topology.ws_url])
        pids = topology.pids()

        def cpu() -> float:
            return sum(_process_cpu(pid) for pid in _with_descendants(pids)) + _redis_cpu()

        run = run_clients(sockets, expected, args.clients, args.think, args.seconds, args.warmup, cpu)
    if run["errors"]:
        print(f"  {web} process(es): socket errors, e.g. {run['errors']}", file=sys.stderr)
    return Step.of_run(level, run)


def run_through_proxy(args: argparse.Namespace, env: dict[str, str]) -> None:
    setup_django(env)
    webs = (1, 2)
    steps: dict[int, list[Step]] = {web: [] for web in webs}
    with tempfile.TemporaryDirectory() as folder:
        for index, level in enumerate(args.levels):
            for web in webs if index % 2 == 0 else webs[::-1]:
                step = measure_proxied(env, web, level, args, Path(folder) / f"web-{web}")
                steps[web].append(step)
                print(
                    f"  {web} uvicorn process(es) level {level:g}/s: {step.rate:,.1f} moves/s, "
                    f"p50 {step.p50:.1f} ms, p99 {step.p99:.1f} ms, server CPU {step.cpu_ms:.1f} ms/move, "
                    f"errors {step.errors}",
                    flush=True,
                )
    lines = [
        f"Measured with `python -m bench.live {' '.join(sys.argv[1:])}`: nginx "
        f"(TLS, deploy/local/nginx.conf) in front of 1 or 2 uvicorn processes, a Celery worker and beat "
        f"(deploy/topology.py, production settings), PostgreSQL, Redis and the bench's {args.clients} client "
        f"processes on this machine's {os.cpu_count()} cores; every socket wss:// through nginx; per level, "
        f"matches of 4 bots + 2 spectators, bots thinking {args.think:g} s ± 50 % a move, "
        f"{args.seconds:g} s ({args.warmup:g} s unmeasured); the two set-ups alternate level by level.",
        "",
        f"| uvicorn processes | capacity at p99 {args.p99:g} ms (moves/s) | server CPU per move (median) | "
        + " | ".join(f"{level:g}/s offered" for level in args.levels)
        + " |",
        "|---|---:|---:|" + "---:|" * len(args.levels),
    ]
    for web in webs:
        done = steps[web]
        cells = [f"{step.rate:,.0f}/s, p50 {step.p50:.0f} ms, p99 {step.p99:.0f} ms" for step in done]
        cpu = statistics.median(step.cpu_ms for step in done) if done else float("nan")
        lines.append(f"| {web} | {capacity(done, args.p99)} | {cpu:.1f} ms | " + " | ".join(cells) + " |")
    print("\n".join(lines))
    if args.write:
        write_section(lines, PROXY_HEADING)
