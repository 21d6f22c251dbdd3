"""Live pushes to one user's open pages. Group names live here; call only after commit."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def push_to_user(user_id: int, payload: dict) -> None:
    """Send ``payload`` to every WebSocket the user has open (see NotificationConsumer)."""
    layer = get_channel_layer()
    async_to_sync(layer.group_send)(user_group(user_id), {"type": "push", "payload": payload})
