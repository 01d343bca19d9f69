from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("cacho", "0008_table_talk")]

    operations: list[migrations.operations.base.Operation] = []
