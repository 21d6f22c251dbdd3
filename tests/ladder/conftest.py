"""Ladder test set-up: Celery tasks run inline, and builders for leagues and rated tables."""

import pytest

from ttr_site.celery import app


@pytest.fixture
def eager_tasks(settings):
    """Run Celery tasks inline (on commit callbacks still need capturing in the test)."""
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager = False
    app.conf.task_eager_propagates = False


def ensure_default_leagues():
    """The data migration's default leagues. A transactional test elsewhere in the run
    flushes every table afterwards, so recreate them (idempotent) where a test needs them."""
    import importlib

    from django.apps import apps

    importlib.import_module("ladder.migrations.0002_default_leagues").create_defaults(apps, None)


@pytest.fixture
def europe(db):
    """The default Europe league of the data migration."""
    from ladder.models import League

    ensure_default_leagues()
    return League.objects.get(slug="europe")


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Ladder tests make many users; a slow password hash buys them nothing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
