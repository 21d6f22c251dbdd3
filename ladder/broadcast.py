"""Pushes of the ladder. Call only from ``on_commit``.

Groups: ``tournament-<id>`` (open tournament pages: their ``standings`` frames are sent by
``ladder.live_standings``) and each player's own ``user.<id>``
(every site page they have open: ``ttr_site/static/js/notifications.js``). Best effort, as
every push (``games.broadcast.send_all``): what a push announces is committed already.
"""

from games.broadcast import send_all
from ttr_site.accounts.push import user_group


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def table_started(*, user_ids: list[int], table_id: int, url: str, source: str) -> None:
    """A ranked (``source="ranked"``) or tournament (``"tournament"``) table has started for
    these players: the pages they have open take them there (js/tablecall.js), because its
    clock is running already."""
    frame = {"kind": "table_started", "table": table_id, "url": url, "source": source}
    send_all([(user_group(uid), {"type": "push", "payload": frame}) for uid in user_ids])


def queue_changed(user_id: int) -> None:
    """The player joined or left a queue: their open league pages redraw the queue panel."""
    send_all([(user_group(user_id), {"type": "push", "payload": {"kind": "queue_changed"}})])
