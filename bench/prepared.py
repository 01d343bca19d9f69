"""What one statement costs the client's CPU: the same small statement (a point read of a
match row, the shape of the store's own) sent through a psycopg cursor and through
`cacho.database.prepared.execute` (prepared once per connection, sent with libpq's exec_prepared).

    DATABASE_URL=postgres://root@127.0.0.1:5432/cacho .venv/bin/python bench/prepared.py [--calls 2000]

Reads only (a row that does not exist); prints the CPU time per call of this process
(what the client pays, whatever the server does meanwhile) and the wall time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")

SQL = "SELECT version, last_hash, status FROM cacho_match WHERE id = $1::uuid"


def _timed(call: object, count: int) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(count):
        call()  # type: ignore[operator]
    return (time.process_time() - cpu) / count, (time.perf_counter() - wall) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        print("DATABASE_URL is not set (the prepared path is PostgreSQL's)", file=sys.stderr)
        return 2
    import django

    django.setup()
    from django.db import connection

    from cacho.database import prepared

    key = str(uuid.uuid4())
    connection.ensure_connection()
    cursor = connection.connection.cursor()  # psycopg's own, without Django's wrapper
    through_cursor = SQL.replace("$1::uuid", "%s::uuid")

    def by_cursor() -> None:
        cursor.execute(through_cursor, [key])
        cursor.fetchall()

    def by_prepared() -> None:
        prepared.execute(connection, SQL, [key])

    for call in (by_cursor, by_prepared):  # warm: the statement prepared, the code paths loaded
        _timed(call, 100)
    print(f"{args.calls} calls each, PostgreSQL via psycopg {__import__('psycopg').__version__}")
    for label, call in (("psycopg cursor", by_cursor), ("cacho.database.prepared.execute", by_prepared)):
        cpu, wall = _timed(call, args.calls)
        print(f"{label}: {cpu * 1e6:.0f} µs CPU, {wall * 1e6:.0f} µs wall per call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
