from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0009_ratings")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="tournament",
            name="time_policy",
            field=models.CharField(blank=True, default="", max_length=32, verbose_name="at time"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="call_time_automatically",
            field=models.BooleanField(default=False, verbose_name="call time automatically"),
        ),
        migrations.AddField(
            model_name="round",
            name="time_called_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
