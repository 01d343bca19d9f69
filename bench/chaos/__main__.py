"""Chaos bench: a Swiss tournament played by bots over websockets while the components are
killed and restarted, then checked for anything lost (docs/deploy.md, "What survives what").

    .venv/bin/python -m bench.chaos [--entries 60] [--rounds 4] [--physical 2] [--faults 12]
        [--gap 8] [--think 0.15] [--turn-seconds 10]
    .venv/bin/python -m bench.chaos.soak --minutes 30 [--matches 6] [--players 4]   # the soak

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

The soak (bench/chaos/soak.py, `--minutes`, on the same servers): `--matches` tables of
`--players` bots, each starting a new match as soon as its last one ends, no faults; each
minute the RSS of each web process, the worker (with its pool) and beat, the app's
PostgreSQL connections and Redis' memory; at the end the growth per hour after the first 5
minutes. A figure but Redis' memory grown by more than 10 % is a failure (a leak), as is
anything the checks above find.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.chaos.cluster import APP, Cluster, faults_at_once, init_cluster, schedule  # noqa: E402
from bench.chaos.tournament import Swiss  # noqa: E402
from bench.chaos.watch import Ledger, check, database, recovery, seat  # noqa: E402
from bench.live.setup import free_port, percentile, prepare, setup_django  # noqa: E402

Made = tuple[str, list[str]]  # a match and a session cookie per seat


def main(soak: Callable[[Cluster, list[str], argparse.Namespace], int] | None = None) -> int:
    """The chaos run; with `soak` (bench/chaos/soak.py) and `--minutes`, the soak instead."""
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
        cluster.env = prepare(  # Redis starts after: nothing to flush
            f"postgres://root@127.0.0.1:{pg_port}/cacho",
            f"redis://127.0.0.1:{redis_port}/0",
            bench="chaos",
            flush_redis=False,
            PGAPPNAME=APP,
        )
        for name in ("redis", "web0", "web1", "worker", "beat"):
            cluster.start(name)
        setup_django(cluster.env)
        urls = [f"ws://127.0.0.1:{port}" for port in cluster.web_ports]
        if args.minutes:
            if soak is None:
                parser.error("the soak runs from bench/chaos/soak.py")
            return soak(cluster, urls, args)
        return chaos(cluster, urls, args)
    finally:
        cluster.stop_all()


async def tournament_play(urls: list[str], swiss: Swiss, physical: int, think: float, ledger: Ledger,
                          until: float, made: list[Made]) -> list[int]:  # fmt: skip
    """Each round's tables as they are drawn, a bot per seat and a spectator per table, until
    the tournament is over; `physical` tables of each round are made physical before their
    first move and entered by a scorekeeper client. Returns the table count per round."""
    from bench.chaos.keeper import keep_score
    from bench.chaos.tournament import make_physical, round_in_play

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

    from bench.chaos.tournament import check_timers, check_tournament, make_swiss, sizes

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
