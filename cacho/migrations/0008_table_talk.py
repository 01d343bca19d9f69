import django.db.models.deletion
from django.db import migrations, models

from cacho.database.append_only import installer

install, remove = installer("cacho_chatmessage")


class Migration(migrations.Migration):
    dependencies = [("cacho", "0007_open_tables")]

    operations = [
        migrations.CreateModel(
            name="ChatMessage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "channel",
                    models.CharField(
                        choices=[("players", "players"), ("spectators", "spectators")], max_length=16
                    ),
                ),
                ("seat_name", models.CharField(blank=True, default="", max_length=64)),
                ("user_id", models.IntegerField(blank=True, null=True)),
                ("author", models.CharField(max_length=150)),
                ("phrase", models.CharField(blank=True, default="", max_length=32)),
                ("text", models.CharField(blank=True, default="", max_length=1000)),
                ("during_play", models.BooleanField()),
                ("at", models.DateTimeField()),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="chat_messages",
                        to="cacho.match",
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["match", "channel", "id"], name="cacho_chat_match_channel")],
            },
        ),
        migrations.RunPython(install, remove),
        migrations.CreateModel(
            name="ChatMute",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat_name", models.CharField(max_length=64)),
                ("muted", models.CharField(max_length=64)),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_mutes",
                        to="cacho.match",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("match", "seat_name", "muted"), name="cacho_chat_mute_once"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="ChatReport",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("club_id", models.IntegerField(blank=True, db_index=True, null=True)),
                ("reporter_id", models.IntegerField(blank=True, null=True)),
                ("reporter", models.CharField(max_length=150)),
                ("reason", models.CharField(blank=True, default="", max_length=500)),
                ("context", models.JSONField(default=list)),
                ("at", models.DateTimeField()),
                (
                    "status",
                    models.CharField(
                        choices=[("open", "open"), ("dismissed", "dismissed"), ("acted", "acted")],
                        default="open",
                        max_length=16,
                    ),
                ),
                ("resolved_by_id", models.IntegerField(blank=True, null=True)),
                ("resolved_at", models.DateTimeField(blank=True, null=True)),
                ("note", models.CharField(blank=True, default="", max_length=500)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="chat_reports",
                        to="cacho.match",
                    ),
                ),
                (
                    "message",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="reports",
                        to="cacho.chatmessage",
                    ),
                ),
            ],
            options={
                "permissions": [("moderate_chat", "Can moderate the table talk of casual tables")],
                "constraints": [
                    models.UniqueConstraint(fields=("message", "reporter_id"), name="cacho_chat_report_once")
                ],
                "indexes": [models.Index(fields=["club_id", "status", "id"], name="cacho_chat_report_queue")],
            },
        ),
    ]
