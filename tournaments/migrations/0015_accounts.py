from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0014_seasons")]

    operations: list[migrations.operations.base.Operation] = []
