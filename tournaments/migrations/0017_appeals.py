import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_notices"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="dispute",
            name="appeal_of",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="appeals",
                to="tournaments.dispute",
            ),
        ),
        migrations.AddField(
            model_name="dispute",
            name="assigned_to",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="round", name="draw_at", field=models.DateTimeField(blank=True, null=True)
        ),
        migrations.AddField(
            model_name="round", name="draw_held_at", field=models.DateTimeField(blank=True, null=True)
        ),
        migrations.AddField(
            model_name="tournament",
            name="round_appeal_minutes",
            field=models.PositiveIntegerField(
                default=2, verbose_name="appeal period between rounds (minutes)"
            ),
        ),
        migrations.CreateModel(
            name="RefereeNote",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("text", models.TextField(verbose_name="note")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "author",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "dispute",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notes",
                        to="tournaments.dispute",
                    ),
                ),
            ],
            options={
                "verbose_name": "referee note",
                "verbose_name_plural": "referee notes",
                "ordering": ["dispute", "created_at", "id"],
            },
        ),
    ]
