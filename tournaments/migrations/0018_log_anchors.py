from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0017_appeals")]

    operations: list[migrations.operations.base.Operation] = []
