"""The database itself refuses UPDATE and DELETE on the event table (PostgreSQL and SQLite).

TRUNCATE stays allowed: it is what test suites use to empty a database, never the app.
"""

from django.db import migrations

from cacho.database.append_only import installer

install, remove = installer("cacho_event")


class Migration(migrations.Migration):
    dependencies = [("cacho", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
