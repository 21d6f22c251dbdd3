"""Pushes to the browsers at a table and in the lobby. Call only from ``on_commit``.

Groups: ``table-<id>`` (everyone at the table: chat, presence, seat changes),
``table-<id>-seat-<n>`` (the player of seat n: that seat's view), ``table-<id>-public``
(spectators: the public view), ``lobby`` (the list of open tables). Every view is built by
``games.engine.view_for``: the one redaction function.

Pushes are best effort: the change they announce is committed, so a push lost while Redis is
unreachable is logged, not raised. A client that missed one resyncs (its next push does not
fit its log, or it reconnects, or its ``ping`` shows a newer version).
"""

import json
import logging

import orjson
from redis.exceptions import RedisError

from games import engine
from ttr_site.layer import group_send_all

log = logging.getLogger(__name__)
LOBBY = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def seat_group(table_id: int, seat: int) -> str:
    return f"table-{table_id}-seat-{seat}"


def public_group(table_id: int) -> str:
    return f"table-{table_id}-public"


def send(group: str, message: dict) -> None:
    """Send ``message`` to every consumer in ``group`` (from synchronous code)."""
    send_all([(group, message)])


def send_all(messages: list[tuple[str, dict]]) -> None:
    """Send each ``(group, message)``, in order, in one trip to an event loop (one per move,
    not one per frame: see ``ttr_site.layer``)."""
    try:
        group_send_all(messages)
    except (RedisError, OSError) as exc:
        log.warning("%d push(es) to %s lost: %r", len(messages), messages[0][0], exc)


def encode(frame: dict) -> str:
    """A frame as the JSON text a socket sends (orjson: a seat's view with its legal actions
    runs to 30 KB, and encoding it was the largest single cost of a push). Lazy translations
    and other non-JSON values are sent as their text; what orjson cannot write (an integer
    beyond 64 bits, echoed from a hostile frame: tests/reliability/fuzz.py) goes to json."""
    try:
        return orjson.dumps(frame, default=str, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(frame, default=str, separators=(",", ":"))


def view_push(frame: dict) -> dict:
    """The channel-layer message pushing a view: encoded once here, not in every consumer
    (and cheap to pass through Redis as one string); the version lets a consumer order it."""
    return {"type": "view.push", "version": frame["version"], "text": encode(frame)}


def view_frame(
    state, version: int, seat, since: int = 0, entries=None, *, running: bool = True
) -> dict:
    """The frame a client gets: its view, the version it belongs to, and the log entries
    from index ``since`` (``log_start``). A full sync uses ``since=0`` and a state holding its
    whole log; a push after a move carries only the move's ``entries`` (raw, as the engine
    detached them from the stored state), redacted here for ``seat``, and a client whose log
    is not ``log_start`` long resyncs. ``legal`` lists the seat's legal actions (empty for
    spectators, waiting seats, and once the table is not ``running``: a game its organizer
    ended)."""
    if entries is None:
        view = engine.view_for(state, seat, log_since=since)
        log = view.pop("log")
    else:
        view = engine.view_for(state, seat, log_since=engine.log_length(state))
        del view["log"]
        log = engine.redact_entries(entries, seat)
    legal = engine.legal_actions(state, seat) if seat is not None and running else []
    return {"type": "view", "version": version, "seat": seat, "view": view,
            "log_start": since, "log": log, "legal": legal}  # fmt: skip


def game_changed(
    table_id: int,
    version: int,
    state,
    since: int,
    entries: list,
    clock: dict,
    *,
    holders: dict[int, int],
    running: bool = True,
) -> None:
    """Push each held seat its own view and the spectators the public one, with the clock
    and the log ``entries`` the change made (from ``since``).

    ``holders``: the user who holds each seat at this version (a seat played by a bot, its
    own or handed over, has none: nobody may see its view). Each seat's push names its
    holder, and a socket passes on only the pushes addressed to its own user
    (``games.view_stream.ViewStream._take_view``), so a seat's secrets never reach a socket
    that connected while someone else held the seat."""
    messages = []
    for seat, holder in sorted(holders.items()):
        frame = view_frame(state, version, seat, since, entries, running=running)
        push = view_push(frame | {"clock": clock}) | {"holder": holder}
        messages.append((seat_group(table_id, seat), push))
    frame = view_frame(state, version, None, since, entries) | {"clock": clock}
    messages.append((public_group(table_id), view_push(frame)))
    send_all(messages)


def table_changed(table_id: int) -> None:
    """Seats or status changed: every consumer at the table asks again which seat its user
    holds and whether they may still see the table, then sends its client the summary."""
    send(table_group(table_id), {"type": "table.changed"})


def league_group(league_id: int) -> str:
    """The sockets at the tables of a private league: told when its members change."""
    return f"league-{league_id}-tables"


def league_access_changed(league_id: int) -> None:
    """Who belongs to a private league changed: its tables' sockets ask again whether their
    user may still see them (a removed member's are closed)."""
    send(league_group(league_id), {"type": "table.changed"})


def chat(table_id: int, message: dict) -> None:
    send(table_group(table_id), {"type": "frame", "frame": {"type": "chat", **message}})


def lobby_changed(table_id: int) -> None:
    send(LOBBY, {"type": "frame", "frame": {"type": "lobby_changed", "table": table_id}})
