"""Ratings benchmark: a rebuild of 100,000 rated tables' ratings.

    DATABASE_URL=postgres://root@127.0.0.1:5432/cacho .venv/bin/python bench/ratings.py \
        [--tables 100000] [--players 5000] [--skip-db]

1. The pure fold (`tournaments.ratings.fold`): random tables of 2–6 players drawn from a
   pool, random placements with ties, folded in order with openskill's Plackett–Luce.
2. The stored rebuild (`projection.rebuild(from_tables=False)`): the same tables stored as
   `RatedMatch` inputs, every rating change and rating dropped and written again, in the
   database `<name>_bench` next to DATABASE_URL's (dropped, created and migrated on start).
3. The incremental updates on that store: tables that sort last (the usual finish: 50 of
   them, one after the other), and a ruling on the table in the middle of the order (half
   the history refolded).

Reading the inputs from real tournament tables and match streams (`rebuild()` with its
default `from_tables=True`) is not part of it: 100,000 played matches are not built here.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

APPENDS = 50  # tables that sort last, recorded one after the other


def random_tables(count: int, players: int, rng: random.Random) -> list[tuple[int, str, list[list[int]]]]:
    tables = []
    for number in range(count):
        size = rng.randint(2, 6)
        seated = rng.sample(range(1, players + 1), size)
        tables.append(
            (
                (number + 1) * 10,
                str(uuid.UUID(int=rng.getrandbits(128))),
                sorted([p, rng.randint(1, size)] for p in seated),
            )
        )
    return tables


def pure(tables: list[tuple[int, str, list[list[int]]]]) -> tuple[float, int]:
    from tournaments.ratings.fold import RatedTable, Skill, fold

    inputs = [RatedTable(key, match, tuple((p, place) for p, place in lines)) for key, match, lines in tables]
    state: dict[int, Skill] = {}
    started = time.perf_counter()
    changes = sum(1 for _ in fold(inputs, state))
    return time.perf_counter() - started, changes


def setup_django(base: str) -> None:
    from bench.databases import bench_url, ensure_database

    os.environ["DATABASE_URL"] = bench_url(base)
    ensure_database(os.environ["DATABASE_URL"])
    os.environ["CACHO_ENV"] = "production"  # DEBUG off: no query log
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def stored(tables: list[tuple[int, str, list[list[int]]]], players: int) -> dict[str, float]:
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tournaments.models import RatedMatch, RatingChange
    from tournaments.ratings.projection import rebuild, record

    users = get_user_model().objects
    users.bulk_create([users.model(pk=p, username=f"p{p}") for p in range(1, players + 1)], batch_size=5000)
    rows = [RatedMatch(match_id=m, family="dudo", key=k, placements=lines) for k, m, lines in tables]
    RatedMatch.objects.bulk_create(rows, batch_size=5000)
    figures = {}
    started = time.perf_counter()
    written = rebuild(from_tables=False)
    figures["rebuild"] = time.perf_counter() - started
    figures["changes"] = written
    assert RatingChange.objects.count() == written

    # Tables that sort last, one after the other, each of 4 players drawn from the pool.
    rng = random.Random(29)
    key = tables[-1][0]
    appends = []
    for _ in range(APPENDS):
        key += 10
        drawn = rng.sample(range(1, players + 1), 4)
        seated = sorted([p, place] for p, place in zip(drawn, (1, 2, 3, 4), strict=True))
        match = uuid.uuid4()
        started = time.perf_counter()
        with transaction.atomic():
            record(match, RatedMatch(match_id=match, family="dudo", key=key, placements=seated))
        appends.append(time.perf_counter() - started)
    figures["append"] = statistics.median(appends)
    figures["append_p90"] = statistics.quantiles(appends, n=10)[-1]

    key, middle, lines = tables[len(tables) // 2]
    flipped = sorted([p, len(lines) + 1 - place] for p, place in lines)
    started = time.perf_counter()
    with transaction.atomic():
        record(middle, RatedMatch(match_id=middle, family="dudo", key=key, placements=flipped))
    figures["ruling"] = time.perf_counter() - started
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--skip-db", action="store_true")
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL")
    if not args.skip_db:
        if not base:
            print("DATABASE_URL is required for the stored rebuild (or --skip-db)", file=sys.stderr)
            return 2
        setup_django(base)  # before `tournaments` is imported: its settings read DATABASE_URL
    tables = random_tables(args.tables, args.players, random.Random(23))
    seats = sum(len(lines) for _, _, lines in tables)
    elapsed, changes = pure(tables)
    print(
        f"pure fold: {args.tables:,} tables ({seats:,} seats, {args.players:,} players, {changes:,} changes) "
        f"in {elapsed:.2f} s: "
        f"{args.tables / elapsed:,.0f} tables/s, {elapsed / args.tables * 1e6:.1f} µs/table"
    )
    if args.skip_db:
        return 0
    figures = stored(tables, args.players)
    print(
        f"stored rebuild: {args.tables:,} tables, {figures['changes']:,} rating changes written in "
        f"{figures['rebuild']:.2f} s ({args.tables / figures['rebuild']:,.0f} tables/s)"
    )
    print(
        f"incremental, a table that sorts last: median {figures['append'] * 1000:.1f} ms, "
        f"p90 {figures['append_p90'] * 1000:.1f} ms ({APPENDS} tables)"
    )
    print(f"incremental, a ruling on the middle table (half the order refolded): {figures['ruling']:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
