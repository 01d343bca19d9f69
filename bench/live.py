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
import json
import os
import random
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
        DATABASE_URL=env["DATABASE_URL"],
        REDIS_URL=env["REDIS_URL"],
        DJANGO_SETTINGS_MODULE="tournaments.settings",
        ALLOWED_HOSTS=env["ALLOWED_HOSTS"],
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


class Table:
    """One match: its sockets record when each event version reaches them."""

    def __init__(self, match_id: str, sockets: int) -> None:
        self.match_id = match_id
        self.sockets = sockets
        self.sent: dict[int, float] = {}
        self.arrivals: dict[int, list[float]] = defaultdict(list)
        self.moves = 0

    def latencies(self) -> list[float]:
        out = []
        for version, sent in self.sent.items():
            seen = self.arrivals.get(version, [])
            if len(seen) == self.sockets:
                out.append((max(seen) - sent) * 1000)
        return out


async def player(url: str, cookie: str, table: Table, stop: float, seed: int) -> None:
    from websockets.asyncio.client import connect

    from cacho.live.bot import choose_command

    rng = random.Random(seed)
    async with connect(
        url, additional_headers={"Cookie": cookie}, origin="http://127.0.0.1", max_queue=None
    ) as socket:
        pending = False
        async for raw in socket:
            now = time.perf_counter()
            frame = json.loads(raw)
            kind = frame.get("t")
            if "v" in frame and kind not in ("state", "ack"):
                table.arrivals[frame["v"]].append(now)
            if now > stop:
                return
            if kind == "state":
                if frame["d"]["status"] != "live":
                    return
                command = choose_command(frame["d"], rng)
                if command is not None and not pending:
                    pending = True
                    table.sent[frame["v"] + 1] = time.perf_counter()
                    await socket.send(
                        json.dumps(
                            {"t": "command", "id": f"{seed}-{frame['v']}", "v": frame["v"], "d": command}
                        )
                    )
            elif kind == "ack":
                pending = False
                if frame["ok"]:
                    table.moves += 1
                await socket.send('{"t":"state"}')
            elif "v" in frame and not pending:
                await socket.send('{"t":"state"}')


async def watcher(url: str, table: Table, stop: float, ready: asyncio.Event | None = None) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, origin="http://127.0.0.1", max_queue=None) as socket:
        if ready is not None:
            ready.set()
        while time.perf_counter() < stop:
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=max(0.1, stop - time.perf_counter()))
            except TimeoutError:
                return
            frame = json.loads(raw)
            if "v" in frame and frame.get("t") not in ("state", "ack"):
                table.arrivals[frame["v"]].append(time.perf_counter())


async def run_tables(
    urls: list[str], made: list[tuple[str, list[str]]], spectators: int, seconds: float
) -> tuple[list[Table], float]:
    tables = []
    tasks = []
    start = time.perf_counter()
    stop = start + seconds
    for number, (match_id, cookies) in enumerate(made):
        table = Table(match_id, len(cookies) + spectators)
        tables.append(table)
        for seat, cookie in enumerate(cookies):
            url = f"{urls[(number + seat) % len(urls)]}/ws/matches/{match_id}/"
            tasks.append(player(url, cookie, table, stop, number * 10 + seat))
        for extra in range(spectators):
            url = f"{urls[(number + extra) % len(urls)]}/ws/matches/{match_id}/"
            tasks.append(watcher(url, table, stop + 1))
    await asyncio.gather(*tasks, return_exceptions=True)
    return tables, time.perf_counter() - start


async def broadcast(
    urls: list[str], match: tuple[str, list[str]], spectators: int, seconds: float
) -> list[float]:
    match_id, cookies = match
    table = Table(match_id, spectators)
    stop = time.perf_counter() + seconds + 30
    ready = [asyncio.Event() for _ in range(spectators)]
    watchers = [
        asyncio.ensure_future(watcher(f"{urls[i % len(urls)]}/ws/matches/{match_id}/", table, stop, ready[i]))
        for i in range(spectators)
    ]
    await asyncio.wait_for(asyncio.gather(*(event.wait() for event in ready)), 60)
    await asyncio.sleep(1)
    play_stop = time.perf_counter() + seconds
    moves = Table(match_id, 0)  # the players' send times; arrivals counted at the spectators
    players = [
        player(f"{urls[0]}/ws/matches/{match_id}/", cookie, moves, play_stop, seat)
        for seat, cookie in enumerate(cookies)
    ]
    await asyncio.gather(*players, return_exceptions=True)
    await asyncio.sleep(2)
    for task in watchers:
        task.cancel()
    deliveries = []
    for version, sent in moves.sent.items():
        deliveries += [(moment - sent) * 1000 for moment in table.arrivals.get(version, [])]
    return deliveries


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


def timer_lateness() -> list[float]:
    """Recorded time of each timed-out move minus the deadline it was made for."""
    from cacho.models import Event

    late = []
    previous: dict[str, int] = {}
    for event in Event.objects.order_by("stream_id", "version").iterator():
        key = str(event.stream_id)
        if event.payload.get("timed_out") and key in previous:
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
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    env = prepare(os.environ["DATABASE_URL"], os.environ["REDIS_URL"])
    setup_django(env)
    lines = []
    echo = asyncio.run(websocket_echo())
    pubsub = asyncio.run(redis_pubsub(env["REDIS_URL"]))
    lines.append(f"- baseline, raw websockets echo round trip: {figures(echo)}")
    lines.append(f"- baseline, Redis pub/sub round trip: {figures(pubsub)}")
    made = make_matches(args.matches, 4, 30, "m")
    lone = make_matches(1, 2, 30, "b")[0]
    timed = make_matches(10, 2, 1, "t")  # nobody plays these: every turn is a timeout
    with tempfile.TemporaryDirectory() as logs, processes(env, args.servers, Path(logs)) as urls:
        tables, elapsed = asyncio.run(run_tables(urls, made, 2, args.seconds))
        latencies = [value for table in tables for value in table.latencies()]
        moves = sum(table.moves for table in tables)
        lines.append(
            f"- {args.matches} matches x (4 bots + 2 spectators), {args.servers} uvicorn processes: "
            f"command to every socket {figures(latencies)}; {moves / elapsed:,.0f} moves/s"
        )
        deliveries = asyncio.run(broadcast(urls, lone, args.spectators, min(args.seconds, 10)))
        lines.append(
            f"- one match watched by {args.spectators} spectators: command to each spectator "
            f"{figures(deliveries)}"
        )
        late = timer_lateness()
        lines.append(f"- turn timers (Celery ETA + beat sweep), fire time minus deadline: {figures(late)}")
    del timed
    print("\n".join(lines))
    if not args.no_write:
        write_section(lines)


if __name__ == "__main__":
    main()
