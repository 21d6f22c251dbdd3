"""WebSocket URL routing for the whole site; each app contributes its own patterns."""

from django.urls import path

from games.routing import websocket_urlpatterns as games_patterns
from ladder.routing import websocket_urlpatterns as ladder_patterns
from ttr_site.accounts.consumers import NotificationConsumer

websocket_urlpatterns = [
    path("ws/notifications/", NotificationConsumer.as_asgi()),
    *games_patterns,
    *ladder_patterns,
]
