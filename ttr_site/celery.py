"""The Celery app. Configuration comes from Django settings (``CELERY_*``).

Production runs ``celery -A ttr_site worker`` and ``celery -A ttr_site beat`` as their own
processes over Redis; embedded mode runs both inside the web process (``ttr_site.embedded``).
"""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_site.settings")

app = Celery("ttr_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def close_old_connections(task=None, **kwargs) -> None:
    """Around each task, as Django around each request: close a database connection that is
    broken or older than ``CONN_MAX_AGE``, keep a good one (see ``CELERY_DB_REUSE_MAX``)."""
    if task is not None and getattr(task.request, "is_eager", False):
        return  # an eager task runs inside its caller's transaction
    from django.db import close_old_connections

    close_old_connections()


@worker_process_init.connect
def settle_collector(**kwargs) -> None:
    """A worker process has loaded the tasks and Django: see ``ttr_site/collector.py``."""
    from ttr_site import collector

    collector.settle()
