from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0011_seat_links")]

    operations: list[migrations.operations.base.Operation] = []
