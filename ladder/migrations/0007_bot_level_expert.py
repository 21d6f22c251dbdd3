"""The expert bot level (issue 26): a new choice for a tournament's bot entrants."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ladder', '0006_tournament_snapshots'),
    ]

    operations = [
        migrations.AlterField(
            model_name='entry',
            name='bot_level',
            field=models.CharField(blank=True, choices=[('easy', 'Easy bot'), ('medium', 'Medium bot'), ('hard', 'Hard bot'), ('expert', 'Expert bot')], max_length=10),
        ),
    ]
