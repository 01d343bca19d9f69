"""The PostgreSQL database a benchmark runs in: `<name>_bench` next to DATABASE_URL's,
dropped and created again at each run (a store grown by earlier runs makes figures drift)."""

from __future__ import annotations

import urllib.parse


def bench_url(url: str) -> str:
    """DATABASE_URL's address with the benchmark's database in place of its own."""
    parts = urllib.parse.urlsplit(url)
    return parts._replace(path=f"/{parts.path.lstrip('/') or 'cacho'}_bench").geturl()


def ensure_database(url: str) -> None:
    """The database `url` names, empty: dropped if it exists, then created."""
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
