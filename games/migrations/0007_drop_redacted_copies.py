"""The events' redacted copies of their log entries go: ``GameEvent.entries_for`` redacts the
raw entries with the engine's one redaction when they are read (0006 moved the log there)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0006_log_in_events")]

    operations = [
        migrations.RemoveField(model_name="gameevent", name="public"),
        migrations.RemoveField(model_name="gameevent", name="private"),
        migrations.AlterField(
            model_name="gameevent",
            name="seq",
            field=models.PositiveIntegerField(help_text="the game version this step produced"),
        ),
    ]
