"""Outages: PostgreSQL or Redis cannot be reached for a moment. Neither a user error nor a
bug (ARCHITECTURE.md, example 12), so neither a form message nor a 500: the visitor is told
the site is briefly unavailable (HTTP 503 with ``Retry-After``, a JSON error under ``/api/``,
an ``unavailable`` error frame on a socket) and the log gets a warning, not a traceback.

Terms: a *connectivity error* is Django's ``OperationalError``/``InterfaceError`` (the
database; also "database is locked" and deadlocks, which a retry fixes as well) or redis-py's
``ConnectionError``/``TimeoutError`` (the cache, sessions kept there, the channel layer).
"""

import logging
import sys

from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
MESSAGES = {
    "database": _("The database is unreachable right now. Try again in a moment."),
    "redis": _("Part of the site is unreachable right now. Try again in a moment."),
}


def service_down(exc: BaseException | None) -> str | None:
    """``"database"`` or ``"redis"`` if ``exc`` says that service cannot be reached."""
    if isinstance(exc, (OperationalError, InterfaceError)):
        return "database"
    if isinstance(exc, (RedisConnectionError, RedisTimeoutError)):
        return "redis"
    return None


def unavailable_response(request, service: str) -> HttpResponse:
    """The 503 a visitor gets: JSON in the API's error format under /api/, else a page that
    needs neither the database nor Redis to render."""
    message = str(MESSAGES[service])
    if request.path.startswith("/api/"):
        response = JsonResponse({"code": "unavailable", "message": message}, status=503)
    else:
        html = render_to_string("503.html", {"message": message, "lang": get_language()})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class OutageMiddleware:
    """First in ``MIDDLEWARE``. A view that hits an outage gets the 503 straight away
    (``process_exception``). Middleware and response phases that hit one (the session, the
    user behind it) have already been turned into a 500 by Django's per-layer exception
    handling by the time it gets here; the ``got_request_exception`` signal marks the request
    so that 500 is replaced by the 503."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        service = getattr(request, "_service_down", None)
        if service is not None and response.status_code == 500:
            return unavailable_response(request, service)
        return response

    def process_exception(self, request, exception):
        service = service_down(exception)
        if service is None:
            return None
        log.warning("%s %s: %s unreachable: %r", request.method, request.path, service, exception)
        return unavailable_response(request, service)


def _mark_request(sender, request=None, **kwargs):
    service = service_down(sys.exc_info()[1])
    if service is not None and request is not None:
        request._service_down = service


got_request_exception.connect(_mark_request, dispatch_uid="ttr_outages_mark_request")
