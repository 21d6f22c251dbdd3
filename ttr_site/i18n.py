"""The language of a WebSocket (no request there, so no ``LocaleMiddleware``).

The same order as pages: the signed-in player's own language (stored on the account), then
the language switcher's cookie, then the browser's ``Accept-Language``, then the default.
"""

from http.cookies import SimpleCookie

from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header


def scope_language(scope) -> str:
    """The language to speak on the socket described by ``scope``."""
    user = scope.get("user")
    if getattr(user, "is_authenticated", False) and getattr(user, "language", ""):
        return user.language
    headers = dict(scope.get("headers") or [])
    cookie = SimpleCookie(headers.get(b"cookie", b"").decode("latin-1"))
    wanted = [cookie[name].value] if (name := settings.LANGUAGE_COOKIE_NAME) in cookie else []
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    wanted += [code for code, _ in parse_accept_lang_header(accept) if code != "*"]
    for code in wanted:
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
