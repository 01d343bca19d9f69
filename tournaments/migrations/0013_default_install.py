from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_club_night_controls")]

    operations: list[migrations.operations.base.Operation] = []
