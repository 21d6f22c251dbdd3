"""A default public league for each rule set, there from the start."""

from django.db import migrations

DEFAULTS = [
    # slug, name, ruleset, variant, description
    (
        "europe",
        "Europe ladder",
        "europe",
        "classic",
        "The open ladder for Ticket to Ride: Europe with the classic tickets.",
    ),
    (
        "new-york",
        "New York ladder",
        "new_york",
        "standard",
        "The open ladder for Ticket to Ride: New York.",
    ),
]


def create_defaults(apps, schema_editor):
    League = apps.get_model("ladder", "League")
    for slug, name, ruleset, variant, description in DEFAULTS:
        League.objects.get_or_create(
            slug=slug,
            defaults={
                "name": name,
                "ruleset": ruleset,
                "variant": variant,
                "description": description,
                "time_controls": ["realtime", "turn_based"],
                "is_default": True,
            },
        )


def remove_defaults(apps, schema_editor):
    League = apps.get_model("ladder", "League")
    League.objects.filter(is_default=True, slug__in=[d[0] for d in DEFAULTS]).delete()


class Migration(migrations.Migration):
    dependencies = [("ladder", "0001_initial")]

    operations = [migrations.RunPython(create_defaults, remove_defaults)]
