"""Settings come from the environment, parsed strictly; production values pass --deploy."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x7-" + "k" * 20 + "-Q2w9!zP4@vL8#rT6$yU1%nM3^bC5&dF0*hJ",
    "ALLOWED_HOSTS": "ttr.example.org",
    "DATABASE_URL": "postgres://ttr:secret@db.example.org:5432/ttr",
    "REDIS_URL": "redis://cache.example.org:6379/0",
    "EMAIL_URL": "smtp+tls://mailer:secret@smtp.example.org:587",
}


def run_manage(*args, env):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO"))}
    for key in ("DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"):
        clean.pop(key, None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_refuse_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_production_values_pass_the_deployment_checklist():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DEBUG", "maybe", "DEBUG must be true or false, not 'maybe'"),
        ("CONN_MAX_AGE", "soon", "CONN_MAX_AGE must be a whole number, not 'soon'"),
        (
            "DATABASE_PREPARE_THRESHOLD",
            "always",
            "DATABASE_PREPARE_THRESHOLD must be a whole number, not 'always'",
        ),
        ("TRUSTED_PROXIES", "10.0.0.1,*", "TRUSTED_PROXIES must list IP addresses or networks"),
    ],
)
def test_a_malformed_variable_is_a_clear_configuration_error(name, value, message):
    result = run_manage("check", env={**PRODUCTION, name: value})
    assert result.returncode != 0
    assert message in result.stderr


def test_embedded_mode_is_the_default_without_redis():
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings as s; "
        "print(s.EMBEDDED, s.CELERY_BROKER_URL, s.DATABASES['default']['ENGINE'])",
        env={"DEBUG": "true"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "memory://", "django.db.backends.sqlite3"]


@pytest.mark.parametrize(("value", "expected"), [(None, "1"), ("0", "None"), ("5", "5")])
def test_prepared_statements_can_be_turned_off_for_a_transaction_pooler(value, expected):
    env = dict(PRODUCTION) | ({} if value is None else {"DATABASE_PREPARE_THRESHOLD": value})
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['OPTIONS'].get('prepare_threshold'))",
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [expected]
