"""The Content-Security-Policy of every page: scripts, styles, images, fonts and connections
from this site only; no inline script, no event-handler attribute, no inline style; no
plugins, no framing, no foreign ``<base>`` or form target.

Django 5.2 has no CSP of its own (6.0 brings one) and the policy is one fixed header, so a
small middleware rather than django-csp: no dependency for a constant. The site's pages
need no exception: their scripts are static files (``js/site.js`` does what inline handlers
did) and colours set from data go through the CSSOM, which the policy allows.

Exceptions, each for a reason:
- the API docs (Swagger UI, Redoc) set inline styles from their bundles and Redoc searches in
  a worker it makes from a ``blob:`` URL: ``api_docs_policy``. Redoc's footer logo from
  cdn.redoc.ly stays blocked (the docs are self-hosted; Redoc hides the image when it fails);
- 5xx pages are self-contained on purpose (``500.html``, ``503.html`` carry their own
  ``<style>``, so they show when static files or the database do not) and so is DEBUG's
  technical 404: they get no policy. They show no user-made text.
"""

from functools import wraps

from django.conf import settings

HEADER = "Content-Security-Policy"
POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",  # CSP 3: 'self' covers ws:/wss: to this host
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def header_value(**changes: str) -> str:
    return "; ".join(f"{k} {v}" for k, v in (POLICY | changes).items())


STRICT = header_value()
API_DOCS = header_value(**{"style-src": "'self' 'unsafe-inline'", "worker-src": "'self' blob:"})


class ContentSecurityPolicyMiddleware:
    """Add the policy to every response that does not set its own."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if HEADER in response or _exempt(response.status_code):
            return response
        response[HEADER] = getattr(response, "csp_policy", STRICT)
        return response


def _exempt(status: int) -> bool:
    return status >= 500 or (settings.DEBUG and status == 404)


def api_docs_policy(view):
    """The view's responses get the API docs' policy (still no inline script)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response.csp_policy = API_DOCS
        return response

    return wrapped
