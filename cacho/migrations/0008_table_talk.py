from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("cacho", "0007_open_tables")]

    operations: list[migrations.operations.base.Operation] = []
