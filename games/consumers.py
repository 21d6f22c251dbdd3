"""WebSocket adapters: the table (``/ws/table/<id>/``) and the lobby (``/ws/lobby/``).

Thin: parse a frame, call one service, answer. Client frames (JSON objects):
``{"type": "action", "action": {...}, "version": n}``, ``{"type": "chat", "text": "..."}``,
``{"type": "sync"}``, ``{"type": "ping"}``. Server frames: ``view`` (see
``broadcast.view_frame``), ``table`` (seats and status), ``chat``, ``presence``,
``table_changed``, ``error`` (``code``, ``message``; the connection stays open), ``pong``.
"""

import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.cache import cache

from games import broadcast, engine, services
from games.errors import GameError
from games.models import ChatMessage, Game, Table
from games.presenters import table_summary

log = logging.getLogger(__name__)

MAX_FRAME = 16_384  # bytes; an action or a chat line is far smaller
PRESENCE_TTL = 24 * 3600
CHAT_HISTORY = 50


class JsonFrameConsumer(AsyncWebsocketConsumer):
    """Frames are JSON objects; anything else gets an error frame, never a dropped socket."""

    async def receive(self, text_data=None, bytes_data=None):
        raw = text_data if text_data is not None else bytes_data
        if raw is None or len(raw) > MAX_FRAME:
            return await self.send_error("malformed_message", "The frame is empty or too large.")
        try:
            content = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return await self.send_error("malformed_message", "The frame is not valid JSON.")
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            return await self.send_error(
                "malformed_message", "A frame is a JSON object with a string 'type'."
            )
        try:
            await self.handle_frame(content)
        except GameError as exc:
            await self.send_error(exc.code, exc.message)
        except engine.IllegalAction as exc:
            await self.send_error(exc.code, exc.message, params=_jsonable(exc.params))
        except Exception:
            log.exception("unexpected error handling a frame")
            await self.send_error("server_error", "Something went wrong; nothing was changed.")

    async def handle_frame(self, content: dict) -> None:
        raise NotImplementedError

    async def send_json(self, content: dict) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":")))

    async def send_error(self, code: str, message: str, **extra) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, **extra})

    async def frame(self, event):
        await self.send_json(event["frame"])


def _jsonable(params: dict) -> dict:
    return json.loads(json.dumps(params, default=str))


class TableConsumer(JsonFrameConsumer):
    """One table: the seat's own view (or the public one), chat and presence."""

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        access = await self._access()
        if access is None:
            await self.close(code=4404)
            return
        (self.seat,) = access
        self.groups_joined = [broadcast.table_group(self.table_id), self._view_group()]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self._send_table()
        for message in await self._recent_chat():
            await self.send_json({"type": "chat", **message})
        await self._send_sync()
        await self._presence(+1)

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if hasattr(self, "groups_joined"):
            await self._presence(-1)

    def _view_group(self) -> str:
        if self.seat is None:
            return broadcast.public_group(self.table_id)
        return broadcast.seat_group(self.table_id, self.seat)

    @database_sync_to_async
    def _access(self):
        """``None`` if the user may not watch; else ``(seat,)`` with the seat they play here
        (``None`` for a spectator)."""
        table = Table.objects.filter(pk=self.table_id).prefetch_related("seats").first()
        if table is None:
            return None
        seat = table.seat_of(self.user)
        if table.is_private and seat is None:
            return None
        return (seat.position if seat is not None and not seat.abandoned else None,)

    async def handle_frame(self, content: dict) -> None:
        kind = content["type"]
        if kind == "action":
            await self._submit(content)
        elif kind == "chat":
            await database_sync_to_async(services.chat_post)(
                table_id=self.table_id, user=self.user, text=content.get("text")
            )
        elif kind == "sync":
            await self._send_table()
            await self._send_sync()
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            raise GameError("malformed_message", detail=f"unknown frame type {kind!r}")

    async def _submit(self, content: dict) -> None:
        game_id = await self._game_id()
        if game_id is None:
            raise GameError("game_not_running")
        try:
            await database_sync_to_async(services.game_submit_action)(
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

    @database_sync_to_async
    def _game_id(self):
        return Game.objects.filter(table_id=self.table_id).values_list("id", flat=True).first()

    async def _send_sync(self) -> None:
        frame = await self._sync_frame()
        if frame is not None:
            await self.send_json(frame)

    @database_sync_to_async
    def _sync_frame(self):
        game = Game.objects.filter(table_id=self.table_id).select_related("table").first()
        if game is None:
            return None
        return services.game_frame(game=game, seat=self.seat)

    async def _send_table(self) -> None:
        summary = await database_sync_to_async(self._table_summary)()
        await self.send_json({"type": "table", **summary})

    def _table_summary(self):
        table = Table.objects.prefetch_related("seats__user").get(pk=self.table_id)
        return table_summary(table, self.user)

    async def table_changed(self, event):
        await self._send_table()

    async def _presence(self, delta: int) -> None:
        if not getattr(self.user, "is_authenticated", False):
            return
        online = await database_sync_to_async(_presence_update)(self.table_id, self.user.pk, delta)
        await self.channel_layer.group_send(
            broadcast.table_group(self.table_id),
            {"type": "frame", "frame": {"type": "presence", "online": online}},
        )


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
            raise GameError("malformed_message", detail="the lobby socket only answers pings")
