from django.apps import AppConfig
from django.db import connections


class TtrSiteConfig(AppConfig):
    """The project package as an app: site-wide pages and management commands."""

    name = "ttr_site"
    verbose_name = "ttr"

    def ready(self):
        from django.core.handlers.asgi import ASGIHandler
        from django.core.signals import request_finished

        request_finished.connect(
            close_request_connections, sender=ASGIHandler, dispatch_uid="ttr_close_connections"
        )


def close_request_connections(**kwargs) -> None:
    """Close the database connections of an HTTP request served over ASGI.

    Django runs the synchronous code of each ASGI request on a thread of its own
    (``ThreadSensitiveContext``), so a persistent connection (``CONN_MAX_AGE``) opened there
    is never reused: it stays open until that thread's memory is collected, and a burst of
    API calls used up PostgreSQL's 100 connections that way (benchmarks/load.py). WebSocket
    consumers keep theirs: Channels runs their database calls on one thread per process.
    """
    for connection in connections.all(initialized_only=True):
        connection.close()
