"""Table chat: stored, length- and rate-limited, pushed to everyone at the table."""

from django.core.cache import cache
from django.db import transaction

from games import broadcast
from games.errors import GameError
from games.models import ChatMessage, Table

CHAT_LIMIT = 300
CHAT_BURST = 5  # messages per CHAT_WINDOW seconds per player and table
CHAT_WINDOW = 10


def chat_post(*, table_id: int, user, text) -> ChatMessage:
    """Store a chat line (length- and rate-limited) and push it to everyone at the table."""
    if not getattr(user, "is_authenticated", False):
        raise GameError("login_required")
    if not isinstance(text, str):
        raise GameError("malformed_message", detail="'text' must be a string")
    text = text.strip()
    if not text:
        raise GameError("chat_empty")
    if len(text) > CHAT_LIMIT:
        raise GameError("chat_too_long", limit=CHAT_LIMIT)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise GameError("not_found")
    if table.is_private and table.seat_of(user) is None:
        raise GameError("private_table")
    key = f"chat-rate:{table_id}:{user.pk}"
    cache.add(key, 0, timeout=CHAT_WINDOW)
    try:
        sent = cache.incr(key)
    except ValueError:  # the window expired between add and incr
        cache.set(key, sent := 1, timeout=CHAT_WINDOW)
    if sent > CHAT_BURST:
        raise GameError("chat_rate_limited")
    message = ChatMessage.objects.create(table=table, user=user, text=text)
    payload = message.as_message()
    transaction.on_commit(lambda: broadcast.chat(table_id, payload))
    return message
