"""Pushes to the browsers at a table and in the lobby. Call only from ``on_commit``.

Groups: ``table-<id>`` (everyone at the table: chat, presence, seat changes),
``table-<id>-seat-<n>`` (the player of seat n: that seat's view), ``table-<id>-public``
(spectators: the public view), ``lobby`` (the list of open tables). Every view is built by
``games.engine.view_for``: the one redaction function.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import engine

LOBBY = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def seat_group(table_id: int, seat: int) -> str:
    return f"table-{table_id}-seat-{seat}"


def public_group(table_id: int) -> str:
    return f"table-{table_id}-public"


def _send(group: str, message: dict) -> None:
    async_to_sync(get_channel_layer().group_send)(group, message)


def view_frame(state, version: int, seat, since: int = 0) -> dict:
    """The frame a client gets: its view, the version it belongs to, and the log entries
    from index ``since`` (``log_start``). A full sync uses ``since=0``; a push after a move
    carries only the new entries, and a client whose log is not ``log_start`` long resyncs.
    ``legal`` lists the seat's legal actions (empty for spectators and waiting seats)."""
    view = engine.view_for(state, seat)
    log = view.pop("log")[since:]
    legal = engine.legal_actions(state, seat) if seat is not None else []
    return {"type": "view", "version": version, "seat": seat, "view": view,
            "log_start": since, "log": log, "legal": legal}  # fmt: skip


def game_changed(table_id: int, version: int, state, since: int, clock: dict) -> None:
    """Push each seat its own view and the spectators the public one, with the clock."""
    for seat in range(state.n):
        frame = view_frame(state, version, seat, since) | {"clock": clock}
        _send(seat_group(table_id, seat), {"type": "frame", "frame": frame})
    frame = view_frame(state, version, None, since) | {"clock": clock}
    _send(public_group(table_id), {"type": "frame", "frame": frame})


def table_changed(table_id: int) -> None:
    """Seats or status changed: every consumer at the table sends its client the summary."""
    _send(table_group(table_id), {"type": "table.changed"})


def chat(table_id: int, message: dict) -> None:
    _send(table_group(table_id), {"type": "frame", "frame": {"type": "chat", **message}})


def presence(table_id: int, online: list[int]) -> None:
    frame = {"type": "presence", "online": online}
    _send(table_group(table_id), {"type": "frame", "frame": frame})


def lobby_changed(table_id: int) -> None:
    _send(LOBBY, {"type": "frame", "frame": {"type": "lobby_changed", "table": table_id}})
