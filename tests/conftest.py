"""Shared test set-up: service gates, the fixed cast of users, and factories.

Tests marked ``postgres``, ``redis`` or ``browser`` need that service. Without it they are
skipped with the reason (``make test`` lists the skips); with ``CI=true`` a missing service
is a failure instead, so CI never passes by skipping.
"""

import os
import shutil
import socket
import uuid
from pathlib import Path
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
# Seconds each module of the tests that wait on servers took (a ``make test`` half, 2026-11-25,
# from pytest's --junitxml), to deal the modules into halves of equal time; a module not
# listed counts as ``LIVE_DEFAULT_SECONDS``. Rough figures do: only their order matters much.
LIVE_SECONDS = {
    "games/test_whole_game_browser.py": 179,
    "games/test_table_page_browser.py": 130,
    "ladder/test_knockout_browser.py": 105,
    "ladder/test_table_call_browser.py": 100,
    "api/test_schemathesis_live.py": 89,
    "games/test_turn_signals_browser.py": 61,
    "games/test_analysis_live.py": 55,
    "games/test_background_work_live.py": 50,
    "reliability/test_rate_limits.py": 49,
    "games/test_clocks_ratings_replay_browser.py": 49,
    "reliability/test_fuzz.py": 45,
    "games/test_seat_actions_browser.py": 42,
    "reliability/test_worker_kill.py": 42,
    "ladder/test_swiss_browser.py": 40,
    "ladder/test_arena_browser.py": 40,
    "games/test_board_browser.py": 40,
    "reliability/test_web_restart.py": 35,
    "ladder/test_tournament_live.py": 34,
    "reliability/test_redis_restart.py": 34,
    "ladder/test_arena_live.py": 31,
    "reliability/test_postgres_outage.py": 31,
    "ladder/test_live_standings_browser.py": 28,
    "reliability/test_hostile_input.py": 26,
    "test_csp_browser.py": 24,
    "ladder/test_tournament_browser.py": 24,
    "test_polish_browser.py": 23,
    "ladder/test_knockout_live.py": 22,
    "test_live_site.py": 22,
    "test_languages_browser.py": 20,
    "api/test_bot_client_live.py": 15,
    "games/test_table_form_browser.py": 15,
    "games/test_table_client.py": 12,
    "test_quiet_console.py": 6,
    "reliability/test_scale_out.py": 4,
    "reliability/test_fanout.py": 3,
    "reliability/test_outages.py": 3,
    "reliability/test_push_order.py": 2,
    "reliability/test_broker_transport.py": 1,
}
LIVE_DEFAULT_SECONDS = 30


def _live_shards(modules: list[str]) -> dict[str, str]:
    """Each module's half: the longest first, each to the half with the least time so far."""
    root = Path(__file__).parent

    def seconds(path: str) -> int:
        return LIVE_SECONDS.get(Path(path).relative_to(root).as_posix(), LIVE_DEFAULT_SECONDS)

    totals = dict.fromkeys(LIVE_SHARDS, 0)
    shard = {}
    for path in sorted(modules, key=lambda p: (-seconds(p), p)):
        least = min(LIVE_SHARDS, key=lambda s: (totals[s], s))
        shard[path] = least
        totals[least] += seconds(path)
    return shard


def pytest_collection_modifyitems(config, items):
    """``TESTS=rest`` keeps the tests that do not wait on servers; ``TESTS=live1`` and
    ``live2`` each half of those that do (by time: ``_live_shards``); ``TESTS=live`` all of
    them. ``make test`` runs rest, live1 and live2 side by side; unset, everything runs."""
    group = os.environ.get("TESTS", "")
    if group not in ("live", "rest", *LIVE_SHARDS):
        return
    shard = _live_shards(sorted({str(item.path) for item in items if _waits_on_servers(item)}))
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
