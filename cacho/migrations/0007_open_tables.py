from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("cacho", "0006_event_stream_guard")]

    operations: list[migrations.operations.base.Operation] = []
