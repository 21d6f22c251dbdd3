"""The public REST API: ``/api/v1/`` (each app's ``api_urls``), its OpenAPI 3 schema at
``/api/schema/`` and the browsable documentation at ``/api/docs/`` (Swagger UI) and
``/api/redoc/``, all served from this site (no CDN)."""

import re

from django.conf import settings
from django.http import HttpResponse
from django.urls import URLResolver, include, path, re_path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from rest_framework.decorators import api_view, permission_classes
from rest_framework.response import Response

from ttr_site.api.errors import error_response
from ttr_site.csp import api_docs_policy

v1 = [
    path("", include("ttr_site.accounts.api_urls")),
    path("", include("games.api_urls")),
    path("", include("ladder.api_urls")),
]


def _routes(patterns, prefix: str = "") -> list[str]:
    """Every address of ``patterns``, path parameters as ``{name}``."""
    out = []
    for entry in patterns:
        route = prefix + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(entry.pattern))
        if isinstance(entry, URLResolver):
            out += _routes(entry.url_patterns, route)
        else:
            out.append(route)
    return out


@extend_schema(exclude=True)
@api_view(["GET"])
@permission_classes([])
def api_root(request):
    """``/api/v1/``: what is here (every endpoint) and where it is described."""
    return Response({
        "version": "v1",
        "schema": request.build_absolute_uri("/api/schema/"),
        "docs": request.build_absolute_uri("/api/docs/"),
        "endpoints": sorted(f"/api/v1/{route}" for route in _routes(v1)),
    })  # fmt: skip


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE"])
@permission_classes([])
def unknown_endpoint(request, rest=""):
    """Any other address under /api/: the API's 404, not the site's HTML page."""
    return error_response("not_found", _("There is no such endpoint."))


def api_protocol(request):
    """docs/protocol.md: the REST conventions and every WebSocket frame, for API users."""
    text = (settings.BASE_DIR / "docs" / "protocol.md").read_text(encoding="utf-8")
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


urlpatterns = [
    path("v1/", api_root, name="api-root"),
    path("v1/", include(v1)),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script from a URL (?script): no inline script.
    path(
        "docs/",
        api_docs_policy(SpectacularSwaggerSplitView.as_view(url_name="api-schema")),
        name="api-docs",
    ),
    path(
        "redoc/",
        api_docs_policy(SpectacularRedocView.as_view(url_name="api-schema")),
        name="api-redoc",
    ),
    # The socket protocol, as written for developers (docs/protocol.md), as plain text.
    path("protocol/", api_protocol, name="api-protocol"),
    re_path(r"^(?P<rest>[\s\S]*)$", unknown_endpoint),
]
