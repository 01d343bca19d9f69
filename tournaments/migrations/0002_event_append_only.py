"""The tournament event log is append-only, like the match log: the database refuses
UPDATE and DELETE on it."""

from django.db import migrations

from cacho.database.append_only import installer

install, remove = installer("tournaments_tournamentevent")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
