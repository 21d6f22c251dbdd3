"""Users, their in-site notifications and their personal API tokens."""

import hashlib

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField


class User(AbstractUser):
    """A player. ``username`` is the public handle; ``display_name`` is optional."""

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    country = CountryField(_("country"), blank=True)
    bio = models.CharField(_("about you"), max_length=280, blank=True)
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("Leave empty to follow your browser."),
    )

    class Meta:
        ordering = ["username"]

    def __str__(self):
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def get_absolute_url(self):
        return reverse("profile", kwargs={"username": self.username})

    def save(self, *args, **kwargs):
        # A new password revokes every API token: whoever changes or resets a password
        # (perhaps because it leaked) locks out the scripts of whoever knew it. ``_password``
        # is set by ``set_password`` until the save, on every path: allauth's change, reset
        # and set, the admin's password form, ``manage.py changepassword``.
        new_password = self._password is not None and not self._state.adding
        super().save(*args, **kwargs)
        if new_password:
            self.api_tokens.active().revoke()


class NotificationQuerySet(models.QuerySet):
    def unread(self):
        return self.filter(read_at__isnull=True)


class Notification(models.Model):
    """A message for one user, shown in the site header and pushed live when they are online.

    ``key`` is the message as written in the code (its msgid) and ``params`` fill its
    placeholders: it is translated when shown, so each reader reads it in the language they
    read the site in, whatever the language was when it was sent. ``text`` is the message as
    rendered when sent: what rows from before keys existed show, and the fallback.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notifications")
    text = models.CharField(max_length=300)
    key = models.CharField(max_length=300, blank=True)
    params = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    read_at = models.DateTimeField(null=True, blank=True)

    objects = NotificationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.text

    @property
    def display_text(self) -> str:
        """The message in the active language (the reader's)."""
        return render_message(self.key, self.params, fallback=self.text)

    def as_message(self) -> dict:
        return {
            "id": self.pk,
            "text": self.display_text,
            "key": self.key,
            "params": self.params,
            "url": self.url,
            "created_at": self.created_at.isoformat(),
        }


def render_message(key: str, params: dict, *, fallback: str) -> str:
    """``key`` translated into the active language, its ``{name}`` or ``%(name)s``
    placeholders filled from ``params``; ``fallback`` without a key, or if a translation
    does not fit its parameters (a translator's slip must not break a page)."""
    if not key:
        return fallback
    template = gettext(key)
    try:
        text = template % params if "%(" in key else template.format(**params)
    except (KeyError, IndexError, ValueError, TypeError):
        return fallback
    return text[:300]


class ApiTokenQuerySet(models.QuerySet):
    def active(self):
        return self.filter(revoked_at__isnull=True)

    def revoke(self) -> int:
        """Revoke these tokens now; return how many were active."""
        return self.active().update(revoked_at=timezone.now())


class ApiToken(models.Model):
    """A personal API token for scripts and bots: ``Authorization: Bearer <secret>``.

    Only the SHA-256 ``digest`` of the secret is stored (the secret is shown once, at
    creation); ``prefix`` is its first characters, shown so a user can tell tokens apart. A
    *revoked* token authenticates nothing; the row stays for the record.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.user} {self.prefix}… ({self.name})"

    @staticmethod
    def digest_of(secret: str) -> str:
        return hashlib.sha256(secret.encode()).hexdigest()
