"""WebSocket for a signed-in user's live notifications (``/ws/notifications/``)."""

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation

from ttr_site.i18n import scope_language

from .models import render_message
from .push import user_group


class NotificationConsumer(AsyncJsonWebsocketConsumer):
    """Joins the user's group and forwards pushes; anonymous visitors are refused (4401)."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        # The endpoint is push-only; answer anything sent with a clear error, keep the socket.
        await self.send_json({"kind": "error", "code": "push_only", "message": "Push only."})

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        await self.receive_json(None)

    async def push(self, event):
        payload = event["payload"]
        if payload.get("kind") == "notification" and payload.get("key"):
            # Each socket reads the notice in its own page's language, not the sender's.
            with translation.override(scope_language(self.scope)):
                text = render_message(payload["key"], payload["params"], fallback=payload["text"])
            payload = {**payload, "text": text}
        await self.send_json(payload)
