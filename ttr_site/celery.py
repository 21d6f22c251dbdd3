"""The Celery app. Configuration comes from Django settings (``CELERY_*``).

Production runs ``celery -A ttr_site worker`` and ``celery -A ttr_site beat`` as their own
processes over Redis; embedded mode runs both inside the web process (``ttr_site.embedded``).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_site.settings")

app = Celery("ttr_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
