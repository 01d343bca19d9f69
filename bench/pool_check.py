"""What a pooled connection's loan costs: a loan, `SELECT 1` and the return, through a
psycopg pool of one connection checked with psycopg_pool's own check (an empty statement,
a round trip at every loan) and with the project's (`project.backends.db_pool`: a round
trip only when the idle connection's socket is readable), alternately.

    DATABASE_URL=postgres://root@127.0.0.1:5432/cacho .venv/bin/python bench/pool_check.py
        [--loans 5000] [--rounds 3]

Prints the CPU time of this process (what the lending process pays) and the wall time per
loan, and the server's statements per loan (`pg_stat_statements` is not needed: the
connection's `xact_commit` count in `pg_stat_database` moves once per statement in
autocommit).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _commits(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return int(row[0])


def _run(url: str, check: Any, loans: int) -> tuple[float, float, float]:
    from psycopg_pool import ConnectionPool

    pool = ConnectionPool(url, min_size=1, max_size=1, check=check, open=True)
    try:
        for _ in range(50):  # warm
            with pool.connection() as conn:
                conn.execute("SELECT 1")
        time.sleep(0.6)  # pg_stat_database is flushed about every half second
        before = _commits(url)
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(loans):
            with pool.connection() as conn:
                conn.execute("SELECT 1")
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        pool.close()
    time.sleep(0.6)
    statements = (_commits(url) - before - 1) / loans  # less the count's own read
    return cpu / loans * 1e6, wall / loans * 1e6, statements


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--loans", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL")
    if not url:
        sys.exit("DATABASE_URL is needed (PostgreSQL)")
    from psycopg_pool import ConnectionPool

    from project.backends.db_pool import check_connection

    checks = {
        "psycopg_pool's check": ConnectionPool.check_connection,
        "the project's check": check_connection,
    }
    figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in checks}
    for _ in range(args.rounds):
        for name, check in checks.items():
            figures[name].append(_run(url, check, args.loans))
    print(f"{args.loans} loans a round, {args.rounds} rounds, alternately (medians):")
    print("| check | CPU per loan | wall per loan | statements per loan |")
    print("|---|---:|---:|---:|")
    for name, rows in figures.items():
        cpu, wall, statements = (sorted(column)[len(column) // 2] for column in zip(*rows, strict=True))
        print(f"| {name} | {cpu:.1f} µs | {wall:.1f} µs | {statements:.2f} |")


if __name__ == "__main__":
    main()
