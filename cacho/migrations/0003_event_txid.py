"""The global order becomes (txid, position) read up to the oldest running transaction
(cacho.database.log_order), instead of one advisory lock around every append.

Events stored before keep txid 0: they stay first, in position order, as they were read
(the projections' checkpoints, (0, position), stay valid). New rows get the writing
transaction's id from the column default. The append-only triggers are taken off while
the table changes (SQLite rebuilds it, which would drop them) and put back after.
"""

from django.db import migrations, models

import cacho.database.log_order
from cacho.database.append_only import installer

install, remove = installer("cacho_event")


class Migration(migrations.Migration):
    dependencies = [("cacho", "0002_event_append_only")]

    operations = [
        migrations.RunPython(remove, install),
        migrations.AddField(
            model_name="event",
            name="txid",
            field=models.BigIntegerField(db_default=0, editable=False),
        ),
        migrations.AlterField(
            model_name="event",
            name="txid",
            field=models.BigIntegerField(db_default=cacho.database.log_order.CurrentTransactionId(), editable=False),
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(fields=["txid", "position"], name="cacho_event_log_order"),
        ),
        migrations.RunPython(install, remove),
    ]
