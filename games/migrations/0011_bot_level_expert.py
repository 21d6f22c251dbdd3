"""The expert bot level (issue 26): a new choice for a seat's bot level."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_clock_outages'),
    ]

    operations = [
        migrations.AlterField(
            model_name='seat',
            name='bot_level',
            field=models.CharField(blank=True, choices=[('easy', 'Easy bot'), ('medium', 'Medium bot'), ('hard', 'Hard bot'), ('expert', 'Expert bot')], max_length=10),
        ),
    ]
