"""django-allauth, adapted: the client address and the failed-log-in key.

allauth counts failed log-ins per client address and per account (``ACCOUNT_RATE_LIMITS``,
``login_failed``). Out of the box it takes the address from its own reading of the headers
and keys the account on the site's domain plus the login as typed; with no sites framework
the domain is the request's ``Host``, port included, so every port was a fresh budget, and
a username and its e-mail address were two. Here the address is ``client_address`` (the one
every per-IP limit uses) and the key is the account itself.
"""

from types import SimpleNamespace
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import filter_users_by_email, filter_users_by_username
from django.conf import settings

from ttr_site.client_address import client_address


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request) -> str:
        return client_address(request)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        # E-mails name the site as configured, not by the Host of the request that sent
        # them ("Hello from 127.0.0.1:8101!" without the sites framework).
        site = SimpleNamespace(name=settings.SITE_NAME, domain=urlsplit(settings.SITE_URL).netloc)
        super().send_mail(template_prefix, email, {**context, "current_site": site})

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        # allauth's hook for the key of `login_failed` (and of clearing it after a password
        # reset); tests/reliability/test_rate_limits.py fails if an upgrade stops calling it.
        return login_attempts_key(credentials)


def login_attempts_key(credentials: dict) -> str:
    """One key per account however it is named (username or e-mail, any case, on either
    log-in page, under any host); a login that names no account is keyed on itself."""
    login = (credentials.get("email") or credentials.get("username") or "").strip()
    user = _account_named(login)
    return f"account:{user.pk}" if user else f"login:{login.casefold()}"


def _account_named(login: str):
    if "@" in login:  # the admin's form passes an e-mail address as the username
        user = next(iter(filter_users_by_email(login, prefer_verified=True)), None)
        if user is not None:
            return user
    return filter_users_by_username(login).order_by("pk").first() if login else None
