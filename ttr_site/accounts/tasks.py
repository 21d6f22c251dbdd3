"""Background work of accounts (Celery tasks: thin wrappers around services)."""

from celery import shared_task
from django.core.management import call_command
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .models import User
from .services import notification_send


@shared_task
def notify_password_changed(user_id: int) -> None:
    """Security notice after a password change, in-site and live on every open page."""
    user = User.objects.filter(pk=user_id).first()
    if user is not None:
        notification_send(
            user=user,
            text=_("Your password was changed. If this was not you, reset it now."),
            url=reverse("account_reset_password"),
        )


@shared_task
def welcome(user_id: int) -> None:
    """Greet a player whose e-mail address was just confirmed."""
    user = User.objects.filter(pk=user_id).first()
    if user is not None:
        notification_send(
            user=user, text=_("Welcome to ttr! Find a table and play your first game."), url="/"
        )


@shared_task
def clear_expired_sessions() -> None:
    call_command("clearsessions")
