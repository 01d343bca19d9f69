"""Events keep their match without a foreign key: the check a foreign key makes on every
inserted event (a KEY SHARE lock on the match row, queued until commit) cost the append
about 4% of its rate, and the append already inserts events only in the statement that
updates their match's row. What the foreign key also guaranteed, that a match with events
is never deleted or re-keyed, a trigger on the match table keeps (it fires only on DELETE
and on UPDATE OF id, never on the append's head update). The append-only triggers are
taken off while the event table changes (SQLite rebuilds it, which would drop them) and
put back after.
"""

import django.db.models.deletion
from django.db import migrations, models

from cacho.database.append_only import installer, stream_guard

install, remove = installer("cacho_event")
guard, unguard = stream_guard("cacho_match", "cacho_event", "stream_id")


class Migration(migrations.Migration):
    dependencies = [("cacho", "0005_diceseed_one_index")]

    operations = [
        migrations.RunPython(remove, install),
        migrations.AlterField(
            model_name="event",
            name="stream",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="events",
                to="cacho.match",
            ),
        ),
        migrations.RunPython(install, remove),
        migrations.RunPython(guard, unguard),
    ]
