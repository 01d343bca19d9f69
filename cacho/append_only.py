"""Database triggers that make a table append-only (PostgreSQL and SQLite), for the
migrations of every event table: the database itself refuses UPDATE and DELETE.

TRUNCATE stays allowed: it is what test suites use to empty a database, never the app.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Step = Callable[[Any, Any], None]


def _postgres_install(table: str) -> str:
    return f"""
CREATE OR REPLACE FUNCTION {table}_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '{table} is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER {table}_append_only
    BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION {table}_refuse_change();
"""


def _postgres_remove(table: str) -> str:
    return f"""
DROP TRIGGER IF EXISTS {table}_append_only ON {table};
DROP FUNCTION IF EXISTS {table}_refuse_change();
"""


def _sqlite_install(table: str) -> list[str]:
    return [
        f"CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {op} refused'); END;"
        for op in ("UPDATE", "DELETE")
    ]


def _sqlite_remove(table: str) -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {table}_no_{op};" for op in ("update", "delete")]


def installer(table: str) -> tuple[Step, Step]:
    """The forward and backward functions of a `RunPython` that guards `table`."""

    def install(apps: Any, schema_editor: Any) -> None:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            with schema_editor.connection.cursor() as cursor:
                cursor.execute(_postgres_install(table))  # no parameters: the body holds a literal %
        elif vendor == "sqlite":
            for statement in _sqlite_install(table):
                schema_editor.execute(statement)

    def remove(apps: Any, schema_editor: Any) -> None:
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(_postgres_remove(table))
        elif vendor == "sqlite":
            for statement in _sqlite_remove(table):
                schema_editor.execute(statement)

    return install, remove
