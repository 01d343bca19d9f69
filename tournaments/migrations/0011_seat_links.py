import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_rounds_at_time")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.CreateModel(
            name="SeatLink",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("salt", models.CharField(max_length=32)),
                ("token_hash", models.CharField(max_length=64, unique=True)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("active", "waiting for the player"),
                            ("claimed", "claimed"),
                            ("revoked", "revoked"),
                        ],
                        default="active",
                        max_length=16,
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("claimed_at", models.DateTimeField(blank=True, null=True)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seat_links",
                        to="tournaments.entry",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seat_links",
                        to="tournaments.table",
                    ),
                ),
            ],
            options={
                "ordering": ["table", "entry", "id"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("status", "revoked"), _negated=True),
                        fields=("table", "entry"),
                        name="tournaments_seatlink_one_live",
                    )
                ],
            },
        ),
    ]
