"""Tables of a tournament carry its league, rated or not (security issue 20): a table is as
visible as its league (``Table.visible_to``), and an unrated tournament of a private league
used to open public tables."""

from django.db import migrations


def link_tournament_tables(apps, schema_editor):
    Pairing = apps.get_model("ladder", "Pairing")
    Table = apps.get_model("games", "Table")
    pairings = Pairing.objects.filter(
        table__isnull=False, table__league__isnull=True, round__tournament__league__isnull=False
    ).values_list("table_id", "round__tournament__league_id")
    for table_id, league_id in pairings.iterator():
        Table.objects.filter(pk=table_id).update(league_id=league_id)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_drop_redacted_copies"),
        ("ladder", "0004_tournaments"),
    ]

    operations = [migrations.RunPython(link_tournament_tables, migrations.RunPython.noop)]
