import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_seat_links"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="OpenTable",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("ruleset", models.CharField(max_length=32)),
                ("options", models.JSONField(default=dict)),
                ("size", models.PositiveSmallIntegerField()),
                ("turn_seconds", models.PositiveIntegerField(default=30)),
                ("rated", models.BooleanField(default=False)),
                ("private", models.BooleanField(default=False)),
                ("token", models.CharField(max_length=43, unique=True)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("open", "open"),
                            ("playing", "playing"),
                            ("finished", "finished"),
                            ("closed", "closed"),
                        ],
                        default="open",
                        max_length=16,
                    ),
                ),
                ("match_id", models.UUIDField(blank=True, null=True, unique=True)),
                ("invited", models.JSONField(default=list)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                (
                    "host",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "rematch_of",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="rematch",
                        to="tournaments.opentable",
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(
                        fields=["status", "private", "created_at"], name="tournaments_opentable_lobby"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="OpenSeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("index", models.PositiveSmallIntegerField()),
                ("bot", models.CharField(blank=True, default="", max_length=16)),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="places",
                        to="tournaments.opentable",
                    ),
                ),
            ],
            options={
                "ordering": ["table", "index"],
                "constraints": [
                    models.UniqueConstraint(fields=("table", "index"), name="tournaments_openseat_index"),
                    models.UniqueConstraint(
                        condition=models.Q(("user__isnull", False)),
                        fields=("table", "user"),
                        name="tournaments_openseat_one_per_user",
                    ),
                ],
            },
        ),
    ]
