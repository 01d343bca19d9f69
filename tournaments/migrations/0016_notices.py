from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0015_accounts")]

    operations: list[migrations.operations.base.Operation] = []
