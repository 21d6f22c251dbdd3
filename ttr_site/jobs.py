"""Background jobs queued by name: a use case asks for a job after commit without importing
the task module (tasks are thin adapters that call the use cases, so the imports run one way:
tasks -> services, never back).

``enqueue`` looks the task up in the Celery app's registry (importing the apps' ``tasks``
modules, Celery's autodiscovery, the first time a name is missing: a web process has not
loaded them) and queues it with ``apply_async``: eager mode in tests and monkeypatched tasks
behave as before.
"""

from kombu.exceptions import OperationalError as BrokerUnreachable
from redis.exceptions import RedisError

from ttr_site.celery import app

# What queueing a job raises while the broker is unreachable.
BROKER_ERRORS = (BrokerUnreachable, RedisError, OSError)


def enqueue(name: str, *args, countdown: float | None = None) -> None:
    """Queue the task ``name`` (e.g. ``"games.tasks.bot_move"``) with ``args``."""
    _task(name).apply_async(args, countdown=countdown)


def _task(name: str):
    if name not in app.tasks:
        app.loader.import_default_modules()  # runs the autodiscovery of every app's tasks
    return app.tasks[name]
