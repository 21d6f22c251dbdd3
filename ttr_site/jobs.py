"""Background jobs queued by name: a use case asks for a job after commit without importing
the task module (tasks are thin adapters that call the use cases, so the imports run one way:
tasks -> services, never back).

``enqueue`` looks the task up in the Celery app's registry (importing the task's module the
first time its name is missing: a web process has not loaded them) and queues it with
``apply_async``: eager mode in tests and monkeypatched tasks behave as before.
"""

import importlib
import threading

from kombu.exceptions import OperationalError as BrokerUnreachable
from redis.exceptions import RedisError

from ttr_site.celery import app

# What queueing a job raises while the broker is unreachable.
BROKER_ERRORS = (BrokerUnreachable, RedisError, OSError)
_import_lock = threading.Lock()


def enqueue(name: str, *args, countdown: float | None = None) -> None:
    """Queue the task ``name`` (e.g. ``"games.tasks.bot_move"``) with ``args``."""
    _task(name).apply_async(args, countdown=countdown)


def _task(name: str):
    if name not in app.tasks:
        with _import_lock:
            if name not in app.tasks:
                # A task is named after its module (``games.tasks.bot_move``): importing that
                # module runs its ``@shared_task``, which registers it. One thread at a time,
                # and the module itself rather than Celery's autodiscovery: in a fresh web
                # process two threads queueing at once could both run the autodiscovery, and
                # the second found the registry still half-filled (NotRegistered, after the
                # move had committed).
                importlib.import_module(name.rpartition(".")[0])
    return app.tasks[name]
