"""An empty test database between tests, in milliseconds.

The match server's tests run in autocommit, as the servers do (appends are their own
transactions, after-commit work runs after a real commit, other threads and processes
see what a test wrote). pytest-django's `transactional_db` empties the database after
each such test with Django's `flush`: a TRUNCATE (on SQLite a DELETE) of every table,
then the content types and permissions made again, about 1.5 s a test on PostgreSQL here
and 50 ms on SQLite. Here only the tables a test wrote to are emptied, by DELETE (a few
milliseconds); PostgreSQL's append-only event tables, whose triggers refuse DELETE and
leave TRUNCATE to test suites, by TRUNCATE, and on SQLite, which has no TRUNCATE, with
its triggers lifted meanwhile. The content types and permissions, the same for every
test, stay.
"""

from __future__ import annotations

from django.db import connection, transaction

KEPT = frozenset({"django_content_type", "auth_permission"})

_tables: list[str] = []
_append_only: set[str] = set()


def empty_tables() -> None:
    postgresql = connection.vendor == "postgresql"
    quote = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        if not _tables:
            names = connection.introspection.django_table_names(only_existing=True, include_views=False)
            _tables.extend(sorted(set(names) - KEPT))
            if postgresql:
                cursor.execute(
                    "SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger WHERE tgname LIKE %s",
                    ["%append_only"],
                )
                _append_only.update(name for (name,) in cursor.fetchall())
        written = " UNION ALL ".join(
            f"SELECT %s WHERE EXISTS (SELECT 1 FROM {quote(name)})" for name in _tables
        )
        cursor.execute(written, _tables)
        filled = [name for (name,) in cursor.fetchall()]
        truncated = [name for name in filled if name in _append_only]
        if truncated:
            cursor.execute("TRUNCATE " + ", ".join(quote(name) for name in truncated))
        if not postgresql:
            lift_sqlite_triggers()  # put back by the same transaction
        for name in filled:
            if name not in _append_only:  # foreign keys are checked at the commit
                cursor.execute(f"DELETE FROM {quote(name)}")
        if not postgresql:
            restore_sqlite_triggers()


_sqlite_triggers: dict[str, str] = {}


def lift_sqlite_triggers() -> None:
    """Drop every trigger of the SQLite test database, kept to be put back."""
    with connection.cursor() as cursor:
        rows = list(cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"))
        for name, sql in rows:
            _sqlite_triggers[name] = sql
            cursor.execute(f'DROP TRIGGER "{name}"')


def restore_sqlite_triggers() -> None:
    """Put back the triggers `lift_sqlite_triggers` dropped (those still missing)."""
    with connection.cursor() as cursor:
        present = {
            name for (name,) in cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        }
        for name, sql in _sqlite_triggers.items():
            if name not in present:
                cursor.execute(sql)


def space_sequences(start: int) -> None:
    """Start every sequence of the PostgreSQL test database at `start` (a pytest-xdist
    worker's own range of ids, tests/workers.py); nothing to do for worker 0 or on SQLite."""
    if not start or connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT schemaname, sequencename FROM pg_sequences")
        for schema, name in cursor.fetchall():
            cursor.execute("SELECT setval(%s::regclass, %s, false)", [f'"{schema}"."{name}"', start])
