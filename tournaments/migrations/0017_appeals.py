from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_notices")]

    operations: list[migrations.operations.base.Operation] = []
