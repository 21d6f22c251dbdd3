"""Table chat: stored, length- and rate-limited, pushed to everyone at the table."""

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from games import broadcast
from games.errors import GameError
from games.models import ChatMessage, Table
from ttr_site.ratelimit import rate_limit_hit

CHAT_LIMIT = 300
CHAT_BURST = 5  # the default of settings.CHAT_RATE_LIMIT (messages per window, player, table)


def _storable(text: str) -> bool:
    """No NUL character (PostgreSQL text cannot hold one) and no lone surrogate (not UTF-8):
    both reach a JSON frame easily (found by tests/reliability/fuzz.py)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def chat_post(*, table_id: int, user, text) -> ChatMessage:
    """Store a chat line (length- and rate-limited) and push it to everyone at the table."""
    if not getattr(user, "is_authenticated", False):
        raise GameError("login_required")
    if not isinstance(text, str):
        raise GameError("malformed_message", detail=_("the text must be a string"))
    text = text.strip()
    if not text:
        raise GameError("chat_empty")
    if not _storable(text):
        raise GameError("malformed_message", detail=_("the text has characters it cannot have"))
    if len(text) > CHAT_LIMIT:
        raise GameError("chat_too_long", limit=CHAT_LIMIT)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise GameError("not_found")
    if not table.visible_to(user):
        raise GameError("private_table")
    limit, window = settings.CHAT_RATE_LIMIT, settings.CHAT_RATE_WINDOW
    if not rate_limit_hit(f"chat:{table_id}:{user.pk}", limit, window):
        raise GameError("chat_rate_limited")
    message = ChatMessage.objects.create(table=table, user=user, text=text)
    payload = message.as_message()
    transaction.on_commit(lambda: broadcast.chat(table_id, payload))
    return message
