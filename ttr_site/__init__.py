"""The ttr project package: settings, URL and ASGI routing, the Celery app."""

from .celery import app as celery_app

__all__ = ["celery_app"]
