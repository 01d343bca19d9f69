"""The one test of which database a connection is: every choice the code makes per
backend asks `postgresql()` (tests/test_foundation/test_databases.py refuses a `.vendor`
read anywhere else). docs/databases.md lists each choice, what SQLite does instead and
why; a test of each runs on both databases (the `sqlite_too` run).

Everything else is one query for both: embedded mode (SQLite) is what `make run` and a
small club run, and must behave as the deployed one does."""

from __future__ import annotations

from typing import Any

from django.db import connection as default_connection


def postgresql(connection: Any = None) -> bool:
    """Whether `connection` (the default one when None; a schema editor's in migrations)
    is PostgreSQL, else it is embedded mode's SQLite."""
    return (connection or default_connection).vendor == "postgresql"


__all__ = ["postgresql"]
