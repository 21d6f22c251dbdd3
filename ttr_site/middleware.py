"""Site middleware: each request in the viewer's time zone and chosen language."""

import zoneinfo

from django.http import Http404, JsonResponse
from django.utils import timezone, translation
from django.utils.translation import gettext

TZ_COOKIE = "tz"


class TimezoneMiddleware:
    """Show times (and read times typed into forms) in the viewer's time zone: the ``tz``
    cookie the pages set from the browser (``Europe/Berlin``); UTC without one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        zone = _zone(request.COOKIES.get(TZ_COOKIE, ""))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        return self.get_response(request)


def _zone(name: str) -> zoneinfo.ZoneInfo | None:
    if not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


class AccountLanguageMiddleware:
    """A signed-in player's own language (chosen in Settings or with the page's language
    switcher, stored on the account) wins over the browser's; without one, Django's
    ``LocaleMiddleware`` follows the switcher's cookie, then the browser's preference."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if getattr(user, "is_authenticated", False) else ""
        if language and language != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


class NulPathMiddleware:
    """No address of the site holds a NUL character. One in the path (``%00``) would reach
    the database through a URL parameter (an invite token, a username), which PostgreSQL
    refuses with an error, a 500 (found by tests/reliability/fuzz_http.py): it is a 404."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" not in request.path:
            return self.get_response(request)
        if request.path.startswith("/api/"):
            message = gettext("There is no such endpoint.")
            return JsonResponse({"code": "not_found", "message": message}, status=404)
        raise Http404
