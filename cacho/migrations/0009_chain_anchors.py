from django.db import migrations, models

from cacho.database.append_only import installer

install, remove = installer("cacho_headdigest")


class Migration(migrations.Migration):
    dependencies = [("cacho", "0008_table_talk")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.CreateModel(
            name="HeadDigest",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("made_at", models.DateTimeField()),
                ("heads", models.JSONField()),
                ("digest", models.CharField(max_length=64)),
                ("signature", models.CharField(max_length=64)),
            ],
            options={"ordering": ["pk"]},
        ),
        migrations.RunPython(install, remove),
    ]
