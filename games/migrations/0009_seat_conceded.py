"""A seat its player gave up (``Seat.conceded``): a bot plays it on for good, and unlike a
seat handed to a bot after timeouts it cannot be taken back (docs/rules.md 1.7)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_tournament_tables_league'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='conceded',
            field=models.BooleanField(default=False, help_text='given up by its player: a bot plays it on for good'),
        ),
    ]
