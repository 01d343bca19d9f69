"""The database itself refuses UPDATE and DELETE on the event table (PostgreSQL and SQLite).

TRUNCATE stays allowed: it is what test suites use to empty a database, never the app.
"""

from django.db import migrations

PG_INSTALL = """
CREATE OR REPLACE FUNCTION cacho_event_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'cacho_event is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER cacho_event_append_only
    BEFORE UPDATE OR DELETE ON cacho_event
    FOR EACH ROW EXECUTE FUNCTION cacho_event_refuse_change();
"""
PG_REMOVE = """
DROP TRIGGER IF EXISTS cacho_event_append_only ON cacho_event;
DROP FUNCTION IF EXISTS cacho_event_refuse_change();
"""
SQLITE_INSTALL = [
    "CREATE TRIGGER cacho_event_no_update BEFORE UPDATE ON cacho_event "
    "BEGIN SELECT RAISE(ABORT, 'cacho_event is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER cacho_event_no_delete BEFORE DELETE ON cacho_event "
    "BEGIN SELECT RAISE(ABORT, 'cacho_event is append-only: DELETE refused'); END;",
]
SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS cacho_event_no_update;",
    "DROP TRIGGER IF EXISTS cacho_event_no_delete;",
]


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(PG_INSTALL)  # no parameters: the function body holds a literal %
    elif vendor == "sqlite":
        for statement in SQLITE_INSTALL:
            schema_editor.execute(statement)


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_REMOVE)
    elif vendor == "sqlite":
        for statement in SQLITE_REMOVE:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("cacho", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
