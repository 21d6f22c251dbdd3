"""Clocks that survive outages: the deadline sweep's heartbeat, the web processes' liveness
beats, and the record of outage time given back (games.services.clock_outages)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_seat_conceded"),
    ]

    operations = [
        migrations.CreateModel(
            name="ClockBeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("beat_at", models.DateTimeField(blank=True, null=True)),
                ("web_down_since", models.DateTimeField(blank=True, null=True)),
                ("given_until", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.CreateModel(
            name="WebBeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(help_text="host:pid", max_length=120, unique=True)),
                ("beat_at", models.DateTimeField()),
                ("stopped_at", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.CreateModel(
            name="ClockOutage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("started_at", models.DateTimeField()),
                ("ended_at", models.DateTimeField()),
                ("seconds", models.FloatField()),
                ("cause", models.CharField(max_length=10)),
                (
                    "games",
                    models.PositiveIntegerField(
                        default=0, help_text="running games given time back"
                    ),
                ),
            ],
            options={
                "ordering": ["-ended_at"],
            },
        ),
    ]
