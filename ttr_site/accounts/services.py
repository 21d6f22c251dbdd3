"""Use cases of accounts that write: notifications."""

from django.db import transaction
from django.utils import translation

from .models import Notification, User
from .push import push_to_user


def notification_send(*, user: User, text: str, url: str = "") -> Notification:
    """Store a notification for ``user`` and push it to their open pages after commit.

    ``text`` may be a lazy translation: it is rendered in the user's own language.
    """
    with translation.override(user.language or None):
        rendered = str(text)
    notification = Notification.objects.create(user=user, text=rendered[:300], url=url)
    message = {"kind": "notification", **notification.as_message()}
    transaction.on_commit(lambda: push_to_user(user.pk, message))
    return notification


def notifications_mark_read(*, user: User) -> int:
    """Mark all of ``user``'s notifications read; return how many changed."""
    from django.utils import timezone

    return Notification.objects.unread().filter(user=user).update(read_at=timezone.now())
