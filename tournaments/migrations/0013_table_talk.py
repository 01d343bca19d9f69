from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_open_tables")]

    operations: list[migrations.operations.base.Operation] = []
