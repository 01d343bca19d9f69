"""Database triggers that make a table append-only (PostgreSQL and SQLite), for the
migrations of every event table: the database itself refuses UPDATE and DELETE; and the
guard that keeps a stream's row while it has events (`stream_guard`).

TRUNCATE stays allowed: it is what test suites use to empty a database, never the app.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cacho.database import databases

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
        if databases.postgresql(schema_editor.connection):
            with schema_editor.connection.cursor() as cursor:
                cursor.execute(_postgres_install(table))  # no parameters: the body holds a literal %
        else:  # SQLite
            for statement in _sqlite_install(table):
                schema_editor.execute(statement)

    def remove(apps: Any, schema_editor: Any) -> None:
        if databases.postgresql(schema_editor.connection):
            schema_editor.execute(_postgres_remove(table))
        else:  # SQLite
            for statement in _sqlite_remove(table):
                schema_editor.execute(statement)

    return install, remove


def stream_guard(streams: str, events: str, column: str) -> tuple[Step, Step]:
    """A row of `streams` with events in `events` (`column` naming it) can be neither
    deleted nor given another id: what a foreign key from the events guaranteed, without
    the check a foreign key makes on every event inserted (the append inserts events
    only after updating their stream's row, in the same statement)."""
    name = f"{streams}_keep_streams"
    message = f"{streams} row has {events}: a stream is never deleted or renamed"

    def install(apps: Any, schema_editor: Any) -> None:
        if databases.postgresql(schema_editor.connection):
            with schema_editor.connection.cursor() as cursor:
                cursor.execute(
                    f"""
CREATE OR REPLACE FUNCTION {name}() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM {events} WHERE {column} = OLD.id) THEN
        RAISE EXCEPTION '{message} (%)', OLD.id USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER {name} BEFORE DELETE OR UPDATE OF id ON {streams}
    FOR EACH ROW EXECUTE FUNCTION {name}();
"""
                )
        else:  # SQLite
            for op, when in (("DELETE", ""), ("UPDATE OF id", "NEW.id != OLD.id AND ")):
                schema_editor.execute(
                    f"CREATE TRIGGER {name}_{op.split()[0].lower()} BEFORE {op} ON {streams} "
                    f"WHEN {when}EXISTS (SELECT 1 FROM {events} WHERE {column} = OLD.id) "
                    f"BEGIN SELECT RAISE(ABORT, '{message}'); END;"
                )

    def remove(apps: Any, schema_editor: Any) -> None:
        if databases.postgresql(schema_editor.connection):
            schema_editor.execute(
                f"DROP TRIGGER IF EXISTS {name} ON {streams}; DROP FUNCTION IF EXISTS {name}();"
            )
        else:  # SQLite
            for op in ("delete", "update"):
                schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}_{op};")

    return install, remove
