import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_seasons"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Account",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="account",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("display_name", models.CharField(blank=True, default="", max_length=64)),
                ("language", models.CharField(blank=True, default="", max_length=8)),
                ("verified_email", models.EmailField(blank=True, default="", max_length=254)),
                ("pending_email", models.EmailField(blank=True, default="", max_length=254)),
            ],
        ),
        migrations.CreateModel(
            name="OutgoingMail",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(max_length=64)),
                ("to", models.EmailField(max_length=254)),
                ("context", models.JSONField(default=dict)),
                ("language", models.CharField(max_length=8)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("claimed_at", models.DateTimeField(blank=True, null=True)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                ("failed_at", models.DateTimeField(blank=True, null=True)),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("last_error", models.CharField(blank=True, default="", max_length=500)),
            ],
            options={
                "ordering": ["pk"],
                "indexes": [models.Index(fields=["sent_at", "failed_at"], name="tournaments_mail_unsent")],
            },
        ),
    ]
