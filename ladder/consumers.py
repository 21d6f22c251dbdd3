"""WebSocket adapter of a tournament page (``/ws/tournament/<id>/``).

Server frames: ``standings`` (after every change, once its snapshot is stored: a diff of the
standings, ``ladder/live_standings.py``; pages on other tabs fetch their live fragment again
on it), ``pong``, ``error``. Client frames: ``{"type": "ping"}``.
"""

from channels.db import database_sync_to_async
from django.utils.translation import gettext_lazy as _

from games.consumers import JsonFrameConsumer
from games.errors import GameError
from ladder.broadcast import tournament_group
from ladder.models import Tournament


class TournamentConsumer(JsonFrameConsumer):
    async def connect(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await self._visible():
            await self.close(code=4404)
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    @database_sync_to_async
    def _visible(self) -> bool:
        tournaments = Tournament.objects.visible_to(self.scope.get("user"))
        return tournaments.filter(pk=self.tournament_id).exists()

    async def text_push(self, event):
        # Encoded once by the publisher for the whole group: this socket only writes it.
        await self.send(text_data=event["text"])

    async def handle_frame(self, content: dict) -> None:
        if content["type"] == "ping":
            await self.send_json({"type": "pong"})
        else:
            raise GameError(
                "malformed_message", detail=_("the tournament socket only answers pings")
            )
