from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_open_tables")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="player_chat",
            field=models.BooleanField(default=False, verbose_name="players' chat"),
        ),
    ]
