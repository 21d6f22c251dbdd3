"""API authentication by personal token: ``Authorization: Bearer <secret>``.

A request without the header is left to the next class (the browser session); a header with
an unknown or revoked token is refused with a 401 and never falls back to the session.
"""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from .services import api_token_user

SCHEME = "Bearer"


def bearer_secret(header: str | bytes | None) -> str | None:
    """The secret of an ``Authorization: Bearer <secret>`` header value, else None."""
    if isinstance(header, bytes):
        header = header.decode("latin-1")
    parts = (header or "").split()
    if len(parts) == 2 and parts[0].lower() == SCHEME.lower():
        return parts[1]
    return None


class BearerTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request):
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header.lower().startswith(SCHEME.lower()):
            return None  # no token: the session may know the user
        secret = bearer_secret(header)
        user = api_token_user(secret=secret) if secret else None
        if user is None:
            raise exceptions.AuthenticationFailed(_("This API token is unknown or revoked."))
        return user, "token"

    def authenticate_header(self, request):
        return f'{SCHEME} realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """Documents the token scheme in the OpenAPI schema."""

    target_class = BearerTokenAuthentication
    name = "token"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A personal API token from your settings page.",
        }
