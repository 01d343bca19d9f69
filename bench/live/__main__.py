"""Live-play benchmark over real websockets on PostgreSQL + Redis: how many moves a second
the platform serves while p99 stays under 50 ms.

    DATABASE_URL=postgres://root@127.0.0.1:5432/cacho REDIS_URL=redis://127.0.0.1:6379/0 \
        .venv/bin/python -m bench.live [--levels 10,20,40,60,80,100,130,160] [--seconds 15]
        [--variant NAME[:VAR=VALUE,...]]... [--own-redis] [--through] [--through-proxy]

Uses the database `<name>_bench_live` next to DATABASE_URL's (dropped, created and
migrated) and REDIS_URL's Redis database (emptied), or with `--own-redis` a Redis server
of its own (so that Redis's CPU in the figures is the run's alone). Each run starts two
uvicorn processes and a Celery worker with beat (as deployed: deploy/), then:

- capacity: matches of 4 bot players + 2 spectators, the bots thinking `--think`
  seconds ± 50 % per move (as people do), as many matches as make a level's offered moves
  per second. Measured: command sent → every socket of the match has the event (p50/p99)
  and moves per second. Levels go up until p99 passes `--p99` ms; the capacity is the
  moves per second where p99 crosses it (linear between the two levels around it).
  Each `--variant` (an environment for the server processes) runs every level, the
  variants' order alternating from one level to the next (the machine drifts). Also
  measured: the CPU the server processes (uvicorn, Celery) and Redis spend per move, the
  figure that stays readable when other work shares the cores;
- for the first variant: one match watched by `--spectators` spectators (each
  delivery's latency) and turn timers (fire time − deadline);
- baselines in the same run: a raw `websockets` echo and a Redis pub/sub round trip.

With `--through-proxy` it measures the production topology instead (deploy/topology.py:
nginx with TLS in front of the uvicorn processes, a Celery worker and beat): one ASGI
process against two behind the same nginx, level by level in one run (the order
alternating), every socket through nginx (wss://).

With `--profile DIR` every server process is sampled by py-spy (the dev extra) over each
level's measured window, and the CPU of each kind of process (web, Celery, Redis, the
PostgreSQL backends of the bench's database) recorded: `bench/live/profile.py` turns
that into milliseconds per move by part of the work (docs/benchmarks.md, "Where a live
move's CPU goes"). A player learns its turn from the event frame that puts it on turn,
which carries its view; it asks for a state only when that frame has none. A spectator
only watches; with `--spectators-ask-state` it also asks for a state 40 ms after the last
event it got, as the match page does after an event that carries no view.

Prints its figures; with `--write` they replace "## Live play (bench/live)" (or, with
`--through-proxy`, "## Live play through nginx (bench/live --through-proxy)") in
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.live.capacity import Variant, by_match, capacity, parse_variant, step_capacity, variant_env  # noqa: E402
from bench.live.clients import (  # noqa: E402
    SPECTATORS_ASK_STATE,
    Socket,
    redis_pubsub,
    run_clients,
    timer_lateness,
    websocket_echo,
)
from bench.live.proxy import run_through_proxy  # noqa: E402
from bench.live.setup import figures, free_port, make_matches, prepare, processes, setup_django, write_section  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--think", type=float, default=1.0, help="a bot's mean thinking time per move, seconds"
    )
    parser.add_argument(
        "--levels",
        type=lambda text: [float(item) for item in text.split(",")],
        default=[10.0, 20.0, 40.0, 60.0, 80.0, 100.0, 130.0, 160.0],
        help="offered moves per second, rising",
    )
    parser.add_argument("--p99", type=float, default=50.0, help="the latency limit, ms")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warmup", type=float, default=3, help="seconds of each run not measured")
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument(
        "--spectators-ask-state",
        action="store_true",
        help="every spectator asks for a state 40 ms after the last event it got, as the match page does",
    )
    parser.add_argument(
        "--turn-seconds",
        type=int,
        default=600,
        help="turn time of the matches the bots play, long enough that a level's matches, left "
        "mid-turn when it ends, do not time out while later levels are measured",
    )
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=2, help="client processes holding the sockets")
    parser.add_argument(
        "--variant",
        type=parse_variant,
        action="append",
        help="NAME[:VAR=VALUE,...]: server environment to measure (repeatable; default: as configured)",
    )
    parser.add_argument("--through", action="store_true", help="every level, past the p99 limit too")
    parser.add_argument(
        "--own-redis",
        action="store_true",
        help="a Redis server of the bench's own (redis-server on a free port): its CPU is the run's alone",
    )
    parser.add_argument(
        "--through-proxy",
        action="store_true",
        help="one against two uvicorn processes behind nginx (deploy/topology.py), every socket through it",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="sample every server process with py-spy (a dev extra) over each level's measured window, "
        "into DIR/<variant>-<level>/ (read them with bench/live/profile.py)",
    )
    parser.add_argument("--write", action="store_true", help="write the figures to docs/benchmarks.md")
    args = parser.parse_args()
    if args.spectators_ask_state:
        os.environ[SPECTATORS_ASK_STATE] = "1"  # read by the forked client processes
    variants: list[Variant] = args.variant or [Variant("as configured", {})]
    with contextlib.ExitStack() as stack:
        redis_url = os.environ["REDIS_URL"]
        if args.own_redis:
            redis_url = stack.enter_context(own_redis())
        env = prepare(os.environ["DATABASE_URL"], redis_url)
        if args.through_proxy:
            run_through_proxy(args, env)
        else:
            run(args, variants, env)


@contextlib.contextmanager
def own_redis() -> Any:
    port = free_port()
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        import redis

        client = redis.Redis(port=port)
        for _ in range(100):
            with contextlib.suppress(redis.ConnectionError):
                client.ping()
                break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


def run(args: argparse.Namespace, variants: list[Variant], env: dict[str, str]) -> None:
    setup_django(env)
    echo = asyncio.run(websocket_echo())
    pubsub = asyncio.run(redis_pubsub(env["REDIS_URL"]))
    steps = step_capacity(env, variants, args)

    first = variants[0]
    lone = make_matches(1, 4, args.turn_seconds, "crowd")[0]
    timed = make_matches(10, 2, 1, "timer")  # nobody plays these: every turn is a timeout
    del timed
    with (
        tempfile.TemporaryDirectory() as logs,
        processes(variant_env(env, first), args.servers, Path(logs)) as serving,
    ):
        urls = serving.urls
        measured_from_ms = time.time() * 1000 + 2000  # the worker and beat are up by then
        match_id, cookies = lone
        path = f"/ws/matches/{match_id}/"
        spread = 0 if by_match(first) else 1
        crowd: list[Socket] = [
            (match_id, urls[spread * i % len(urls)] + path, None, 0) for i in range(args.spectators)
        ]
        crowd += [(match_id, urls[0] + path, cookie, 900 + seat) for seat, cookie in enumerate(cookies)]
        crowd_run = run_clients(
            crowd, {match_id: len(crowd)}, args.clients, 1.0, args.seconds, args.warmup, serving.cpu_seconds
        )
        crowd_cpu_ms = 1000 * crowd_run["cpu"] / max(1, len(crowd_run["latencies"]))
        late = timer_lateness(measured_from_ms)

    lines = [
        f"Measured with `python -m bench.live {' '.join(sys.argv[1:])}`: "
        f"{args.servers} uvicorn processes, a Celery worker with beat, PostgreSQL, Redis and the bench's "
        f"{args.clients} client processes on this machine's {os.cpu_count()} cores; per level, matches "
        f"of 4 bots + 2 spectators, bots thinking {args.think:g} s ± 50 % a move, {args.seconds:g} s "
        f"({args.warmup:g} s unmeasured).",
        "",
        f"| variant | capacity at p99 {args.p99:g} ms (moves/s) | server CPU per move (median) | "
        + " | ".join(f"{level:g}/s offered" for level in args.levels[: max(len(v) for v in steps.values())])
        + " |",
        "|---|---:|---:|" + "---:|" * max(len(v) for v in steps.values()),
    ]
    for variant in variants:
        done = steps[variant.name]
        cells = [f"{step.rate:,.0f}/s, p99 {step.p99:.0f} ms, {step.cpu_ms:.1f} ms CPU" for step in done]
        cpu = statistics.median(step.cpu_ms for step in done) if done else float("nan")
        lines.append(
            f"| {variant.name} | {capacity(done, args.p99)} | {cpu:.1f} ms | " + " | ".join(cells) + " |"
        )
    lines += [
        "",
        f"- baseline, raw websockets echo round trip: {figures(echo)}",
        f"- baseline, Redis pub/sub round trip: {figures(pubsub)}",
        f"- one match (4 bots) watched by {args.spectators} spectators ({first.name}): command to each "
        f"socket {figures(crowd_run['deliveries'])}; to the last socket {figures(crowd_run['latencies'])}; "
        f"server CPU {crowd_cpu_ms:.1f} ms per move",
        f"- turn timers (Celery ETA + beat sweep), fire time minus deadline: {figures(late)}",
    ]
    print("\n".join(lines))
    if args.write:
        write_section(lines)


if __name__ == "__main__":
    main()
