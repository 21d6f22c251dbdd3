"""Shared test set-up: service gates, the fixed cast of users, and factories.

Tests marked ``postgres``, ``redis`` or ``browser`` need that service. Without it they are
skipped with the reason (``make test`` lists the skips); with ``CI=true`` a missing service
is a failure instead, so CI never passes by skipping.
"""

import os
import shutil
import socket
import uuid
from urllib.parse import urlparse

import pytest

CHROMIUM = "/usr/bin/chromium"


def _redis_reachable() -> str | None:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return "REDIS_URL is not set"
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname, parsed.port or 6379), timeout=2) as s:
            s.sendall(b"PING\r\n")
            if not s.recv(16).startswith(b"+PONG"):
                return f"Redis at {url} did not answer PING"
    except OSError as exc:
        return f"Redis at {url} is unreachable ({exc})"
    return None


def _postgres_configured() -> str | None:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        return "DATABASE_URL does not point at PostgreSQL"
    return None


def _browser_available() -> str | None:
    if not shutil.which(CHROMIUM):
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    return None


def _gettext_available() -> str | None:
    if not shutil.which("xgettext"):
        return "GNU gettext's xgettext is missing (apt-get install gettext)"
    return None


SERVICE_CHECKS = {
    "redis": _redis_reachable,
    "postgres": _postgres_configured,
    "browser": _browser_available,
    "gettext": _gettext_available,
}
_results: dict[str, str | None] = {}


def service_missing(name: str) -> str | None:
    if name not in _results:
        _results[name] = SERVICE_CHECKS[name]()
    return _results[name]


def _waits_on_servers(item) -> bool:
    """A test that drives a browser, starts a live site (``tests.live.LiveSite``) or runs a
    fault drill: it spends its time waiting on processes of its own."""
    if item.get_closest_marker("browser") is not None:
        return True
    if "reliability" in item.path.parts:
        return True
    return getattr(getattr(item, "module", None), "LiveSite", None) is not None


LIVE_SHARDS = ("live1", "live2")


def pytest_collection_modifyitems(config, items):
    """``TESTS=rest`` keeps the tests that do not wait on servers; ``TESTS=live1`` and
    ``live2`` each half of those that do (their modules in name order, taken in turn, so that
    neighbours such as the fault drills split); ``TESTS=live`` all of them. ``make test`` runs
    rest, live1 and live2 side by side; unset, everything runs."""
    group = os.environ.get("TESTS", "")
    if group not in ("live", "rest", *LIVE_SHARDS):
        return
    modules = sorted({str(item.path) for item in items if _waits_on_servers(item)})
    shard = {path: LIVE_SHARDS[i % len(LIVE_SHARDS)] for i, path in enumerate(modules)}
    keep, drop = [], []
    for item in items:
        if not _waits_on_servers(item):
            wanted = group == "rest"
        else:
            wanted = group == "live" or shard[str(item.path)] == group
        (keep if wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_runtest_setup(item):
    for name in SERVICE_CHECKS:
        if item.get_closest_marker(name) is None:
            continue
        reason = service_missing(name)
        if reason is None:
            continue
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI needs {name}: {reason}", pytrace=False)
        pytest.skip(f"needs {name}: {reason}")


@pytest.fixture(autouse=True)
def no_move_threads_left():
    """The web process's move threads (ttr_site.pools) live as long as the process and keep
    their database connections; a test that used them stops them, so that no connection to
    the test database outlives the test."""
    yield
    from ttr_site import pools

    pools.shutdown()


@pytest.fixture(scope="session", autouse=True)
def cache_namespace_of_this_run():
    """With Redis, this run keys its cache and its channel layer under a prefix of its own.
    Redis outlives a run, and what an earlier run left there (allauth sends one confirmation
    e-mail per address per three minutes; rate-limit counters; the sweep lock) must not reach
    into this one."""
    from django.conf import settings
    from django.test import override_settings

    default = settings.CACHES["default"]
    if "KEY_PREFIX" not in default:  # the in-memory cache of embedded mode starts empty
        yield
        return
    tag = f"test-{uuid.uuid4().hex[:8]}"
    run = {**default, "KEY_PREFIX": f"{default['KEY_PREFIX']}-{tag}"}
    # Redis pub/sub channels are not scoped by database number: without a prefix of its own,
    # a run would hear the pushes of another run's table with the same id.
    layer = settings.CHANNEL_LAYERS["default"]
    config = layer.get("CONFIG", {})
    layers = {"default": {**layer, "CONFIG": {**config, "prefix": f"{config.get('prefix')}-{tag}"}}}
    with override_settings(CACHES={**settings.CACHES, "default": run}, CHANNEL_LAYERS=layers):
        yield


@pytest.fixture
def cast(db):
    """The fixed cast: alice, bob, carol and dave, with confirmed e-mail addresses."""
    from tests.factories import UserFactory

    return {name: UserFactory(username=name) for name in ("alice", "bob", "carol", "dave")}
