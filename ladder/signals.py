"""Receivers: the ladder hears of finished games through ``games.signals.game_finished``."""

from django.db import transaction

from games.models import Table
from ladder.models import Pairing
from ttr_site.jobs import enqueue


def on_game_finished(sender, *, table_id: int, result: dict, abandoned=(), **kwargs) -> None:
    """Queue the recording of a finished table, after commit: a tournament table's result
    goes to its tournament (whose games reach the ladder when it ends); a rated league
    table's goes to the ladder at once (issue 7)."""
    table = Table.objects.filter(pk=table_id).values("rated", "league_id").first()
    abandoned = list(abandoned)
    if Pairing.objects.filter(table_id=table_id).exists():
        task = "ladder.tasks.tournament_game_finished"
    elif table is not None and table["rated"] and table["league_id"] is not None:
        task = "ladder.tasks.record_result"
    else:
        return
    transaction.on_commit(lambda: enqueue(task, table_id, result, abandoned))
