"""The bare-broadcast ceiling of ``benchmarks/load.py``: Channels with no database and no game.

Served by uvicorn exactly like the site (same settings, so the same channel layer: Redis
pub/sub with this deployment's ``REDIS_PREFIX``), but its only consumer does what a table
does on the wire and nothing else: a socket at ``/ws/bare/<table>/`` joins the group of its
table; a ``{"seq": n}`` frame from it is answered by one ``group_send`` of a ~2 KB frame (a
real spectator view of a game in play) to every socket of that table.

    uvicorn benchmarks.bare_asgi:application --workers 2 --no-access-log
"""

import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_site.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from games import broadcast, engine  # noqa: E402
from games.engine.bots import choose_action  # noqa: E402


def _sample_view(moves: int = 51) -> dict:
    """A seat's push frame from a 4-seat game ``moves`` actions in (with its legal actions
    and clock), chosen at about 2 KB: the size of most frames of the game run (a seat whose
    turn it is gets more: its legal claims)."""
    state = engine.new_game(seats=4, seed=1)
    for step in range(moves):
        seat = engine.current_seats(state)[0]
        view, legal = engine.view_for(state, seat), engine.legal_actions(state, seat)
        engine.apply_action(state, seat, choose_action("easy", view, legal, seed=step))
    seat = engine.current_seats(state)[0]
    frame = broadcast.view_frame(state, moves, seat, since=len(state.log) - 2)
    clock = {
        "time_control": "realtime",
        "move_seconds": 20,
        "turn_hours": 24,
        "deadline": "2026-01-01T00:00:20+00:00",
        "turn_started_at": "2026-01-01T00:00:00+00:00",
        "banks": {"0": 0.0, "1": 0.0, "2": 0.0, "3": 0.0},
    }
    return frame | {"clock": clock}


VIEW = _sample_view()


class BareTableConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"bare-{self.scope['url_route']['kwargs']['table']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        seq = json.loads(text_data)["seq"]
        frame = {**VIEW, "version": seq}
        await self.channel_layer.group_send(self.group, {"type": "frame", "frame": frame})

    async def frame(self, event):
        await self.send(text_data=json.dumps(event["frame"], separators=(",", ":")))


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("ws/bare/<int:table>/", BareTableConsumer.as_asgi())])}
)
