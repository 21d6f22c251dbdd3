"""WSGI entry point (HTTP only; the site itself is served over ASGI for WebSockets)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_site.settings")

application = get_wsgi_application()
