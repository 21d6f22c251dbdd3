"""Reactions to allauth's account events; the work runs in Celery after commit."""

from allauth.account.signals import email_confirmed, password_changed, password_reset
from django.db import transaction
from django.dispatch import receiver

from . import tasks


@receiver(password_changed)
@receiver(password_reset)
def _on_password_changed(sender, request, user, **kwargs):
    transaction.on_commit(lambda: tasks.notify_password_changed.delay(user.pk))


@receiver(email_confirmed)
def _on_email_confirmed(sender, request, email_address, **kwargs):
    user_id = email_address.user_id
    transaction.on_commit(lambda: tasks.welcome.delay(user_id))
