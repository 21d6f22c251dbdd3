"""ttr_site/collector.py: the web and worker processes keep what they loaded at start-up out
of the cyclic collector's way. Each check runs a fresh interpreter, as a process starts."""

import json
import os
import subprocess
import sys
from pathlib import Path

from ttr_site import collector

ROOT = Path(__file__).resolve().parent.parent

REPORT = """
import gc, json
print(json.dumps({"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}))
"""


def _fresh(code: str) -> dict:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "ttr_site.settings", "DEBUG": "true"}
    done = subprocess.run(
        [sys.executable, "-c", code + REPORT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_web_process_freezes_what_the_asgi_application_loaded():
    got = _fresh("import ttr_site.asgi\n")
    assert got["threshold"][0] == collector.YOUNG_THRESHOLD
    # Django, the apps, the URL patterns and the consumers: tens of thousands of objects.
    assert got["frozen"] > 20_000


def test_a_celery_worker_process_freezes_once_it_is_initialised():
    before = _fresh("import ttr_site.celery\n")
    assert before["threshold"][0] != collector.YOUNG_THRESHOLD  # importing alone changes nothing
    after = _fresh(
        "import django; django.setup()\n"
        "from celery.signals import worker_process_init\n"
        "worker_process_init.send(sender=None)\n"
    )
    assert after["threshold"][0] == collector.YOUNG_THRESHOLD and after["frozen"] > 20_000


def test_frozen_objects_are_still_freed_and_new_cycles_still_collected():
    code = """
import gc, weakref
from ttr_site import collector
class Node: pass
kept = Node()
ref = weakref.ref(kept)
collector.settle()
del kept  # frozen, but reference counting still frees it
assert ref() is None
a, b = Node(), Node()
a.other, b.other = b, a
ref = weakref.ref(a)
del a, b
gc.collect()
assert ref() is None
"""
    _fresh(code)
