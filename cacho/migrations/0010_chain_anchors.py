from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("cacho", "0009_pseudonyms")]

    operations: list[migrations.operations.base.Operation] = []
