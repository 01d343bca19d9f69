"""Chaos bench: a Swiss tournament played by bots over websockets while the components are
killed and restarted, then checked for anything lost (docs/deploy.md, "What survives what").

    .venv/bin/python bench/chaos.py [--entries 60] [--rounds 4] [--physical 2] [--faults 12]
        [--gap 8] [--think 0.15] [--turn-seconds 10]
    .venv/bin/python bench/chaos_soak.py --minutes 30 [--matches 6] [--players 4]   # the soak

Runs on servers of its own: a PostgreSQL cluster (initdb in `--logs`, as `postgres` when
run as root; its server restarts among the faults), Redis on a free port, two uvicorn
processes, a Celery worker and beat (as deployed: deploy/Procfile). Nothing touches the
shared servers.

The chaos run: a Swiss of `--entries` players at tables of 4 to 6, each seat a bot on its
own socket (reconnecting, to the other web process, when its own goes) and a spectator
per table; `--physical` tables of each round are made physical and entered by a
scorekeeper client over the HTTP API, their players confirming from their own sessions.
Every `--gap` seconds one fault, each kind alone first, then two at once:

- `web`: `kill -9` of a web process, started again on its port;
- `worker`: `kill -9` of the Celery worker (turn timers pending), started again;
- `beat`: `kill -9` of beat, started again;
- `redis-restart`: Redis killed and started again empty;
- `redis-stop`: Redis away 5 s, then back empty;
- `pg-terminate`: `pg_terminate_backend` on every connection of the app;
- `pg-restart`: the PostgreSQL server shut down (fast) and started again.

Then it checks: every match's chain verifies; every command acknowledged (a socket's ok,
a scorekeeper's 201) is in the log; every match holds exactly its version's count of
events (none applied twice); no socket saw an event twice or a gap (a resync is a state
frame: allowed); no turn timer fired twice or early; the tournament is over, its log's
chain whole, every table finished exactly once; the standings equal a rebuild. It prints
the recovery per fault (p50/p99 of fault -> the next event at each table in play) and the
load average. Exit status 1 when a check fails.

The soak (bench/chaos_soak.py, `--minutes`, on the same servers): `--matches` tables of
`--players` bots, each starting a new match as soon as its last one ends, no faults; each
minute the RSS of each web process, the worker (with its pool) and beat, the app's
PostgreSQL connections and Redis' memory; at the end the growth per hour after the first 5
minutes. A figure but Redis' memory grown by more than 10 % is a failure (a leak), as is
anything the checks above find.
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
import threading
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.chaos_tournament import Swiss  # noqa: E402
from bench.live_setup import free_port, percentile, setup_django  # noqa: E402

SILENCE = 30.0  # seconds without a frame after which a socket is taken as stuck
APP = "cacho-chaos"  # application_name of the app's PostgreSQL connections
KINDS = ["web", "worker", "redis-restart", "pg-terminate", "beat", "redis-stop", "pg-restart"]
# After each kind once alone, two at once, in turn.
PAIRS = [("web", "redis-restart"), ("worker", "pg-terminate"), ("beat", "redis-stop"), ("web", "pg-restart"),
         ("worker", "redis-restart")]  # fmt: skip


def schedule(count: int) -> list[tuple[str, ...]]:
    plan: list[tuple[str, ...]] = [(kind,) for kind in KINDS]
    plan += PAIRS
    return [plan[number % len(plan)] for number in range(count)]


def pg_binary(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return str(found[-1] if found else name)


def init_cluster(log_dir: Path) -> Path:
    """A PostgreSQL cluster of the run's own (the fault restarts its server), owned by
    `postgres` when the bench runs as root (the server refuses root)."""
    data = log_dir / "pgdata"
    subprocess.run(["rm", "-rf", str(data)], check=True)
    data.mkdir(parents=True)
    (log_dir / "pgsock").mkdir(exist_ok=True)
    if os.geteuid() == 0:
        subprocess.run(["chown", "-R", "postgres:postgres", str(data), str(log_dir / "pgsock")], check=True)
    subprocess.run([pg_binary("initdb"), "-D", str(data), "-U", "root", "--auth=trust", "-E", "UTF8"],
                   check=True, capture_output=True, **as_postgres())  # fmt: skip
    return data


def as_postgres() -> dict[str, Any]:
    return {"user": "postgres", "group": "postgres"} if os.geteuid() == 0 else {}


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

    def __init__(self, env: dict[str, str], log_dir: Path, webs: int, redis_port: int, pg_port: int) -> None:
        self.env, self.log_dir, self.redis_port, self.pg_port = env, log_dir, redis_port, pg_port
        self.web_ports = [free_port() for _ in range(webs)]
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def command(self, name: str) -> list[str]:
        if name == "postgres":
            return [pg_binary("postgres"), "-D", str(self.log_dir / "pgdata"), "-p", str(self.pg_port),
                    "-k", str(self.log_dir / "pgsock"), "-c", "listen_addresses=127.0.0.1",
                    "-c", "fsync=off", "-c", "max_connections=200"]  # fmt: skip
        if name == "redis":
            return ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "no"]  # fmt: skip
        if name.startswith("web"):
            port = self.web_ports[int(name[3:])]
            return [sys.executable, "-m", "uvicorn", "project.asgi:application", "--port", str(port),
                    "--lifespan", "off", "--log-level", "warning",
                    "--ws-per-message-deflate", "false"]  # fmt: skip
        if name == "worker":
            return [sys.executable, "-m", "celery", "-A", "project", "worker", "-c", "2", "-l", "info"]
        return [sys.executable, "-m", "celery", "-A", "project", "beat", "-l", "info", "-s",
                str(self.log_dir / "beat.db")]  # fmt: skip

    def start(self, name: str) -> None:
        log = (self.log_dir / f"{name}.log").open("ab")
        extra = as_postgres() if name == "postgres" else {}
        self.procs[name] = subprocess.Popen(self.command(name), cwd=ROOT if not extra else "/", env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT, **extra)  # fmt: skip
        if name == "redis":
            wait_port(self.redis_port)
        elif name == "postgres":
            wait_port(self.pg_port)
            wait_postgres(self.pg_port)
        elif name.startswith("web"):
            wait_port(self.web_ports[int(name[3:])])

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        process = self.procs[name]
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(sig)
        process.wait(timeout=30)

    def pids(self, name: str) -> list[int]:
        """The process and its children (the worker's pool, uvicorn has none)."""
        root = self.procs[name].pid
        found, frontier = [root], [root]
        while frontier:
            parent = frontier.pop()
            with contextlib.suppress(OSError):
                children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
                found += [int(c) for c in children]
                frontier += [int(c) for c in children]
        return found

    def stop_all(self) -> None:
        postgres = self.procs.pop("postgres", None)
        for process in self.procs.values():
            if process.poll() is None:
                process.terminate()
        for process in self.procs.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        if postgres is not None and postgres.poll() is None:
            postgres.send_signal(signal.SIGINT)  # a fast shutdown
            postgres.wait(timeout=30)


def wait_postgres(port: int, timeout: float = 60) -> None:
    """The port answers before the server accepts queries (recovery after a restart)."""
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(f"postgres://root@127.0.0.1:{port}/postgres", connect_timeout=2):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


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
    elif kind == "pg-restart":
        cluster.kill("postgres", signal.SIGINT)  # a fast shutdown: every connection goes
        cluster.start("postgres")


def faults_at_once(cluster: Cluster, kinds: tuple[str, ...], number: int) -> None:
    """Two faults at once: each in a thread of its own, both started together."""
    threads = [threading.Thread(target=fault, args=(cluster, kind, number)) for kind in kinds]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


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
    stalls: list[str] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def watch_frames(ledger: Ledger, match_id: str, last: dict[str, Any]) -> Any:
    """A connection's frame check: events follow on from the last version known (a state
    frame resets it: a resync), never twice, never with a gap. `last` has the version and
    when the last frame came."""
    last.update(v=None, at=time.monotonic())

    def on_frame(frame: dict[str, Any]) -> None:
        last["at"] = time.monotonic()
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
        last: dict[str, Any] = {}
        on_frame = watch_frames(ledger, match_id, last)
        bot = Bot(url, headers={"Cookie": cookie} if cookie else {}, origin=origin,
                  seed=attempt, think_seconds=think, on_frame=on_frame)  # fmt: skip
        playing = asyncio.create_task(bot.play(timeout=max(0.1, until - time.monotonic())))
        while not playing.done():
            await asyncio.wait({playing}, timeout=SILENCE)
            if not playing.done() and time.monotonic() - last["at"] > SILENCE:
                # Every table moves within a turn's time: a socket silent longer missed
                # something (noted, then the seat reconnects: a state frame catches it up).
                playing.cancel()
                version = await database(match_version, match_id)
                if version != last["v"]:
                    ledger.stalls.append(
                        f"{match_id} seat {seed}: saw v{last['v']}, the match is at v{version}"
                    )
        try:
            await playing
        except (Exception, asyncio.CancelledError) as exc:  # the socket went (a fault): reconnect
            ledger.reasons[type(exc).__name__] += 1
        if bot.report.finished:
            ledger.finished.add(match_id)
            return
        attempt += 1
        ledger.reconnects += 1
        await asyncio.sleep(0.2)


# ---------------------------------------------------------------- checks


def match_version(match_id: str) -> int:
    from cacho.models import Match

    return int(Match.objects.values_list("version", flat=True).get(pk=match_id))


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


Made = tuple[str, list[str]]  # a match and a session cookie per seat


def main(soak: Callable[[Cluster, list[str], argparse.Namespace], int] | None = None) -> int:
    """The chaos run; with `soak` (bench/chaos_soak.py) and `--minutes`, the soak instead."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--faults", type=int, default=12)
    parser.add_argument("--gap", type=float, default=8.0, help="seconds between two faults")
    parser.add_argument("--think", type=float, default=0.15, help="seconds a bot thinks per move")
    parser.add_argument("--turn-seconds", type=int, default=10)
    parser.add_argument("--minutes", type=float, default=0, help="a soak of this many minutes, no faults")
    parser.add_argument("--entries", type=int, default=60, help="the Swiss' entries")
    parser.add_argument("--rounds", type=int, default=4, help="the Swiss' rounds")
    parser.add_argument("--physical", type=int, default=2, help="tables of each round kept by a scorekeeper")
    parser.add_argument("--limit", type=float, default=14, help="minutes the play may last at most")
    parser.add_argument("--logs", default="/tmp/cacho-chaos")
    args = parser.parse_args()
    # Stopped early (SIGTERM): its servers stop with it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    log_dir = Path(args.logs)
    log_dir.mkdir(parents=True, exist_ok=True)
    redis_port, pg_port = free_port(), free_port()
    init_cluster(log_dir)
    cluster = Cluster({}, log_dir, 2, redis_port, pg_port)
    cluster.start("postgres")
    try:
        cluster.env = prepare(
            f"postgres://root@127.0.0.1:{pg_port}/cacho", f"redis://127.0.0.1:{redis_port}/0"
        )
        for name in ("redis", "web0", "web1", "worker", "beat"):
            cluster.start(name)
        setup_django(cluster.env)
        urls = [f"ws://127.0.0.1:{port}" for port in cluster.web_ports]
        if args.minutes:
            if soak is None:
                parser.error("the soak runs from bench/chaos_soak.py")
            return soak(cluster, urls, args)
        return chaos(cluster, urls, args)
    finally:
        cluster.stop_all()


async def database(function: Any, *args: Any) -> Any:
    """A call of the bench's own to the database, in a thread, again after a fault took its
    connection (the faults end the bench's connections too)."""
    from django.db import connections
    from django.db.utils import InterfaceError, OperationalError

    def attempt() -> Any:
        for tries in range(300):
            try:
                return function(*args)
            except (OperationalError, InterfaceError):
                if tries == 299:
                    raise
                for connection in connections.all():
                    connection.close_if_unusable_or_obsolete()
                    with contextlib.suppress(Exception):
                        connection.close()
                time.sleep(0.2)
        raise AssertionError("unreachable")

    return await asyncio.to_thread(attempt)


async def tournament_play(urls: list[str], swiss: Swiss, physical: int, think: float, ledger: Ledger,
                          until: float, made: list[Made]) -> list[int]:  # fmt: skip
    """Each round's tables as they are drawn, a bot per seat and a spectator per table, until
    the tournament is over; `physical` tables of each round are made physical before their
    first move and entered by a scorekeeper client. Returns the table count per round."""
    from bench.chaos_keeper import keep_score
    from bench.chaos_tournament import make_physical, round_in_play

    bases = [url.replace("ws://", "http://") for url in urls]
    played, number = [], 0
    while time.monotonic() < until:
        found = await database(round_in_play, swiss.id, number)
        if found is None:
            return played
        if not found[1]:  # the next round is not drawn yet (its draw follows the last commit)
            await asyncio.sleep(0.2)
            continue
        number, tables = found
        played.append(len(tables))
        tasks = []
        for index, (table_id, match_id, entries) in enumerate(tables):
            seed = number * 1000 + index * 10
            moved = await database(make_physical, table_id, swiss.owner) if index < physical else None
            if moved is not None:
                players = {e: swiss.cookies[e] for e in entries}
                keeper = (bases, table_id, moved, swiss.keeper, players, seed, think, ledger.acked, until)
                tasks.append(asyncio.to_thread(keep_score, *keeper))
                match_id = moved
            else:
                tasks += [seat(urls, match_id, swiss.cookies[e], seed + i, think, ledger, until)
                          for i, e in enumerate(entries)]  # fmt: skip
            made.append((match_id, [swiss.cookies[e] for e in entries]))
            tasks.append(seat(urls, match_id, None, seed + 9, think, ledger, until))
        print(f"round {number}: {len(tables)} tables, {min(physical, len(tables))} physical", flush=True)
        for trouble in await asyncio.gather(*tasks):
            if isinstance(trouble, dict):
                for cause, count in trouble.items():
                    ledger.reasons[f"keeper {cause}"] += count
    return played


def chaos(cluster: Cluster, urls: list[str], args: argparse.Namespace) -> int:
    from django.db import connections

    from bench.chaos_tournament import check_timers, check_tournament, make_swiss, sizes

    swiss = make_swiss(args.entries, args.rounds, args.turn_seconds, "chaos")
    tournament_id = swiss.id
    made: list[tuple[str, list[str]]] = []
    ledger = Ledger()
    faults: list[tuple[str, float]] = []
    until = time.monotonic() + args.limit * 60
    rounds: list[int] = []

    async def scenario() -> None:
        players = asyncio.create_task(
            tournament_play(urls, swiss, args.physical, args.think, ledger, until, made)
        )
        for number, kinds in enumerate(schedule(args.faults)):
            await asyncio.sleep(args.gap)
            if players.done():
                break
            at = time.monotonic()
            await asyncio.to_thread(faults_at_once, cluster, kinds, number)
            faults.append(("+".join(kinds), at))
            print(f"fault {number + 1}: {' + '.join(kinds)}", flush=True)
        rounds.extend(await players)

    started = time.monotonic()
    asyncio.run(scenario())
    connections.close_all()  # the faults may have ended the bench's own
    found = check(made, ledger)
    held = check_tournament(tournament_id)
    timers = check_timers([match_id for match_id, _ in made])
    print(f"\n{args.entries} entries, {len(rounds)} rounds (table sizes {sizes(tournament_id)}), "
          f"{len(made)} tables, {len(ledger.acked)} acknowledged moves, {len(faults)} faults, "
          f"{ledger.reconnects} reconnections, {time.monotonic() - started:.0f} s, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")  # fmt: skip
    print("| fault | times | tables | recovery p50 | recovery p99 |\n|---|---|---|---|---|")
    for kind, values in recovery(faults, ledger).items():
        times = sum(1 for k, _ in faults if k == kind)
        print(f"| {kind} | {times} | {len(values)} | {percentile(values, 0.5):.2f} s | "
              f"{percentile(values, 0.99):.2f} s |")  # fmt: skip
    failures = {
        "acknowledged moves lost": found["lost"],
        "chains broken": found["broken"],
        "event counts differ (an event applied twice or missing)": found["count-differs"],
        "gaps seen by a socket": ledger.gaps,
        "events seen twice by a socket": ledger.repeats,
        "sockets left silent behind their match": ledger.stalls,
        "timers fired twice or early": timers,
        "tournament not over or its log broken": held["tournament"],
        "tables not finished exactly once": held["tables"],
        "standings differ from a rebuild": held["standings"],
    }
    for name, items in failures.items():
        print(f"{name}: {len(items)}" + (f" e.g. {items[:3]}" if items else ""))
    print(json.dumps({"tables finished": len(ledger.finished), "reconnections by cause": ledger.reasons}))
    return 1 if any(failures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
