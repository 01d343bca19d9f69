"""The chaos bench's soak (`.venv/bin/python -m bench.chaos.soak --minutes 30`, on the
servers and with the flags of bench/chaos): steady play without faults, each process's
memory, the app's PostgreSQL connections and Redis' memory sampled every minute, and their
growth after the first minutes."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script, from anywhere

from bench.chaos.__main__ import main
from bench.chaos.cluster import APP, Cluster
from bench.chaos.watch import Ledger, check, database, seat
from bench.live.setup import make_matches


async def steady(
    urls: list[str],
    slots: int,
    players: int,
    turn_seconds: int,
    think: float,
    ledger: Ledger,
    until: float,
    made: list[tuple[str, list[str]]],
) -> None:
    """Steady play: `slots` tables, each starting a new match as soon as its last one ends."""

    async def slot(number: int) -> None:
        game = 0
        while time.monotonic() < until:
            match = (await database(make_matches, 1, players, turn_seconds, f"soak{number}g{game}"))[0]
            made.append(match)
            match_id, cookies = match
            seats = [
                seat(urls, match_id, cookie, number * 1000 + game * 10 + index, think, ledger, until)
                for index, cookie in enumerate(cookies)
            ]
            seats.append(seat(urls, match_id, None, number * 1000 + game * 10 + 9, think, ledger, until))
            await asyncio.gather(*seats)
            game += 1

    await asyncio.gather(*(slot(number) for number in range(slots)))


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def sample(cluster: Cluster) -> dict[str, float]:
    """One minute's figures: RSS per process (with its children), the app's PostgreSQL
    connections, Redis' used memory."""
    import psycopg
    import redis

    names = ("web0", "web1", "worker", "beat")
    found: dict[str, float] = {name: rss_bytes(cluster.pids(name)) / 2**20 for name in names}
    parts = urllib.parse.urlsplit(cluster.env["DATABASE_URL"])
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        query = "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s"
        row = conn.execute(query, [APP]).fetchone()
    found["pg connections"] = float(row[0] if row else 0)
    found["redis MiB"] = redis.Redis(port=cluster.redis_port).info("memory")["used_memory"] / 2**20
    return found


Samples = list[tuple[float, dict[str, float]]]


def growth(samples: Samples, settle_minutes: float) -> dict[str, tuple[float, float]]:
    """Per figure: growth per hour and in per cent, from the first sample after `settle_minutes`
    to the last (the first minutes fill caches and pools)."""
    start = samples[0][0]
    settled = [s for s in samples if s[0] - start >= settle_minutes * 60] or samples
    (first_at, first), (last_at, last) = settled[0], samples[-1]
    hours = max(last_at - first_at, 1.0) / 3600
    return {
        name: ((last[name] - first[name]) / hours, 100 * (last[name] - first[name]) / max(first[name], 1e-9))
        for name in first
    }


def soak(cluster: Cluster, urls: list[str], args: argparse.Namespace) -> int:
    ledger = Ledger()
    made: list[tuple[str, list[str]]] = []
    samples: Samples = []
    until = time.monotonic() + args.minutes * 60

    async def scenario() -> None:
        players = asyncio.create_task(
            steady(urls, args.matches, args.players, args.turn_seconds, args.think, ledger, until, made)
        )
        while time.monotonic() < until:
            figures = await asyncio.to_thread(sample, cluster)
            samples.append((time.monotonic(), figures))
            load = os.getloadavg()[0]
            print(
                f"minute {len(samples) - 1}: "
                + ", ".join(f"{k} {v:.1f}" for k, v in figures.items())
                + f", matches {len(made)}, moves {len(ledger.acked)}, load {load:.2f}",
                flush=True,
            )
            await asyncio.sleep(min(60, max(0.0, until - time.monotonic())))
        samples.append((time.monotonic(), await asyncio.to_thread(sample, cluster)))
        await players

    asyncio.run(scenario())
    found = check(made, ledger)
    print(
        f"\n{len(made)} matches, {len(ledger.acked)} acknowledged moves, {args.minutes} min, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print("| figure | after 5 min | at the end | growth per hour | growth |\n|---|---|---|---|---|")
    grown = growth(samples, 5)
    start = samples[0][0]
    settled = next((s for s in samples if s[0] - start >= 300), samples[0])[1]
    leaks = []
    for name, (per_hour, per_cent) in grown.items():
        end = samples[-1][1][name]
        print(f"| {name} | {settled[name]:.1f} | {end:.1f} | {per_hour:+.1f} | {per_cent:+.1f} % |")
        if name != "redis MiB" and per_cent > 10:
            leaks.append(name)
    failures = {
        "grew more than 10 % after 5 min": leaks,
        "acknowledged moves lost": found["lost"],
        "chains broken": found["broken"],
        "event counts differ": found["count-differs"],
        "gaps seen by a socket": ledger.gaps,
        "events seen twice by a socket": ledger.repeats,
    }
    for name, items in failures.items():
        print(f"{name}: {len(items)}" + (f" e.g. {items[:3]}" if items else ""))
    return 1 if any(failures.values()) else 0


if __name__ == "__main__":
    sys.exit(main(soak))
