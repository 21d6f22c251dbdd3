"""``manage.py serve``: run the site over ASGI (uvicorn).

Embedded mode (no ``REDIS_URL``) also runs the Celery worker and beat in this process, so one
command serves everything. In production mode this is only the web server; run
``celery -A ttr_site worker`` and ``celery -A ttr_site beat`` beside it.
"""

import warnings

import uvicorn
from django.conf import settings
from django.core.management.base import BaseCommand

UVICORN_LEVELS = {"CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"}


def uvicorn_level(level: str) -> str:
    """The site's LOG_LEVEL as uvicorn names it (anything else: warning)."""
    return level.lower() if level in UVICORN_LEVELS else "warning"


class Command(BaseCommand):
    help = "Serve the site over ASGI; in embedded mode also run the Celery worker and beat."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=1, help="web processes (production)")

    def handle(self, *args, host, port, workers, **options):
        # Django streams a static file from a synchronous iterator under ASGI and warns once
        # per process: harmless for our few small files, and it was the console's only line.
        warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous")
        stop = None
        if settings.EMBEDDED:
            if workers != 1:
                self.stderr.write("Embedded mode runs one process; ignoring --workers.")
                workers = 1
            from ttr_site.embedded import start_background_work

            stop = start_background_work()
            mode = "embedded: web, Celery worker and beat in this process"
        else:
            mode = "production: start the Celery worker and beat separately"
        self.stdout.write(f"ttr serving on http://{host}:{port}/ ({mode})")
        if settings.LOG_LEVEL not in ("DEBUG", "INFO"):
            self.stdout.write("Logging warnings only; LOG_LEVEL=INFO shows every request and task.")
        try:
            uvicorn.run(
                "ttr_site.asgi:application",
                host=host,
                port=port,
                workers=workers,
                # On: the web process's liveness beat and its graceful shutdown (bot moves handed
                # to Celery) live in the ASGI lifespan (games.web_beat).
                lifespan="on",
                ws_per_message_deflate=False,  # as docker/entrypoint.sh: see there
                # As docker/entrypoint.sh: X-Forwarded-For is read by the site itself, only
                # from TRUSTED_PROXIES (uvicorn's default believes it from 127.0.0.1).
                proxy_headers=False,
                # Quiet unless LOG_LEVEL asks: a line per request hides what matters.
                log_level=uvicorn_level(settings.LOG_LEVEL),
                access_log=settings.LOG_LEVEL in ("DEBUG", "INFO"),
            )
        finally:
            if stop is not None:
                stop()
