from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("cacho", "0006_event_stream_guard")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="bot",
            field=models.CharField(blank=True, db_default="", default="", max_length=16),
        ),
    ]
