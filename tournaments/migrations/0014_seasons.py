from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0013_table_talk")]

    operations: list[migrations.operations.base.Operation] = []
