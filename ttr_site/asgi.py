"""ASGI entry point: Django for HTTP, Channels consumers for WebSockets.

WebSocket connections are authenticated by a personal API token (no ``Origin`` needed) or by
the Django session, which must come from an allowed origin (cross-site WebSocket hijacking is
refused): see ``ttr_site/accounts/socket_auth.py``.
"""

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up)
from django.conf import settings  # noqa: E402

from games.web_beat import lifespan  # noqa: E402
from ttr_site import collector  # noqa: E402
from ttr_site.accounts.socket_auth import TokenOrSessionMiddleware  # noqa: E402
from ttr_site.routing import websocket_urlpatterns  # noqa: E402
from ttr_site.socket_quota import SocketQuotaMiddleware  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Authenticated first: the socket caps count per user as well as per address.
        "websocket": TokenOrSessionMiddleware(
            SocketQuotaMiddleware(URLRouter(websocket_urlpatterns))
        ),
        # The process's liveness beat (games.web_beat); at a graceful shutdown it records
        # stopping, and the bot moves waiting in this process go to Celery.
        "lifespan": lifespan,
    }
)

# Everything the process keeps is loaded now: out of the collector's way (ttr_site/collector.py).
collector.settle()
# Fewer forced handovers of the GIL between the event loop and the move threads (settings).
sys.setswitchinterval(settings.WEB_SWITCH_INTERVAL)
