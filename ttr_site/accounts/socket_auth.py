"""Who is at the other end of a WebSocket: a personal API token, or the browser session.

A socket that presents a token (``Authorization: Bearer <secret>`` header, or ``?token=`` in
the query string for clients that cannot set headers) is that token's user, whatever its
cookies, and needs no ``Origin``: it carries no cookie a hostile page could ride on. A socket
without a token is the session's user and must come from an allowed origin (cross-site
WebSocket hijacking is refused). A token that is unknown or revoked refuses the handshake.
"""

from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier

from .authentication import bearer_secret
from .services import api_token_user


def token_of(scope) -> str | None:
    """The token a socket presents (header first, then the query string), else None."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            return bearer_secret(value) or ""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    found = query.get("token")
    return found[0] if found else None


class TokenOrSessionMiddleware:
    """Route a socket to token authentication or to the origin-checked session stack."""

    def __init__(self, inner):
        self.inner = inner
        self.session_app = AllowedHostsOriginValidator(AuthMiddlewareStack(inner))

    async def __call__(self, scope, receive, send):
        secret = token_of(scope)
        if secret is None:
            return await self.session_app(scope, receive, send)
        user = await database_sync_to_async(api_token_user)(secret=secret) if secret else None
        if user is None:
            return await WebsocketDenier()(scope, receive, send)
        return await self.inner(dict(scope, user=user, auth="token"), receive, send)
