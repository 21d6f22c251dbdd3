"""``make run`` is quiet by default: Celery's beat and worker, uvicorn's access log and the
periodic tasks say nothing at INFO (LOG_LEVEL=INFO brings it all back), and each e-mail the
console backend prints stands out between rules, its links on lines of their own."""

import io
import json
import logging
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from tests.live import LiveSite
from ttr_site.console_mail import RULE
from ttr_site.management.commands.serve import uvicorn_level

ROOT = Path(__file__).resolve().parent.parent

# Runs in a fresh process configured only by the environment, as `make run` is: one real
# beat tick (Celery's scheduler sends a due periodic task and logs it at INFO), then what the
# loggers of the worker and the web server would let through.
SCRIPT = """
import json, logging, os, sys
from datetime import timedelta
os.environ["DJANGO_SETTINGS_MODULE"] = "ttr_site.settings"
import django
django.setup()
from celery.beat import Scheduler
from django.conf import settings
from ttr_site.celery import app
beat = Scheduler(app, lazy=False)
for entry in beat.schedule.values():
    entry.last_run_at = entry.default_now() - timedelta(days=1)
beat.tick()
chatty = ["celery.worker.strategy", "celery.app.trace", "uvicorn.access", "games.tasks",
          "ladder.tasks", "ttr_site.embedded"]
print(json.dumps({
    "info": {name: logging.getLogger(name).isEnabledFor(logging.INFO) for name in chatty},
    "warns": logging.getLogger("celery.beat").isEnabledFor(logging.WARNING),
    "email_backend": settings.EMAIL_BACKEND,
}))
"""


def run_site_process(**env) -> tuple[dict, str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("LOG_LEVEL", "EMAIL_URL")}
    environment.pop("REDIS_URL", None)  # embedded mode, as `make run` on a laptop
    environment.update(DEBUG="true", **env)
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1]), result.stderr


def test_by_default_the_periodic_work_logs_nothing_at_info():
    seen, stderr = run_site_process()
    assert "Sending due task" not in stderr
    assert " INFO " not in stderr, stderr
    assert seen["info"] == dict.fromkeys(seen["info"], False)
    assert seen["warns"]  # warnings and errors still show
    assert seen["email_backend"] == "ttr_site.console_mail.EmailBackend"


def test_log_level_info_brings_the_chatter_back():
    seen, stderr = run_site_process(LOG_LEVEL="INFO")
    assert "INFO celery.beat: Scheduler: Sending due task" in stderr
    assert all(seen["info"].values())


def test_the_web_server_logs_requests_only_when_asked():
    assert uvicorn_level("WARNING") == "warning" and uvicorn_level("INFO") == "info"
    assert uvicorn_level("NONSENSE") == "warning"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "task",
    ["games.tasks.sweep_deadlines", "ladder.tasks.matchmake", "ladder.tasks.tournaments_tick"],
)
def test_the_periodic_tasks_themselves_log_nothing_at_info(task, caplog):
    module, name = task.rsplit(".", 1)
    function = getattr(__import__(module, fromlist=[name]), name)
    with caplog.at_level(logging.DEBUG):
        function()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == []


def test_an_e_mail_printed_to_the_console_stands_out_with_its_link():
    stream = io.StringIO()
    connection = mail.get_connection("ttr_site.console_mail.EmailBackend", stream=stream)
    link = "http://127.0.0.1:8000/accounts/confirm-email/" + "k" * 90 + "/"
    mail.EmailMessage("[ttr] Please confirm", f"Go to {link}.\n", to=["erin@example.com"],
                      connection=connection).send()  # fmt: skip
    lines = stream.getvalue().splitlines()
    assert lines[:4] == [
        RULE, "E-MAIL to erin@example.com: [ttr] Please confirm", f"  Link: {link}", RULE
    ]  # fmt: skip
    assert lines[-3:] == [RULE, "(end of the e-mail to erin@example.com)", RULE]


@pytest.mark.django_db
def test_the_sign_up_confirmation_is_printed_with_its_link(capsys):
    with override_settings(EMAIL_BACKEND="ttr_site.console_mail.EmailBackend"):
        Client().post(reverse("account_signup"), {
            "username": "quinn", "email": "quinn@example.com",
            "password1": "a-long-enough-passphrase", "password2": "a-long-enough-passphrase",
        })  # fmt: skip
    out = capsys.readouterr().out
    assert "E-MAIL to quinn@example.com: " in out
    assert "  Link: http://testserver/accounts/confirm-email/" in out
    assert settings.EMAIL_BACKEND != "ttr_site.console_mail.EmailBackend"  # tests: locmem


def test_serving_the_pages_static_files_prints_no_warning(tmp_path):
    """Django warns once per process that it streams a static file from a synchronous
    iterator under ASGI: harmless, and it was the only line `make run` printed on a first visit."""
    live = LiveSite("embedded", tmp_path, extra_env={"DEBUG": "true"}).start()
    try:
        with urllib.request.urlopen(live.url + "/static/css/site.css", timeout=30) as response:
            assert b"--brand" in response.read()
    finally:
        live.stop()
    assert "StreamingHttpResponse" not in live.output()
