"""WebSocket URL routing for the whole site; each app contributes its own patterns."""

from django.urls import path

from ttr_site.accounts.consumers import NotificationConsumer

websocket_urlpatterns = [
    path("ws/notifications/", NotificationConsumer.as_asgi()),
]
