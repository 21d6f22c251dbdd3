"""Use cases of accounts that write: notifications and personal API tokens."""

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone, translation
from django.utils.functional import Promise

from .errors import AccountError
from .models import ApiToken, Notification, User, render_message
from .push import push_to_user


def notification_send(
    *, user: User, text: str, url: str = "", params: dict | None = None
) -> Notification:
    """Store a notification for ``user`` and push it to their open pages after commit.

    ``text`` is a message marked for translation (``gettext_lazy``) whose ``{name}`` or
    ``%(name)s`` placeholders ``params`` fill: it is stored as its msgid and translated each
    time it is shown, into the reader's language of the moment. A plain string (already
    rendered) is stored and shown as it is.
    """
    params = {name: _plain(value) for name, value in (params or {}).items()}
    key = ""
    if isinstance(text, Promise):
        with translation.override(None):  # no catalogue: the msgid itself
            key = str(text)
        key = key if len(key) <= 300 else ""
    with translation.override(user.language or None):
        rendered = render_message(key, params, fallback=str(text))
    notification = Notification.objects.create(
        user=user, text=rendered[:300], key=key, params=params, url=url
    )
    message = {"kind": "notification", **notification.as_message()}
    transaction.on_commit(lambda: push_to_user(user.pk, message))
    return notification


def _plain(value):
    """A parameter as JSON keeps it: numbers stay numbers, anything else becomes its text."""
    return value if isinstance(value, int | float) and not isinstance(value, bool) else str(value)


def notifications_mark_read(*, user: User) -> int:
    """Mark all of ``user``'s notifications read; return how many changed."""
    return Notification.objects.unread().filter(user=user).update(read_at=timezone.now())


# --- personal API tokens ----------------------------------------------------------------------

TOKEN_PREFIX = "ttr_"
MAX_TOKENS = 20
# last_used_at is written at most this often per token: a read need not be a write.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def api_token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``; returns it with its secret, which is never stored."""
    name = (name or "").strip()
    if not name or len(name) > 60:
        raise AccountError("invalid_token_name")
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        # The user's row lock makes count-then-create one step: without it, parallel
        # requests all counted 19 and each created one (30 at once left 23 active).
        User.objects.select_for_update().only("pk").get(pk=user.pk)
        if user.api_tokens.active().count() >= MAX_TOKENS:
            raise AccountError("too_many_tokens")
        token = ApiToken.objects.create(
            user=user, name=name, prefix=secret[:12], digest=ApiToken.digest_of(secret)
        )
    return token, secret


def api_token_revoke(*, user: User, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens: from now on it authenticates nothing."""
    token = user.api_tokens.active().filter(pk=token_id).first()
    if token is None:
        raise AccountError("token_not_found")
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    return token


def api_token_user(*, secret: str) -> User | None:
    """The active user a token secret belongs to (None: unknown, revoked or inactive)."""
    if not isinstance(secret, str) or not secret.startswith(TOKEN_PREFIX) or len(secret) > 100:
        return None
    token = (
        ApiToken.objects.active()
        .select_related("user")
        .filter(digest=ApiToken.digest_of(secret), user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or token.last_used_at < now - LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user
