"""Live-play benchmark over real websockets on PostgreSQL + Redis: how many moves a second
the platform serves while p99 stays under 50 ms.

    DATABASE_URL=postgres://root@127.0.0.1:5432/cacho REDIS_URL=redis://127.0.0.1:6379/0 \
        .venv/bin/python bench/live.py [--levels 10,20,40,60,80,100,130,160] [--seconds 15]
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
PostgreSQL backends of the bench's database) recorded: `bench/live_profile.py` turns
that into milliseconds per move by part of the work (docs/benchmarks.md, "Where a live
move's CPU goes"). A player learns its turn from the event frame that puts it on turn,
which carries its view; it asks for a state only when that frame has none.

Prints its figures; with `--write` they replace "## Live play (bench/live.py)" (or, with
`--through-proxy`, "## Live play through nginx (bench/live.py --through-proxy)") in
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
HEADING = "## Live play (bench/live.py)"
PROXY_HEADING = "## Live play through nginx (bench/live.py --through-proxy)"
# The client side of wss:// sockets (through nginx): trusts the topology's certificate.
TLS: dict[str, Any] = {}


def tls(url: str) -> dict[str, Any]:
    return {"ssl": TLS["context"]} if url.startswith("wss://") else {}


def origin_of(url: str) -> str:
    """The page origin a browser would send for this socket (the origin check: scheme, host, port)."""
    return url.split("/ws/")[0].replace("wss://", "https://").replace("ws://", "http://")


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
    name = f"{parts.path.lstrip('/') or 'cacho'}_bench_live"
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        DATABASE_URL=parts._replace(path=f"/{name}").geturl(),
        REDIS_URL=redis_url,
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
        DJANGO_SETTINGS_MODULE="project.settings",
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


def wait_until_serving(urls: list[str], celery_log: Path, started: list[Any], timeout: float = 60) -> None:
    """Every uvicorn port accepts and the Celery worker says it is ready."""
    import socket

    deadline = time.monotonic() + timeout
    pending = [int(url.rsplit(":", 1)[1]) for url in urls]
    while pending or b" ready." not in celery_log.read_bytes():
        if time.monotonic() > deadline or any(process.poll() is not None for process in started):
            raise RuntimeError(f"the servers did not start; see {celery_log.parent}")
        for port in list(pending):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                pending.remove(port)
        time.sleep(0.1)


@dataclass(frozen=True)
class Serving:
    urls: list[str]
    pids: list[int]  # the processes started (their children count with them)

    def cpu_seconds(self) -> float:
        """CPU time used so far by the server processes, their children and Redis."""
        return sum(_process_cpu(pid) for pid in _with_descendants(self.pids)) + _redis_cpu()


def _with_descendants(pids: list[int]) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    found, frontier = set(pids), list(pids)
    while frontier:
        parent = frontier.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                found.add(child)
                frontier.append(child)
    return sorted(found)


def _process_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _redis_cpu() -> float:
    import redis

    info = redis.Redis.from_url(os.environ["REDIS_URL"]).info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


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
                        "project.asgi:application",
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
                    "project",
                    "worker",
                    "-B",
                    "-c",
                    "2",
                    "-l",
                    "info",
                    "-s",
                    str(log_dir / "beat.db"),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        wait_until_serving(urls, log_dir / "celery.log", started)
        yield Serving(urls, [process.pid for process in started])
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
            origin=origin_of(url),
            max_queue=None,
            open_timeout=60,
            **tls(url),
        )
        first = json.loads(await asyncio.wait_for(socket.recv(), 60))
    async with socket:
        run.connected += 1
        me = first["d"]["viewer"]["player"]
        document = first["d"]  # what a state frame says; an event frame's `state` updates it
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
                        if "state" not in frame:  # a server that does not send it: ask
                            waiting_state = True
                            await socket.send('{"t":"state"}')
                            continue
                        # The frame that puts me on turn carries my view: no state request.
                        frame = {"t": "state", "v": frame["v"], "d": {**document, "state": frame["state"]}}
                        kind = "state"
            if kind == "state":
                waiting_state = False
                document = frame["d"]
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
        socket = await connect(url, origin=origin_of(url), max_queue=None, open_timeout=60, **tls(url))
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
    sockets: list[Socket],
    expected: dict[str, int],
    clients: int,
    think: float,
    seconds: float,
    warmup: float = 0.0,
    cpu: Any = None,
    on_measure: Any = None,
) -> dict[str, Any]:
    """Spread `sockets` over `clients` processes (a table's sockets may land in several);
    returns the merged latencies (command sent → the event at every one of the table's
    `expected[table]` sockets), deliveries (command → each socket), moves and errors, of
    the commands sent after the first `warmup` seconds (a new server process's first moves
    open its connections). `cpu`: a function whose difference over the measured window
    is reported as `cpu` (seconds). `on_measure(seconds)`: called when the measured window
    opens, with its length (the profiler starts there)."""
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
    measured_from = start_at.value + warmup
    go.set()
    used: list[float] = []
    if on_measure is not None:

        def open_window() -> None:
            time.sleep(max(0.0, measured_from - clock()))
            on_measure(seconds - warmup)

        threading.Thread(target=open_window, daemon=True).start()
    if cpu is not None:

        def probe() -> None:
            for moment in (measured_from, start_at.value + seconds):
                time.sleep(max(0.0, moment - clock()))
                used.append(cpu())

        prober = threading.Thread(target=probe, daemon=True)
        prober.start()
    parts = [out.get(timeout=seconds + 300) for _ in workers]
    if cpu is not None:
        prober.join()
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
            if moment < measured_from:
                continue
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
        "rate": len(latencies) / max(1e-9, seconds - warmup),
        "cpu": used[1] - used[0] if len(used) == 2 else float("nan"),
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


def write_section(lines: list[str], heading: str = HEADING) -> None:
    path = ROOT / "docs" / "benchmarks.md"
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    section = heading + "\n\n" + "\n".join(lines) + "\n"
    if heading in text:
        before, _, rest = text.partition(heading)
        after = rest.split("\n## ", 1)
        text = before + section + ("\n## " + after[1] if len(after) > 1 else "")
    else:
        text = text.rstrip() + "\n\n" + section
    path.write_text(text)


# ---------------------------------------------------------------- capacity


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


def variant_env(env: dict[str, str], variant: Variant) -> dict[str, str]:
    return {**env, **variant.env}


def table_sockets(made: list[tuple[str, list[str]]], urls: list[str]) -> tuple[list[Socket], dict[str, int]]:
    """4 players and 2 spectators per match, spread over the server processes."""
    sockets: list[Socket] = []
    expected: dict[str, int] = {}
    for number, (match_id, cookies) in enumerate(made):
        path = f"/ws/matches/{match_id}/"
        for seat, cookie in enumerate(cookies):
            sockets.append((match_id, urls[(number + seat) % len(urls)] + path, cookie, number * 10 + seat))
        for extra in range(2):
            sockets.append((match_id, urls[(number + extra) % len(urls)] + path, None, 0))
        expected[match_id] = len(cookies) + 2
    return sockets, expected


def measure_level(
    env: dict[str, str], variant: Variant, level: float, args: argparse.Namespace, tag: str
) -> Step:
    made = make_matches(max(1, round(level * args.think)), 4, 30, tag)
    with (
        tempfile.TemporaryDirectory() as logs,
        processes(variant_env(env, variant), args.servers, Path(logs)) as serving,
    ):
        sockets, expected = table_sockets(made, serving.urls)
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
    return Step(
        level,
        run["rate"],
        percentile(run["latencies"], 0.5),
        percentile(run["latencies"], 0.99),
        run["error_count"],
        1000 * run["cpu"] / max(1, len(run["latencies"])),
    )


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
    (collapsed stacks: `bench/live_profile.py` reads them)."""
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
        "into DIR/<variant>-<level>/ (read them with bench/live_profile.py)",
    )
    parser.add_argument("--write", action="store_true", help="write the figures to docs/benchmarks.md")
    args = parser.parse_args()
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
    lone = make_matches(1, 4, 30, "crowd")[0]
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
        crowd: list[Socket] = [
            (match_id, urls[i % len(urls)] + path, None, 0) for i in range(args.spectators)
        ]
        crowd += [(match_id, urls[0] + path, cookie, 900 + seat) for seat, cookie in enumerate(cookies)]
        crowd_run = run_clients(crowd, {match_id: len(crowd)}, args.clients, 1.0, args.seconds, args.warmup)
        late = timer_lateness(measured_from_ms)

    lines = [
        f"Measured {time.strftime('%Y-%m-%d')} with `bench/live.py {' '.join(sys.argv[1:])}`: "
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
        f"socket {figures(crowd_run['deliveries'])}; to the last socket {figures(crowd_run['latencies'])}",
        f"- turn timers (Celery ETA + beat sweep), fire time minus deadline: {figures(late)}",
    ]
    print("\n".join(lines))
    if args.write:
        write_section(lines)


# ---------------------------------------------------------------- through nginx


def measure_proxied(
    env: dict[str, str], web: int, level: float, args: argparse.Namespace, run_dir: Path
) -> Step:
    """One level through nginx in front of `web` uvicorn processes (a topology of its own,
    started for the level, as `measure_level` starts its processes)."""
    import ssl

    from deploy.topology import running

    made = make_matches(max(1, round(level * args.think)), 4, 30, f"x{web}l{int(level)}m")
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
    return Step(
        level,
        run["rate"],
        percentile(run["latencies"], 0.5),
        percentile(run["latencies"], 0.99),
        run["error_count"],
        1000 * run["cpu"] / max(1, len(run["latencies"])),
    )


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
        f"Measured {time.strftime('%Y-%m-%d')} with `bench/live.py {' '.join(sys.argv[1:])}`: nginx "
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


if __name__ == "__main__":
    main()
