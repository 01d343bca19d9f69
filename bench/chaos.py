"""Chaos bench: matches played by bots over websockets while the components are killed and
restarted one at a time, then checked for anything lost (docs/deploy.md, "What survives what").

    DATABASE_URL=postgres://root@127.0.0.1:5432/cacho .venv/bin/python bench/chaos.py \
        [--matches 12] [--players 4] [--faults 10] [--gap 8] [--think 0.15]

Uses the database `<name>_bench_chaos` next to DATABASE_URL's (dropped, created and
migrated) and a Redis server of its own (it restarts it). Starts two uvicorn processes, a
Celery worker and beat (as deployed: deploy/Procfile), then plays `--matches` matches of
`--players` bots (each seat's socket reconnects, to the other web process, when its own
goes) plus a spectator per match, and every `--gap` seconds does one fault, in turn:

- `web`: `kill -9` of a web process, started again on its port;
- `worker`: `kill -9` of the Celery worker (turn timers pending), started again;
- `beat`: `kill -9` of beat, started again;
- `redis-restart`: Redis killed and started again empty;
- `redis-stop`: Redis away 5 s, then back empty;
- `pg-terminate`: `pg_terminate_backend` on every connection of the app.

Then it checks: every match's chain verifies; every command acknowledged ok is in the log
(the event at its version exists); no socket saw an event twice or a gap (a resync is a
state frame: allowed); every match has exactly its version's count of events. It prints
the recovery per fault kind (p50/p99 of fault → the next event at each table still in
play) and the acknowledged moves lost (must be 0). Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.live import free_port, make_matches, percentile, setup_django  # noqa: E402

APP = "cacho-chaos"  # application_name of the app's PostgreSQL connections
KINDS = ["web", "worker", "redis-restart", "pg-terminate", "beat", "redis-stop"]


def prepare(database_url: str, redis_url: str) -> dict[str, str]:
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    name = f"{parts.path.lstrip('/') or 'cacho'}_bench_chaos"
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    skip = ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")
    env = {k: v for k, v in os.environ.items() if k not in skip}
    env.update(
        DATABASE_URL=parts._replace(path=f"/{name}").geturl(),
        REDIS_URL=redis_url,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CACHO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        PGAPPNAME=APP,
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   capture_output=True)  # fmt: skip
    return env


class Cluster:
    """The processes of the run, each started again by name after a fault."""

    def __init__(self, env: dict[str, str], log_dir: Path, webs: int, redis_port: int) -> None:
        self.env, self.log_dir, self.redis_port = env, log_dir, redis_port
        self.web_ports = [free_port() for _ in range(webs)]
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def command(self, name: str) -> list[str]:
        if name == "redis":
            return ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "no"]  # fmt: skip
        if name.startswith("web"):
            port = self.web_ports[int(name[3:])]
            return [sys.executable, "-m", "uvicorn", "tournaments.asgi:application", "--port", str(port),
                    "--lifespan", "off", "--log-level", "warning",
                    "--ws-per-message-deflate", "false"]  # fmt: skip
        if name == "worker":
            return [sys.executable, "-m", "celery", "-A", "tournaments", "worker", "-c", "2", "-l", "info"]
        return [sys.executable, "-m", "celery", "-A", "tournaments", "beat", "-l", "info", "-s",
                str(self.log_dir / "beat.db")]  # fmt: skip

    def start(self, name: str) -> None:
        log = (self.log_dir / f"{name}.log").open("ab")
        self.procs[name] = subprocess.Popen(self.command(name), cwd=ROOT, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT)  # fmt: skip
        if name == "redis":
            wait_port(self.redis_port)
        elif name.startswith("web"):
            wait_port(self.web_ports[int(name[3:])])

    def kill(self, name: str) -> None:
        process = self.procs[name]
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def stop_all(self) -> None:
        for process in self.procs.values():
            if process.poll() is None:
                process.terminate()
        for process in self.procs.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def wait_port(port: int, timeout: float = 30) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def terminate_app_connections(database_url: str) -> int:
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", [APP]
        ).fetchall()
    return len(rows)


def fault(cluster: Cluster, kind: str, number: int) -> None:
    if kind == "web":
        name = f"web{number % len(cluster.web_ports)}"
        cluster.kill(name)
        cluster.start(name)
    elif kind in ("worker", "beat"):
        cluster.kill(kind)
        cluster.start(kind)
    elif kind == "redis-restart":
        cluster.kill("redis")
        cluster.start("redis")
    elif kind == "redis-stop":
        cluster.kill("redis")
        time.sleep(5)
        cluster.start("redis")
    elif kind == "pg-terminate":
        terminate_app_connections(cluster.env["DATABASE_URL"])


# ---------------------------------------------------------------- clients


@dataclass
class Ledger:
    """What the clients saw: acknowledged versions, arrivals per match, gaps and repeats."""

    acked: set[tuple[str, int]] = field(default_factory=set)
    arrivals: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    gaps: list[str] = field(default_factory=list)
    repeats: list[str] = field(default_factory=list)
    finished: set[str] = field(default_factory=set)
    reconnects: int = 0
    reasons: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def watch_frames(ledger: Ledger, match_id: str) -> Any:
    """A connection's frame check: events follow on from the last version known (a state
    frame resets it: a resync), never twice, never with a gap."""
    last = {"v": None}

    def on_frame(frame: dict[str, Any]) -> None:
        kind, version = frame.get("t"), frame.get("v")
        if kind == "state":
            last["v"] = frame["d"]["version"]
            if frame["d"].get("status") != "live":
                ledger.finished.add(match_id)
        elif kind == "ack":
            if frame.get("ok"):
                ledger.acked.add((match_id, int(frame["v"])))
        elif isinstance(version, int) and kind not in ("presence", "pong", "error"):
            ledger.arrivals[match_id].append(time.monotonic())
            if last["v"] is not None:
                if version <= last["v"]:
                    ledger.repeats.append(f"{match_id} v{version} after v{last['v']}")
                elif version != last["v"] + 1:
                    ledger.gaps.append(f"{match_id} v{version} after v{last['v']}")
            last["v"] = max(version, last["v"] or 0)

    return on_frame


async def seat(urls: list[str], match_id: str, cookie: str | None, seed: int, think: float, ledger: Ledger,
               until: float) -> None:  # fmt: skip
    """One seat (or, without a cookie, a spectator): plays until the match ends, reconnecting
    (to the next web process) whenever its socket goes."""
    from cacho.live.bot import Bot

    attempt = seed
    while time.monotonic() < until and match_id not in ledger.finished:
        url = urls[attempt % len(urls)] + f"/ws/matches/{match_id}/"
        origin = urls[attempt % len(urls)].replace("ws://", "http://")  # the origin check takes the port
        bot = Bot(url, headers={"Cookie": cookie} if cookie else {}, origin=origin,
                  seed=attempt, think_seconds=think, on_frame=watch_frames(ledger, match_id))  # fmt: skip
        try:
            await bot.play(timeout=max(0.1, until - time.monotonic()))
        except Exception as exc:  # the socket went (a fault): reconnect
            ledger.reasons[type(exc).__name__] += 1
        if bot.report.finished:
            ledger.finished.add(match_id)
            return
        attempt += 1
        ledger.reconnects += 1
        await asyncio.sleep(0.2)


async def play(urls: list[str], made: list[tuple[str, list[str]]], think: float, ledger: Ledger,
               until: float) -> None:  # fmt: skip
    tasks = []
    for number, (match_id, cookies) in enumerate(made):
        for index, cookie in enumerate(cookies):
            tasks.append(seat(urls, match_id, cookie, number * 10 + index, think, ledger, until))
        tasks.append(seat(urls, match_id, None, number * 10 + 9, think, ledger, until))
    await asyncio.gather(*tasks)


# ---------------------------------------------------------------- checks


def check(made: list[tuple[str, list[str]]], ledger: Ledger) -> dict[str, Any]:
    from cacho.models import Event, Match
    from cacho.services.verify import verify_match

    broken, lost, counts = [], [], []
    for match_id, _ in made:
        match = Match.objects.get(pk=match_id)
        report = verify_match(match)
        if not report["valid"]:
            broken.append(f"{match_id}: {report['error']}")
        if Event.objects.filter(stream_id=match_id).count() != match.version:
            counts.append(match_id)
    versions = {
        (str(stream), version) for stream, version in Event.objects.values_list("stream_id", "version")
    }
    lost = sorted(f"{m} v{v}" for m, v in ledger.acked if (m, v) not in versions)
    return {"broken": broken, "lost": lost, "count-differs": counts}


def recovery(faults: list[tuple[str, float]], ledger: Ledger) -> dict[str, list[float]]:
    """Per fault kind: seconds from the fault to the next event at each table still in play."""
    found: dict[str, list[float]] = defaultdict(list)
    for kind, at in faults:
        for times in ledger.arrivals.values():
            after = [t for t in times if t > at]
            if after and any(t < at for t in times):
                found[kind].append(after[0] - at)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--faults", type=int, default=10)
    parser.add_argument("--gap", type=float, default=8.0, help="seconds between two faults")
    parser.add_argument("--think", type=float, default=0.15, help="seconds a bot thinks per move")
    parser.add_argument("--turn-seconds", type=int, default=10)
    parser.add_argument("--logs", default="/tmp/cacho-chaos")
    args = parser.parse_args()
    database_url = os.environ.get("DATABASE_URL")
    if not database_url:
        parser.error("DATABASE_URL (PostgreSQL) is required")
    log_dir = Path(args.logs)
    log_dir.mkdir(parents=True, exist_ok=True)
    redis_port = free_port()
    env = prepare(database_url, f"redis://127.0.0.1:{redis_port}/0")
    cluster = Cluster(env, log_dir, 2, redis_port)
    try:
        for name in ("redis", "web0", "web1", "worker", "beat"):
            cluster.start(name)
        setup_django(env)
        made = make_matches(args.matches, args.players, args.turn_seconds, "chaos")
        urls = [f"ws://127.0.0.1:{port}" for port in cluster.web_ports]
        ledger = Ledger()
        faults: list[tuple[str, float]] = []
        until = time.monotonic() + args.gap * (args.faults + 1) + 5

        async def scenario() -> None:
            players = asyncio.create_task(play(urls, made, args.think, ledger, until))
            for number in range(args.faults):
                await asyncio.sleep(args.gap)
                kind = KINDS[number % len(KINDS)]
                at = time.monotonic()
                await asyncio.to_thread(fault, cluster, kind, number)
                faults.append((kind, at))
                print(f"fault {number + 1}: {kind}", flush=True)
            await players

        started = time.monotonic()
        asyncio.run(scenario())
        found = check(made, ledger)
    finally:
        cluster.stop_all()
    print(f"\n{len(made)} matches, {len(ledger.acked)} acknowledged moves, {len(faults)} faults, "
          f"{ledger.reconnects} reconnections, {time.monotonic() - started:.0f} s")  # fmt: skip
    print("| fault | times | tables | recovery p50 | recovery p99 |\n|---|---|---|---|---|")
    for kind, values in recovery(faults, ledger).items():
        times = sum(1 for k, _ in faults if k == kind)
        print(f"| {kind} | {times} | {len(values)} | {percentile(values, 0.5):.2f} s | "
              f"{percentile(values, 0.99):.2f} s |")  # fmt: skip
    failures = {
        "acknowledged moves lost": found["lost"],
        "chains broken": found["broken"],
        "event counts differ": found["count-differs"],
        "gaps seen by a socket": ledger.gaps,
        "events seen twice by a socket": ledger.repeats,
    }
    for name, items in failures.items():
        print(f"{name}: {len(items)}" + (f" e.g. {items[:3]}" if items else ""))
    print(json.dumps({"finished": len(ledger.finished), "reconnections by cause": ledger.reasons}))
    return 1 if any(failures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
