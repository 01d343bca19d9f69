"""Event-store append benchmark: commands/s and latency through the match service on
PostgreSQL, against raw psycopg single-row INSERTs of the same payload size.

    DATABASE_URL=postgres://root@127.0.0.1:5432/cacho REDIS_URL=redis://127.0.0.1:6379/15 \
        .venv/bin/python bench/append.py [--seconds 4] [--rounds 5] [--cpu]

Uses the database `<name>_bench` next to DATABASE_URL's, dropped, created and migrated on
start; nothing else is touched. With REDIS_URL set the after-commit work includes the
channel-layer notice and the Celery timer (the production shape), on that Redis database,
emptied at the end so that no real worker ever receives the run's timers (give it one of
its own); without it, the in-memory layer and the in-process timer thread. Every client
process (service and raw) warms up before a barrier starts the clock for all of them: a
serving process has its connections, prepared statements and loaded modules long before
its thousandth move.
Writes its figures to docs/benchmarks.md under "## Event store (bench/append.py)",
keeping the other sections.
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import random
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import cpu_by_kind  # noqa: E402
from bench.databases import bench_url, ensure_database  # noqa: E402

HEADING = "## Event store (bench/append.py)"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def summarise(latencies: list[float], elapsed: float) -> dict[str, float]:
    return {
        "ops": len(latencies),
        "rate": len(latencies) / elapsed,
        "p50": percentile(latencies, 0.50) * 1000,
        "p99": percentile(latencies, 0.99) * 1000,
        "mean": statistics.fmean(latencies) * 1000,
    }


# Set in the parent just before the clients fork (they inherit it): every client has
# warmed up when it is passed, so the clock starts for all of them at once.
START: list[Any] = []
# With --cpu, each run's CPU by kind of process (bench/cpu_by_kind.py), in ms per command,
# round after round.
CPU_BY_KIND: dict[str, list[dict[str, float]]] = {}
CPU_KINDS = {
    "python, other": "clients (Python)",
    "postgresql": "PostgreSQL",
    "redis": "Redis",
    "kernel": "kernel",
}


def _client(args: tuple[Any, int, float]) -> tuple[list[float], float]:
    work, index, seconds = args
    out: list[float] = []

    def started() -> float:
        """Called by the work once warm: waits for the other clients, starts the clock."""
        START[0].wait(timeout=120)
        return time.perf_counter()

    begin = work(index, seconds, out, started)
    return out, time.perf_counter() - begin  # the elapsed time includes draining the after-commit work


def run_clients(clients: int, seconds: float, work: Any, cpu_label: str | None = None) -> dict[str, float]:
    """`clients` separate processes (as production runs several workers; threads of one
    process would measure the GIL), forked after closing the parent's connections. Each
    warms up first (its connections, as a serving process holds them, and a few commands),
    then all start together. The rate divides by the longest client's time, after-commit
    work drained."""
    from django.db import connections

    connections.close_all()
    context = multiprocessing.get_context("fork")
    START[:] = [context.Barrier(clients)]
    sampler = cpu_by_kind.Sampler().start() if cpu_label is not None else None
    with context.Pool(clients) as pool:
        chunks = pool.map(_client, [(work, index, seconds) for index in range(clients)])
    elapsed = max(chunk[1] for chunk in chunks)
    figures = summarise([value for chunk in chunks for value in chunk[0]], elapsed)
    if sampler is not None and cpu_label:
        spent = sampler.stop()
        per_command = {kind: seconds * 1000 / figures["ops"] for kind, seconds in spent.most_common()}
        CPU_BY_KIND.setdefault(cpu_label, []).append(
            {kind: ms for kind, ms in per_command.items() if ms >= 0.001}
        )
    return figures


# ---------------------------------------------------------------- service


WARM_UP_COMMANDS = 50


def service_work(index: int, seconds: float, out: list[float], started: Any) -> float:
    from cacho.services.dispatch import DISPATCH

    inline = DISPATCH.inline
    DISPATCH.__init__()  # type: ignore[misc]  # fresh threads in this (forked) process
    DISPATCH.inline = inline
    from django.db import connections

    from cacho.services import matches, notices
    from tests.cacho.helpers import bot_move, state_of, version_of

    rng = random.Random(index)
    counter = 0
    tag = f"{os.getpid()}-{index}"
    players = ["ana", "beto", "caro", "dani"]
    match = matches.create_match("dudo", players, first_seat=0)
    key = str(match.pk)  # the cache's key, made once per match

    def play(until: float, timed: list[float] | None, commands: int = -1) -> None:
        nonlocal match, key, counter
        while time.perf_counter() < until and commands != 0:
            # The client's view of the match is the state the service just cached: no read
            # of ours between two commands (the rate is the service's, not the bench's).
            cached = matches.STATES.get(key)
            version, state = (
                (cached.version, cached.state) if cached is not None else (version_of(match), state_of(match))
            )
            if state.phase == "over":
                match = matches.create_match("dudo", players, first_seat=0)
                key = str(match.pk)
                continue
            player, command = bot_move(state, rng)  # the engine's bot policy, as every bench
            counter += 1
            begin = time.perf_counter()
            matches.submit(match.pk, player, command, f"b{tag}-{counter}", version)
            commands -= 1
            if timed is not None:
                timed.append(time.perf_counter() - begin)

    try:
        # Warm, as a process that has served for a while is: its database connections (the
        # request's and the dispatcher's), the statements prepared on them, its Redis link,
        # its broker connection (the first Celery publish of a process costs ~25 ms of CPU).
        play(float("inf"), None, WARM_UP_COMMANDS)
        DISPATCH.drain()
        notices.settle()
        begin = started()
        play(begin + seconds, out)
    finally:
        DISPATCH.drain()
        notices.settle()
        connections.close_all()
    return begin


def sample_payload_size() -> int:
    from cacho.models import Event

    sizes = [
        len(json.dumps(payload)) + len(json.dumps(metadata))
        for payload, metadata in Event.objects.order_by("-position").values_list("payload", "metadata")[:2000]
    ]
    return int(statistics.fmean(sizes)) if sizes else 200


# ---------------------------------------------------------------- raw baseline


RAW: dict[str, str] = {}


def raw_work(index: int, seconds: float, out: list[float], started: Any) -> float:
    """Single-row INSERTs of the same payload size, one transaction each (warmed as the
    service is: connected, and psycopg's statement prepared after its fifth execution)."""
    import psycopg

    stream = random.SystemRandom().randrange(2**31)
    with psycopg.connect(RAW["url"], autocommit=True) as conn:
        version = 0

        def insert() -> None:
            nonlocal version
            version += 1
            with conn.transaction():
                conn.execute(
                    "INSERT INTO bench_raw_event (stream, version, payload) VALUES (%s, %s, %s)",
                    (stream, version, RAW["payload"]),
                )

        for _ in range(WARM_UP_COMMANDS):
            insert()
        begin = started()
        stop = begin + seconds
        while time.perf_counter() < stop:
            before = time.perf_counter()
            insert()
            out.append(time.perf_counter() - before)
    return begin


def prepare_raw(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_raw_event")
        conn.execute(
            "CREATE TABLE bench_raw_event (position bigserial PRIMARY KEY, stream int NOT NULL, "
            "version int NOT NULL, payload jsonb NOT NULL, UNIQUE (stream, version))"
        )


# ---------------------------------------------------------------- report


def write_report(lines: list[str]) -> None:
    path = ROOT / "docs" / "benchmarks.md"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    section = HEADING + "\n\n" + "\n".join(lines).rstrip() + "\n"
    if HEADING in text:
        before, _, after = text.partition(HEADING)
        rest = after.split("\n## ", 1)
        tail = "\n## " + rest[1] if len(rest) > 1 else ""
        text = before + section + tail
    else:
        text = text.rstrip() + "\n\n" + section
    path.write_text(text, encoding="utf-8")


def cpu_lines(names: list[str]) -> list[str]:
    """The report's table of CPU per command by kind of process (medians of the rounds)."""
    lines = [
        "",
        "CPU per command by kind of process (`--cpu`: every process's CPU read from /proc every "
        "0.1 s during the run, its warm-up included, divided by the commands timed; medians of "
        "the rounds). The service's clients also choose each move (the engine's bot policy) and "
        "create and finish a match about every sixty commands; the raw clients only insert.",
        "",
        "| run | " + " | ".join(CPU_KINDS.values()) + " | all |",
        "|---|" + "---:|" * (len(CPU_KINDS) + 1),
    ]
    for name in names:
        rounds = CPU_BY_KIND[name]
        cells = [statistics.median(r.get(kind, 0.0) for r in rounds) for kind in CPU_KINDS]
        total = statistics.median(sum(r.values()) for r in rounds)
        lines.append(f"| {name} | " + " | ".join(f"{ms:.3f} ms" for ms in cells) + f" | {total:.3f} ms |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per run")
    parser.add_argument(
        "--rounds", type=int, default=3, help="service and raw runs alternate, this many times"
    )
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md")
    parser.add_argument(
        "--cpu", action="store_true", help="also print each run's CPU per command by kind of process (Linux)"
    )
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL")
    if not base:
        print("DATABASE_URL is required (a PostgreSQL server)", file=sys.stderr)
        return 2
    url = bench_url(base)
    ensure_database(url)
    os.environ["DATABASE_URL"] = url
    redis_url = os.environ.get("REDIS_URL")
    # As deployed (DEBUG off: no query log); BENCH_CACHO_ENV=development to compare.
    os.environ["CACHO_ENV"] = os.environ.get("BENCH_CACHO_ENV", "production")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    mode = f"channel layer {settings.CACHO_CHANNEL_LAYER}, timers {settings.CACHO_TIMERS}"

    if os.environ.get("BENCH_INLINE"):
        from cacho.services.dispatch import DISPATCH

        DISPATCH.inline = True
    # The service's modules (the channel layer's backend among them) are loaded before the
    # clients fork, as a server process loads them at its start (project/asgi.py):
    # otherwise every client imports them inside its timed run (about 0.4 s of CPU each,
    # 16% of the 4-client run's two cores; the layer's backend alone ~45 ms).
    from cacho.services.startup import load_write_path

    load_write_path()
    import tests.cacho.helpers  # noqa: F401

    # And, as the deployed server process does after start-up (project/asgi.py), what
    # start-up made is left out of the collector's scans (the raw clients fork from here too).
    gc.freeze()

    run_clients(1, 1.0, service_work)  # warm-up (connections, caches), and events to size the raw rows
    size = sample_payload_size()
    prepare_raw(url)
    RAW.update(url=url, payload=json.dumps({"blob": "x" * max(0, size - 12)}))
    # Service and raw runs alternate, round after round: this machine's speed drifts by
    # ±15% within a minute, and a ratio of two runs taken far apart measured the drift.
    rounds: list[dict[str, dict[str, float]]] = []
    for _ in range(args.rounds):
        figures: dict[str, dict[str, float]] = {}
        for clients in (1, 4):
            for name, work in ((f"service x{clients}", service_work), (f"raw INSERT x{clients}", raw_work)):
                figures[name] = run_clients(clients, args.seconds, work, name if args.cpu else None)
                if args.cpu:
                    print(
                        f"{name}: CPU per command, ms (warm-up included): "
                        + ", ".join(f"{kind} {ms:.3f}" for kind, ms in CPU_BY_KIND[name][-1].items())
                    )
        rounds.append(figures)

    def median(name: str, key: str) -> float:
        return statistics.median(figures[name][key] for figures in rounds)

    def ratios(clients: int) -> list[float]:
        return [f[f"service x{clients}"]["rate"] / f[f"raw INSERT x{clients}"]["rate"] for f in rounds]

    names = ["service x1", "raw INSERT x1", "service x4", "raw INSERT x4"]
    lines = [
        "    DATABASE_URL=postgres://root@127.0.0.1:5432/cacho REDIS_URL=redis://127.0.0.1:6379/15 \\",
        f"        .venv/bin/python bench/append.py {' '.join(sys.argv[1:])}".rstrip(),
        "",
        f"Measured with `bench/append.py {' '.join(sys.argv[1:])}` on this "
        "machine, PostgreSQL via psycopg 3 "
        f"({mode}); {args.rounds} rounds of {args.seconds:g} s per row, service and raw "
        "alternating; one bidding command per call, chosen by the engine's bot policy "
        "(`Game.bot_payload`: facing a bid it calls about as often as it raises, and a call "
        "resolves the round and starts the next with fresh committed dice), through "
        "`cacho.services.matches.submit` from 1 or 4 client processes, each warmed up by "
        f"{WARM_UP_COMMANDS} commands before the clock starts for all (decide, conditional "
        "append, match row update, commit, after-commit projections/notice/timer); the rate "
        "counts until each client's after-commit work is drained. Raw baseline: "
        "one single-row "
        f"INSERT of a {size}-byte JSON payload per transaction (warmed up alike). Medians over the rounds.",
        "",
        "| run | commands/s | p50 ms | p99 ms | mean ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in names:
        lines.append(
            f"| {name} | {median(name, 'rate'):.0f} | {median(name, 'p50'):.2f} | {median(name, 'p99'):.2f} "
            f"| {median(name, 'mean'):.2f} |"
        )
    ratio1, ratio4 = statistics.median(ratios(1)), statistics.median(ratios(4))
    p99 = median("service x1", "p99")

    def verdict(ok: bool) -> str:
        return "met" if ok else "**not met**"

    def spread(values: list[float]) -> str:
        return ", ".join(f"{value:.0%}" for value in values)

    lines += [
        "",
        f"Service / raw (median of the rounds' ratios): {ratio1:.0%} at 1 client ({spread(ratios(1))}), "
        f"{ratio4:.0%} at 4 clients ({spread(ratios(4))}) (target ≥ 50%: "
        f"{verdict(min(ratio1, ratio4) >= 0.5)}); p99 at 1 client {p99:.2f} ms (target < 10 ms: "
        f"{verdict(p99 < 10)}). Where the time goes: docs/event-store.md (What keeps a command cheap).",
    ]
    if args.cpu:
        lines += cpu_lines(names)
    if redis_url:
        import redis

        redis.Redis.from_url(redis_url).flushdb()  # the queued timers and groups of this run only
    print("\n".join(lines))
    if not args.no_write:
        write_report(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
