"""WebSocket adapters: the table (``/ws/table/<id>/``) and the lobby (``/ws/lobby/``).

Thin: parse a frame, call one service, answer. Client frames (JSON objects):
``{"type": "action", "action": {...}, "version": n}``, ``{"type": "chat", "text": "..."}``,
``{"type": "sync"}``, ``{"type": "ping"}``, ``{"type": "take_back"}`` (take back the seat a
bot plays after timeouts), ``{"type": "leave"}`` (give the seat up to a bot for the rest of
the game: docs/rules.md 1.7); after either, ``table`` and ``view`` frames follow as for any
change of who holds a seat. Server frames: ``view`` (see
``broadcast.view_frame``), ``table`` (seats and status), ``chat``, ``presence``,
``table_changed``, ``error`` (``code``, ``message``; the connection stays open), ``pong``.

A table socket sends its client views in version order, each version at most once: pushes
come from whichever web process or worker made the move, so two moves' pushes can arrive
swapped (see ``games.view_stream``). With Redis, the views reach a socket through the
process's fan-out (``ttr_site/fanout.py``), not through the channel layer's dispatch.
"""

import asyncio
import json
import logging
import time

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import broadcast, engine, services
from games.errors import GameError
from games.models import ChatMessage, Game, Table
from games.presenters import table_summary
from games.reasons import reason_message
from games.view_stream import HOLD_SECONDS, ViewStream  # noqa: F401 (HOLD_SECONDS: tests)
from ttr_site import fanout, pools
from ttr_site.i18n import scope_language
from ttr_site.outages import MESSAGES as OUTAGE_MESSAGES
from ttr_site.outages import service_down
from ttr_site.pools import pool
from ttr_site.ratelimit import rate_limit_hit

log = logging.getLogger(__name__)

MAX_FRAME = 16_384  # bytes; an action or a chat line is far smaller
PRESENCE_TTL = 24 * 3600
CHAT_HISTORY = 50
SERVER_ERROR = _("Something went wrong; nothing was changed.")
# A socket whose user may no longer see its table (removed from a private table or league) is
# closed with this code, after an error frame that says why.
ACCESS_LOST, ACCESS_LOST_CODE = "access_lost", 4403
ACCESS_LOST_MESSAGE = _("You can no longer see this table.")


class JsonFrameConsumer(AsyncWebsocketConsumer):
    """Frames are JSON objects; anything else gets an error frame, never a dropped socket."""

    async def receive(self, text_data=None, bytes_data=None):
        if not self._frame_allowed():
            error = GameError("rate_limited")
            return await self.send_error(error.code, error.message)
        raw = text_data if text_data is not None else bytes_data
        if raw is None or len(raw) > MAX_FRAME:
            return await self._malformed(_("the frame is empty or too large"))
        try:
            content = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return await self._malformed(_("the frame is not valid JSON"))
        except RecursionError:  # "[[[[..." thousands deep: found by tests/reliability/fuzz.py
            return await self._malformed(_("the frame is nested too deeply"))
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            return await self._malformed(_("a frame is a JSON object with a string 'type'"))
        try:
            await self.handle_frame(content)
        except GameError as exc:
            await self.send_error(exc.code, exc.message)
        except engine.IllegalAction as exc:
            message = reason_message(exc.code, exc.params)
            await self.send_error(exc.code, message, params=_jsonable(exc.params))
        except Exception as exc:
            if (service := service_down(exc)) is None:
                log.exception("unexpected error handling a frame")
                return await self.send_error("server_error", str(SERVER_ERROR))
            log.warning("a socket frame met an outage (%s): %r", service, exc)
            await self.send_error("unavailable", str(OUTAGE_MESSAGES[service]))

    async def dispatch(self, message):
        # An outage while connecting or serving a push must not leave a half-open socket or
        # end the consumer's loop: a connect is refused (the client retries with backoff),
        # anything else is logged and the socket stays open.
        try:
            # Everything this socket says (errors, seat names, summaries) in its language.
            with translation.override(self._language()):
                await self._handle(message)
        except Exception as exc:
            if (service := service_down(exc)) is None:
                raise
            log.warning("%s met an outage (%s): %r", message["type"], service, exc)
            if message["type"] == "websocket.connect":
                await self.close(code=1013)  # "try again later"
            elif message["type"] == "websocket.disconnect":
                raise StopConsumer() from None

    async def _handle(self, message) -> None:
        """Channels' ``dispatch`` without its ``aclose_old_connections`` before every message:
        a hop to the process's one sync thread for each push and frame, measured at a tenth of
        a web process's CPU under load (py-spy) and a queue every socket shared. Nothing here
        touches the database on the event loop; every query runs in ``database_sync_to_async``,
        which closes stale connections in its own thread before and after."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    def _language(self) -> str:
        if not hasattr(self, "language"):
            self.language = scope_language(self.scope)
        return self.language

    def _frame_allowed(self) -> bool:
        """At most SOCKET_FRAME_RATE_LIMIT frames per window on this connection (counted
        here: a connection lives in one process)."""
        now = time.monotonic()
        if now - getattr(self, "_window_start", -1e9) >= settings.SOCKET_FRAME_RATE_WINDOW:
            self._window_start, self._frames = now, 0
        self._frames += 1
        return self._frames <= settings.SOCKET_FRAME_RATE_LIMIT

    async def _malformed(self, detail) -> None:
        error = GameError("malformed_message", detail=detail)
        await self.send_error(error.code, error.message)

    async def handle_frame(self, content: dict) -> None:
        raise NotImplementedError

    async def send_json(self, content: dict) -> None:
        await self.send(text_data=broadcast.encode(content))

    async def send_error(self, code: str, message: str, **extra) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, **extra})

    async def frame(self, event):
        await self.send_json(event["frame"])


def _jsonable(params: dict) -> dict:
    return json.loads(json.dumps(params, default=str))


# Frames that change who plays the user's seat: the services' table.changed push then moves
# every socket of theirs to the seat's view, or to the public one (``_follow_access``).
SEAT_CHANGES = {"take_back": services.table_take_back, "leave": services.table_leave}


class TableConsumer(ViewStream, JsonFrameConsumer):
    """One table: the seat's own view (or the public one), chat and presence.

    The seat whose view a socket gets follows its user: whenever who holds a seat or who may
    see the table changes (``table.changed``, or a push addressed to another holder), the
    socket asks again (``_follow_access``) and moves to its user's seat now, to the public
    view, or is closed (``ACCESS_LOST``) if its user may no longer see the table."""

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.views_begin()
        self.access_lock = asyncio.Lock()  # one ``_follow_access`` at a time
        access = await self._access()
        if access is None:
            await self.close(code=4404)
            return
        self.seat, league_group = access
        self.groups_joined = [broadcast.table_group(self.table_id)]
        if league_group is not None:
            self.groups_joined.append(league_group)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        self.view_joined = self._view_group()
        await fanout.join(self.view_joined, self)
        await self.accept()
        await self._send_table()
        for message in await self._recent_chat():
            await self.send_json({"type": "chat", **message})
        await self._send_sync()
        await self._presence(+1)

    async def disconnect(self, code):
        if not hasattr(self, "access_lock"):
            return
        async with self.access_lock:  # not while a ``_follow_access`` moves or closes it
            # (asked again inside: a ``_follow_access`` that closed the socket left them)
            if getattr(self, "groups_joined", None) or self.view_joined is not None:
                await self._leave_groups()

    def _view_group(self) -> str:
        if self.seat is None:
            return broadcast.public_group(self.table_id)
        return broadcast.seat_group(self.table_id, self.seat)

    @database_sync_to_async
    def _access(self):
        """``None`` if the user may not see the table (``Table.visible_to``); else ``(seat,
        league_group)``: the seat they hold here now (``None``: they watch), and the group
        that tells of a private league's membership changes (``None`` if not one)."""
        table = Table.objects.filter(pk=self.table_id).prefetch_related("seats").first()
        if table is None or not table.visible_to(self.user):
            return None
        # A seated player sees the table whatever league it belongs to (Table.visible_to).
        watcher = table.league_id is not None and table.seat_of(self.user) is None
        return table.held_position(self.user), broadcast.league_group(
            table.league_id
        ) if watcher else None

    async def _follow_access(self) -> bool:
        """Ask again which seat this socket's user holds; move the socket to that seat's view
        (or the public one) with a full frame, or close it if the table is no longer theirs
        to see. Returns whether the socket stays open. One at a time: a ``table.changed`` and
        a fanned-out push addressed to another holder can both ask."""
        async with self.access_lock:
            if self.view_joined is None and not self.groups_joined:
                return False  # closed by the call before this one
            access = await self._access()
            if access is None:
                await self._leave_groups()
                await self.send_error(ACCESS_LOST, str(ACCESS_LOST_MESSAGE))
                await self.close(code=ACCESS_LOST_CODE)
                return False
            seat = access[0]
            if seat != self.seat:
                old, self.view_joined = self.view_joined, None
                self.outbox.clear()  # views of the old seat's group: never passed on now
                if old is not None:
                    await fanout.leave(old, self)
                self.seat = seat
                self.view_joined = self._view_group()
                await fanout.join(self.view_joined, self)
                # The next view is a full one for the new seat, whatever version it is at.
                self.sent_version, self.early = -1, {}
                await self._send_sync()
            return True

    async def _leave_groups(self) -> None:
        groups, self.groups_joined = self.groups_joined, []
        view, self.view_joined = self.view_joined, None
        self.outbox.clear()
        if view is not None:
            await fanout.leave(view, self)
        for group in groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        await self._presence(-1)

    async def handle_frame(self, content: dict) -> None:
        kind = content["type"]
        if kind == "action":
            await self._submit(content)
        elif kind == "chat":
            await database_sync_to_async(services.chat_post)(
                table_id=self.table_id, user=self.user, text=content.get("text")
            )
        elif kind in SEAT_CHANGES:
            await database_sync_to_async(SEAT_CHANGES[kind])(table_id=self.table_id, user=self.user)
        elif kind == "sync":
            await self._send_table()
            await self._send_sync()
        elif kind == "ping":
            # The current version: a client that missed a push (one lost while Redis was
            # unreachable) learns here that it is behind, and resyncs.
            await self.send_json({"type": "pong", "version": await self._version()})
        else:
            raise GameError(
                "malformed_message", detail=_("unknown frame type %(type)s") % {"type": kind[:40]}
            )

    @database_sync_to_async
    def _version(self) -> int | None:
        games = Game.objects.filter(table_id=self.table_id)
        return games.values_list("version", flat=True).first()

    async def _submit(self, content: dict) -> None:
        game_id = await self._game_id()
        if game_id is None:
            raise GameError("game_not_running")
        try:
            # In the moves' own threads, not the one shared database thread: a move waits on
            # PostgreSQL and Redis for most of its time, and there every socket of this
            # process would wait behind it. Moves of one table still go one at a time (each
            # written only if the game is still as it read it: games.storage.store_move).
            await pools.run_in(
                _move_threads(),
                _submit_limited,
                game_id=game_id,
                user=self.user,
                action=content.get("action"),
                expected_version=content.get("version"),
            )
        except GameError as exc:
            await self.send_error(exc.code, exc.message)
            if exc.code == "stale_version":
                await self._send_sync()

    @database_sync_to_async
    def _recent_chat(self):
        """The last chat lines, oldest first, so a page that (re)connects shows the talk."""
        lines = ChatMessage.objects.filter(table_id=self.table_id).select_related("user")
        return [m.as_message() for m in reversed(lines.order_by("-id")[:CHAT_HISTORY])]

    async def _game_id(self) -> int | None:
        """The table's game, looked up once: a table's game never changes once dealt (every
        action used to cost one more trip to the database thread for it)."""
        if getattr(self, "game_id", None) is None:
            self.game_id = await database_sync_to_async(_game_id_of)(self.table_id)
        return self.game_id

    async def _send_sync(self) -> None:
        frame = await self._sync_frame()
        if frame is not None:
            await self._send_view(frame["version"], broadcast.encode(frame))

    @database_sync_to_async
    def _sync_frame(self):
        game = Game.objects.filter(table_id=self.table_id).select_related("table").first()
        if game is None:
            return None
        if game.table.held_position(self.user) != self.seat:
            return None  # the seat changed hands since: table.changed moves this socket on
        return services.game_frame(game=game, seat=self.seat)

    async def _send_table(self) -> None:
        summary = await database_sync_to_async(self._table_summary)()
        await self.send_json({"type": "table", **summary})

    def _table_summary(self):
        table = Table.objects.prefetch_related("seats__user").get(pk=self.table_id)
        return table_summary(table, self.user)

    async def table_changed(self, event):
        if await self._follow_access():
            await self._send_table()

    async def _presence(self, delta: int) -> None:
        if not getattr(self.user, "is_authenticated", False):
            return
        online = await database_sync_to_async(_presence_update)(self.table_id, self.user.pk, delta)
        await self.channel_layer.group_send(
            broadcast.table_group(self.table_id),
            {"type": "frame", "frame": {"type": "presence", "online": online}},
        )


def _game_id_of(table_id: int) -> int | None:
    return Game.objects.filter(table_id=table_id).values_list("id", flat=True).first()


def _move_threads():
    """This process's threads for the players' moves (not the loop's default executor, which
    every other ``sync_to_async`` shares): see ``ttr_site.pools``."""
    return pool("move", settings.MOVE_THREADS)


def _submit_limited(*, user, **action) -> None:
    """A game action within the user's ACTION_RATE_LIMIT (across all their sockets and web
    processes: counted in the cache), else ``rate_limited`` and nothing changes."""
    if getattr(user, "is_authenticated", False):
        limit, window = settings.ACTION_RATE_LIMIT, settings.ACTION_RATE_WINDOW
        if not rate_limit_hit(f"actions:{user.pk}", limit, window):
            raise GameError("rate_limited")
    services.game_submit_action(user=user, **action)


def _presence_update(table_id: int, user_id: int, delta: int) -> list[int]:
    """Count this user's open sockets at the table; return the users online there."""
    key = f"presence:{table_id}:{user_id}"
    cache.add(key, 0, timeout=PRESENCE_TTL)
    try:
        count = cache.incr(key, delta)
    except ValueError:
        count = max(delta, 0)
        cache.set(key, count, timeout=PRESENCE_TTL)
    members_key = f"presence:{table_id}"
    members = set(cache.get(members_key, []))
    if count > 0:
        members.add(user_id)
    else:
        members.discard(user_id)
        cache.delete(key)
    cache.set(members_key, sorted(members), timeout=PRESENCE_TTL)
    return sorted(members)


class LobbyConsumer(JsonFrameConsumer):
    """The open-tables list: a ``lobby_changed`` frame tells the page to refresh it."""

    async def connect(self):
        await self.channel_layer.group_add(broadcast.LOBBY, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(broadcast.LOBBY, self.channel_name)

    async def handle_frame(self, content: dict) -> None:
        if content["type"] == "ping":
            await self.send_json({"type": "pong"})
        else:
            raise GameError("malformed_message", detail=_("the lobby socket only answers pings"))
