"""ttr_site/collector.py: the web and worker processes keep what they loaded at start-up out
of the cyclic collector's way; a web process hands the GIL over at ``WEB_SWITCH_INTERVAL``.
Each check runs a fresh interpreter, as a process starts."""

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


def _fresh(code: str, *, settle: bool = True, env: dict | None = None) -> dict:
    """What ``code`` leaves in a fresh interpreter: the collector's settings, or (``settle``
    False) the switch interval the code's last line printed."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "ttr_site.settings",
        "DEBUG": "true",
        **(env or {}),
    }
    done = subprocess.run(
        [sys.executable, "-c", code + (REPORT if settle else "")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    return json.loads(last) if settle else {"interval": float(last)}


def test_a_web_process_freezes_what_the_asgi_application_loaded():
    got = _fresh("import ttr_site.asgi\n")
    assert got["threshold"][0] == collector.YOUNG_THRESHOLD
    # Django, the apps, the URL patterns and the consumers: tens of thousands of objects.
    assert got["frozen"] > 20_000


def test_a_web_process_hands_the_gil_over_at_the_configured_interval():
    """``WEB_SWITCH_INTERVAL`` (seconds), set by the ASGI application; CPython's own is 0.005."""
    code = "import sys, ttr_site.asgi\nprint(sys.getswitchinterval())\n"
    assert _fresh(code, settle=False) == {"interval": 0.02}
    assert _fresh(code, settle=False, env={"WEB_SWITCH_INTERVAL": "0.01"}) == {"interval": 0.01}


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
