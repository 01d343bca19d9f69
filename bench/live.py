"""Live-play benchmark over real websockets on PostgreSQL + Redis.

    DATABASE_URL=postgres://root@127.0.0.1:5432/cacho REDIS_URL=redis://127.0.0.1:6379/0 \
        .venv/bin/python bench/live.py [--matches 100] [--spectators 500] [--seconds 20]

Starts two uvicorn processes and a Celery worker with beat on the database
`cacho_bench_live` (created and migrated; Redis db 11). Measures:

- N matches of 4 bot players + 2 spectators: end-to-end latency from a command sent
  to the moment every player and spectator of the match has the resulting event
  (p50/p99), and moves per second;
- one match watched by S spectators: broadcast latency of each delivery (p50/p99);
- turn timers: fire time (the timed-out event's recorded time) minus the deadline;
- baselines in the same run: a raw `websockets` echo round trip and a Redis pub/sub
  round trip.

Writes its figures to docs/benchmarks.md under "## Live play (bench/live.py)".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
HEADING = "## Live play (bench/live.py)"
DB_NAME = "cacho_bench_live"
REDIS_DB = 11


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def figures(values: list[float]) -> str:
    return f"p50 {percentile(values, 0.5):.1f} ms, p99 {percentile(values, 0.99):.1f} ms (n={len(values)})"


# ---------------------------------------------------------------- setup


def prepare(database_url: str, redis_url: str) -> dict[str, str]:
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    redis_parts = urllib.parse.urlsplit(redis_url)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        DATABASE_URL=parts._replace(path=f"/{DB_NAME}").geturl(),
        REDIS_URL=redis_parts._replace(path=f"/{REDIS_DB}").geturl(),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # Measured as deployed: production settings (DEBUG off), plain ws:// on loopback.
        CACHO_ENV=os.environ.get("BENCH_CACHO_ENV", "production"),
        SECRET_KEY=secrets.token_urlsafe(50),
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    import redis

    redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    return env


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(
        {key: env[key] for key in ("DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "CACHO_ENV", "SECRET_KEY")},
        DJANGO_SETTINGS_MODULE="tournaments.settings",
        SECURE_SSL_REDIRECT="0",
    )
    import django

    django.setup()


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def processes(env: dict[str, str], servers: int, log_dir: Path) -> Any:
    started: list[subprocess.Popen[bytes]] = []
    urls = []
    try:
        relay = env.get("CACHO_NOTICE_RELAY")
        if relay:
            log = (log_dir / "relay.log").open("wb")
            started.append(
                subprocess.Popen(
                    [sys.executable, "manage.py", "notice_relay"],
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
            from cacho.services.relay import wait_until_bound

            wait_until_bound(relay, started[-1])
        for number in range(servers):
            port = free_port()
            log = (log_dir / f"uvicorn-{number}.log").open("wb")
            started.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "uvicorn",
                        "tournaments.asgi:application",
                        "--port",
                        str(port),
                        "--lifespan",
                        "off",
                        "--log-level",
                        "warning",
                        "--ws-max-queue",
                        "256",
                        "--ws-per-message-deflate",  # as deployed (deploy/Procfile)
                        "false",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
            urls.append(f"ws://127.0.0.1:{port}")
        log = (log_dir / "celery.log").open("wb")
        started.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "tournaments",
                    "worker",
                    "-B",
                    "-c",
                    "2",
                    "-l",
                    "warning",
                    "-s",
                    str(log_dir / "beat.db"),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        time.sleep(4)
        yield urls
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def make_matches(count: int, players: int, turn_seconds: int, prefix: str) -> list[tuple[str, list[str]]]:
    """Matches with seated users; returns (match id, session cookie per seat)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from cacho.services import matches

    made = []
    for number in range(count):
        names = [f"{prefix}{number}p{seat}" for seat in range(players)]
        match = matches.create_match("dudo", names, turn_seconds=turn_seconds)
        cookies = []
        for index, name in enumerate(names):
            user = get_user_model().objects.create_user(name)
            matches.take_seat(match.pk, index, user)
            client = Client()
            client.force_login(user)
            cookies.append(
                f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
            )
        made.append((str(match.pk), cookies))
    return made


# ---------------------------------------------------------------- measured clients
# The sockets are spread over client processes (one Python loop reading 600 sockets
# would become the thing measured); every socket is connected and has its first state
# before the clock starts. Times are `time.monotonic()`: one clock for every process.


def clock() -> float:
    return time.monotonic()


class Table:
    """One match as one client process sees it: when each version was caused by a command
    sent from here, and when it reached each of this process's sockets."""

    def __init__(self) -> None:
        self.sent: dict[int, float] = {}
        self.arrivals: dict[int, list[float]] = defaultdict(list)
        self.moves = 0


class Run:
    """What every socket of a client process shares: how many have their first state,
    and the common start and stop once the parent says go."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.connected = 0
        self.go = asyncio.Event()
        self.start = 0.0
        self.handshakes = asyncio.Semaphore(40)

    @property
    def stop(self) -> float:
        return self.start + self.seconds


async def player(url: str, cookie: str, table: Table, run: Run, seed: int, think: float) -> None:
    """A seat: knows whose turn it is from the event frames (`to_act`), asks for a state
    (its legal moves) only on its own turn, thinks, then sends its command."""
    from websockets.asyncio.client import connect

    from cacho.live.bot import choose_command

    rng = random.Random(seed)
    async with run.handshakes:  # a burst of hundreds of handshakes is not what is measured
        socket = await connect(
            url,
            additional_headers={"Cookie": cookie},
            origin="http://127.0.0.1",
            max_queue=None,
            open_timeout=60,
        )
        first = json.loads(await asyncio.wait_for(socket.recv(), 60))
    async with socket:
        run.connected += 1
        me = first["d"]["viewer"]["player"]
        await run.go.wait()
        await asyncio.sleep(max(0.0, run.start - clock()))
        pending = False
        waiting_state = True
        await socket.send('{"t":"state"}')
        to_act: str | None = None
        while clock() < run.stop:
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=max(0.05, run.stop - clock()))
            except TimeoutError:
                return
            now = clock()
            frame = json.loads(raw)
            kind = frame.get("t")
            if "v" in frame and kind not in ("state", "ack"):
                table.arrivals[frame["v"]].append(now)
                if "to_act" in frame:
                    to_act = frame["to_act"]
                    if to_act == me and not pending and not waiting_state:
                        waiting_state = True
                        await socket.send('{"t":"state"}')
            elif kind == "state":
                waiting_state = False
                if frame["d"]["status"] != "live":
                    return
                command = choose_command(frame["d"], rng)
                if command is None or pending:
                    continue
                if think:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                if clock() >= run.stop:
                    return
                pending = True
                table.sent[frame["v"] + 1] = clock()
                await socket.send(
                    json.dumps({"t": "command", "id": f"{seed}-{frame['v']}", "v": frame["v"], "d": command})
                )
            elif kind == "ack":
                pending = False
                if frame["ok"]:
                    table.moves += 1
                # Refused (the match moved while thinking), or my own move made it my turn
                # again (a lost dudo: the loser starts): look at the table again.
                if (not frame["ok"] or to_act == me) and not waiting_state:
                    waiting_state = True
                    await socket.send('{"t":"state"}')


async def watcher(url: str, table: Table, run: Run) -> None:
    from websockets.asyncio.client import connect

    async with run.handshakes:
        socket = await connect(url, origin="http://127.0.0.1", max_queue=None, open_timeout=60)
        await asyncio.wait_for(socket.recv(), 60)  # the first state
    async with socket:
        run.connected += 1
        await run.go.wait()
        stop = run.stop + 2  # the last commands' events still count
        while clock() < stop:
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=max(0.05, stop - clock()))
            except TimeoutError:
                return
            frame = json.loads(raw)
            if "v" in frame and frame.get("t") not in ("state", "ack"):
                table.arrivals[frame["v"]].append(clock())


# A socket: (table key, url, session cookie or None for a spectator, seed)
Socket = tuple[str, str, str | None, int]


def client_process(sockets: list[Socket], think: float, seconds: float, channel: Any) -> None:
    """One client process: connect every socket, say ready, wait for the common start,
    play or watch for `seconds`, send back (sent, arrivals, moves) per table."""
    ready, go, start_at, out = channel
    gc.freeze()  # the measuring client must not pause on a collection of what it inherited

    async def main() -> dict[str, Any]:
        run = Run(seconds)
        tables: dict[str, Table] = defaultdict(Table)

        async def socket_task(key: str, url: str, cookie: str | None, seed: int) -> None:
            if cookie is None:
                await watcher(url, tables[key], run)
            else:
                await player(url, cookie, tables[key], run, seed, think)

        async def starter() -> None:
            deadline = clock() + 120
            while run.connected < len(sockets) and clock() < deadline:
                await asyncio.sleep(0.05)
            ready.put(run.connected)
            await asyncio.get_running_loop().run_in_executor(None, go.wait)
            run.start = start_at.value
            run.go.set()

        results = await asyncio.wait_for(
            asyncio.gather(starter(), *(socket_task(*item) for item in sockets), return_exceptions=True),
            seconds + 240,
        )
        errors = [repr(item) for item in results if isinstance(item, BaseException)]
        return {
            "tables": {key: (table.sent, dict(table.arrivals), table.moves) for key, table in tables.items()},
            "errors": errors[:3],
            "error_count": len(errors),
        }

    out.put(asyncio.run(main()))


def run_clients(
    sockets: list[Socket], expected: dict[str, int], clients: int, think: float, seconds: float
) -> dict[str, Any]:
    """Spread `sockets` over `clients` processes (a table's sockets may land in several);
    returns the merged latencies (command sent → the event at every one of the table's
    `expected[table]` sockets), deliveries (command → each socket), moves and errors."""
    import multiprocessing

    from django.db import connections

    connections.close_all()
    context = multiprocessing.get_context("fork")
    ready, out = context.Queue(), context.Queue()
    go, start_at = context.Event(), context.Value("d", 0.0)
    shares = [sockets[index::clients] for index in range(clients)]
    workers = [
        context.Process(target=client_process, args=(share, think, seconds, (ready, go, start_at, out)))
        for share in shares
    ]
    for worker in workers:
        worker.start()
    connected = sum(ready.get(timeout=180) for _ in workers)
    start_at.value = clock() + 0.5
    go.set()
    parts = [out.get(timeout=seconds + 300) for _ in workers]
    for worker in workers:
        worker.join(timeout=10)
        if worker.is_alive():
            worker.kill()
    sent: dict[str, dict[int, float]] = defaultdict(dict)
    arrivals: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    moves = 0
    errors: list[str] = []
    for part in parts:
        errors += part["errors"]
        for key, (table_sent, table_arrivals, table_moves) in part["tables"].items():
            sent[key].update(table_sent)
            for version, moments in table_arrivals.items():
                arrivals[key][version] += moments
            moves += table_moves
    latencies, deliveries, firsts, spreads = [], [], [], []
    for key, table_sent in sent.items():
        for version, moment in table_sent.items():
            seen = arrivals[key].get(version, [])
            deliveries += [(arrival - moment) * 1000 for arrival in seen]
            if len(seen) == expected[key]:
                latencies.append((max(seen) - moment) * 1000)
                firsts.append((min(seen) - moment) * 1000)
                spreads.append((max(seen) - min(seen)) * 1000)
    return {
        "latencies": latencies,
        "firsts": firsts,
        "spreads": spreads,
        "deliveries": deliveries,
        "moves": moves,
        "connected": connected,
        "sockets": len(sockets),
        "errors": errors,
        "error_count": sum(part["error_count"] for part in parts),
    }


# ---------------------------------------------------------------- baselines


async def websocket_echo(rounds: int = 2000) -> list[float]:
    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    async def echo(connection: Any) -> None:
        async for message in connection:
            await connection.send(message)

    port = free_port()
    async with serve(echo, "127.0.0.1", port), connect(f"ws://127.0.0.1:{port}") as socket:
        out = []
        for _ in range(rounds):
            start = time.perf_counter()
            await socket.send('{"t":"ping"}')
            await socket.recv()
            out.append((time.perf_counter() - start) * 1000)
        return out


async def redis_pubsub(url: str, rounds: int = 2000) -> list[float]:
    import redis.asyncio as redis

    client = redis.Redis.from_url(url)
    pubsub = client.pubsub()
    await pubsub.subscribe("bench-live")
    await pubsub.get_message(timeout=1)
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        await client.publish("bench-live", "x")
        while (await pubsub.get_message(timeout=1)) is None:
            pass
        out.append((time.perf_counter() - start) * 1000)
    await pubsub.aclose()
    await client.aclose()
    return out


def timer_lateness(since_ms: float) -> list[float]:
    """Recorded time of each timed-out move minus the deadline it was made for, for the
    deadlines after `since_ms` (earlier ones were due before the worker had started)."""
    from cacho.models import Event

    late = []
    previous: dict[str, int] = {}
    for event in Event.objects.order_by("stream_id", "version").iterator():
        key = str(event.stream_id)
        if event.payload.get("timed_out") and key in previous and previous[key] >= since_ms:
            late.append(event.recorded_at.timestamp() * 1000 - previous[key])
        deadline = event.metadata.get("deadline")
        if deadline is not None:
            previous[key] = deadline
    return late


def write_section(lines: list[str]) -> None:
    path = ROOT / "docs" / "benchmarks.md"
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    section = HEADING + "\n\n" + "\n".join(lines) + "\n"
    if HEADING in text:
        before, _, rest = text.partition(HEADING)
        after = rest.split("\n## ", 1)
        text = before + section + ("\n## " + after[1] if len(after) > 1 else "")
    else:
        text = text.rstrip() + "\n\n" + section
    path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=2, help="client processes holding the sockets")
    parser.add_argument(
        "--think", type=float, default=1.0, help="a bot's mean thinking time per move, seconds (0: none)"
    )
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--no-relay", action="store_true", help="no notice relay: each server writes its own")
    args = parser.parse_args()
    env = prepare(os.environ["DATABASE_URL"], os.environ["REDIS_URL"])
    if not args.no_relay:  # as deployed (deploy/): the servers hand their notices to a relay
        env["CACHO_NOTICE_RELAY"] = os.path.join(tempfile.mkdtemp(prefix="cacho-live-"), "notices.sock")
    setup_django(env)
    lines = []
    echo = asyncio.run(websocket_echo())
    pubsub = asyncio.run(redis_pubsub(env["REDIS_URL"]))
    lines.append(f"- baseline, raw websockets echo round trip: {figures(echo)}")
    lines.append(f"- baseline, Redis pub/sub round trip: {figures(pubsub)}")
    made = make_matches(args.matches, 4, 30, "m")
    lone = make_matches(1, 4, 30, "b")[0]
    timed = make_matches(10, 2, 1, "t")  # nobody plays these: every turn is a timeout
    with tempfile.TemporaryDirectory() as logs, processes(env, args.servers, Path(logs)) as urls:
        measured_from_ms = time.time() * 1000 + 2000  # the worker and beat are up by then
        sockets: list[Socket] = []
        expected: dict[str, int] = {}
        for number, (match_id, cookies) in enumerate(made):
            path = f"/ws/matches/{match_id}/"
            for seat, cookie in enumerate(cookies):
                sockets.append(
                    (match_id, urls[(number + seat) % len(urls)] + path, cookie, number * 10 + seat)
                )
            for extra in range(2):
                sockets.append((match_id, urls[(number + extra) % len(urls)] + path, None, 0))
            expected[match_id] = len(cookies) + 2
        table_run = run_clients(sockets, expected, args.clients, args.think, args.seconds)
        lines.append(
            f"- {args.matches} matches x (4 bots + 2 spectators) = {table_run['sockets']} sockets on "
            f"{args.servers} uvicorn processes{'' if args.no_relay else ' and a notice relay'}, "
            f"bots thinking {args.think:g} s ± 50 % per move: command to "
            f"every socket of the match {figures(table_run['latencies'])}; "
            f"{table_run['moves'] / args.seconds:,.0f} moves/s; socket errors {table_run['error_count']}"
        )
        lines.append(
            f"  - of which, command to the first socket {figures(table_run['firsts'])}; first to last "
            f"socket {figures(table_run['spreads'])}"
        )
        match_id, cookies = lone
        path = f"/ws/matches/{match_id}/"
        crowd: list[Socket] = [
            (match_id, urls[i % len(urls)] + path, None, 0) for i in range(args.spectators)
        ]
        crowd += [(match_id, urls[0] + path, cookie, 900 + seat) for seat, cookie in enumerate(cookies)]
        crowd_run = run_clients(
            crowd, {match_id: len(crowd)}, args.clients, args.think, min(args.seconds, 15)
        )
        lines.append(
            f"- one match (4 bots) watched by {args.spectators} spectators: command to each socket "
            f"{figures(crowd_run['deliveries'])}; to the last socket {figures(crowd_run['latencies'])}"
        )
        late = timer_lateness(measured_from_ms)
        lines.append(
            "- turn timers (Celery ETA + beat sweep) during both runs, fire time minus deadline: "
            f"{figures(late)}"
        )
        for label, result in (("tables", table_run), ("crowd", crowd_run)):
            if result["errors"]:
                print(f"{label}: socket errors, e.g. {result['errors']}", file=sys.stderr)
    del timed
    print("\n".join(lines))
    if not args.no_write:
        write_section(lines)


if __name__ == "__main__":
    main()
