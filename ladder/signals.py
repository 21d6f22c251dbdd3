"""Receivers: the ladder hears of finished games through ``games.signals.game_finished``."""

from django.db import transaction

from games.models import Table


def on_game_finished(sender, *, table_id: int, result: dict, abandoned=(), **kwargs) -> None:
    """Queue the recording of a rated league table, after commit (issue 7)."""
    if not Table.objects.filter(pk=table_id, rated=True, league__isnull=False).exists():
        return
    from ladder.tasks import record_result

    abandoned = list(abandoned)
    transaction.on_commit(lambda: record_result.delay(table_id, result, abandoned))
