"""The one error format of the API, and the exception handler that maps every error to it.

An error body is ``{"code": "<reason>", "message": "<human text>"}`` plus, when they apply,
``detail`` (what exactly was wrong), ``fields`` (field -> messages, for ``invalid``) and
``params`` (the engine's facts about an illegal action). Codes are the WebSocket error
frames' codes (``games.errors``, ``ladder.errors``, the engine's ``REASON_CODES``) plus the
HTTP ones below. Each user error says its own status (``UserError.http_status``); anything
else is a bug and a 500.
"""

import json

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status
from rest_framework.response import Response

from games import engine
from games.reasons import reason_message
from ttr_site.errors import UserError

HTTP_MESSAGES = {
    "login_required": _("Log in to do that."),
    "forbidden": _("You may not do that."),
    "not_found": _("There is no such thing here."),
    "invalid": _("Some fields are not valid."),
    "malformed_message": _("The request could not be understood."),
    "rate_limited": _("Too many requests; wait a moment."),
    "method_not_allowed": _("That method is not allowed here."),
    "not_acceptable": _("That response format is not available."),
    "unsupported_media_type": _("Send JSON (Content-Type: application/json)."),
    "too_large": _("The request is too large."),
}

# The HTTP layer's own codes (DRF's errors, a body too large). A user error declares the status
# of its codes itself (``UserError.statuses``, e.g. ``games.errors.STATUSES``).
CODE_STATUS = {
    "login_required": status.HTTP_401_UNAUTHORIZED,
    "forbidden": status.HTTP_403_FORBIDDEN,
    "not_found": status.HTTP_404_NOT_FOUND,
    "method_not_allowed": status.HTTP_405_METHOD_NOT_ALLOWED,
    "not_acceptable": status.HTTP_406_NOT_ACCEPTABLE,
    "too_large": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    "unsupported_media_type": status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
    "rate_limited": status.HTTP_429_TOO_MANY_REQUESTS,
}
# The engine refused the action: well-formed, but not legal in this state.
ILLEGAL_ACTION_STATUS = status.HTTP_422_UNPROCESSABLE_ENTITY

DRF_CODES = [
    (exceptions.NotAuthenticated, "login_required"),
    (exceptions.AuthenticationFailed, "login_required"),
    (exceptions.PermissionDenied, "forbidden"),
    (exceptions.NotFound, "not_found"),
    (exceptions.ValidationError, "invalid"),
    (exceptions.ParseError, "malformed_message"),
    (exceptions.Throttled, "rate_limited"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
]


def error_body(code: str, message, **extra) -> dict:
    """An error body; ``extra`` keys with a value of None are left out."""
    extra = {k: v for k, v in extra.items() if v is not None}
    return {"code": code, "message": str(message)} | extra


def error_response(code: str, message, *, http: int | None = None, **extra) -> Response:
    return Response(error_body(code, message, **extra), status=http or CODE_STATUS.get(code, 400))


def exception_handler(exc, context):
    """DRF's hook: every user error becomes the one format; anything else stays a 500."""
    if isinstance(exc, UserError):
        detail = exc.params.get("detail")
        detail = None if detail is None else str(detail)
        return error_response(exc.code, exc.message, http=exc.http_status, detail=detail)
    if isinstance(exc, engine.IllegalAction):
        params = json.loads(json.dumps(exc.params, default=str))
        message = reason_message(exc.code, exc.params)  # the engine speaks English only
        return error_response(exc.code, message, http=ILLEGAL_ACTION_STATUS, params=params)
    if isinstance(exc, RequestDataTooBig):  # a body over DATA_UPLOAD_MAX_MEMORY_SIZE
        return error_response("too_large", HTTP_MESSAGES["too_large"])
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.APIException):
        return _drf_error(exc)
    return None


def _drf_error(exc: exceptions.APIException) -> Response:
    code = next(c for kind, c in DRF_CODES + [(exceptions.APIException, "invalid")]
                if isinstance(exc, kind))  # fmt: skip
    extra = {}
    if isinstance(exc, exceptions.ValidationError):
        extra["fields"] = _fields(exc.detail)
    elif code in ("login_required", "malformed_message") and _text(exc.detail):
        extra["detail"] = _text(exc.detail)
    elif isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        extra["params"] = {"wait": round(exc.wait)}
    response = error_response(code, HTTP_MESSAGES.get(code, _text(exc.detail)),
                              http=exc.status_code, **extra)  # fmt: skip
    if getattr(exc, "auth_header", None):
        response["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        response["Retry-After"] = str(round(exc.wait))
    return response


def _fields(detail) -> dict:
    """Field -> list of messages (``non_field_errors`` for the whole request)."""
    if isinstance(detail, dict):
        return {str(k): _messages(v) for k, v in detail.items()}
    return {"non_field_errors": _messages(detail)}


def _messages(value) -> list[str]:
    if isinstance(value, dict):
        return [f"{k}: {m}" for k, v in value.items() for m in _messages(v)]
    if isinstance(value, list):
        return [m for v in value for m in _messages(v)]
    return [str(value)]


def _text(detail) -> str:
    return str(detail) if isinstance(detail, str) else ""
