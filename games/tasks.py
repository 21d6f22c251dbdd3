"""Celery tasks of the live tables: thin adapters that call ``games.services`` (the services
queue them by name after commit, ``ttr_site.jobs``, so imports run one way: tasks ->
services).

Game tasks take ``(game_id, expected_version)`` and do nothing if the game has moved on, so
duplicate, late or retried runs are harmless (tasks are acknowledged late and retried).

Timeouts have no task per move: ``sweep_deadlines`` (beat, every second) resolves every game
whose deadline has passed, bot moves whose task was lost included. Measured with 200 tables
of 2 humans and 2 bots (``make bench-load``), one ETA task per human decision was half of what
the worker handled, for a timeout that almost never came; one indexed query a second does the
same job, at most a second late.
"""

import logging
import time

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import InterfaceError, OperationalError

from games import services
from games.services import analysis

log = logging.getLogger(__name__)
SWEEP_LOCK = "games:sweep-deadlines"
SWEEP_LOCK_SECONDS = 60  # a crashed sweep frees the lock after this long
RETRY = {
    # The database unreachable for a moment (or a connection it dropped): try again.
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 0.5,
    "retry_backoff_max": 10,
    "max_retries": 8,
}


@shared_task(**RETRY)
def bot_move(game_id: int, expected_version: int) -> None:
    """Play one decision for the first bot seat that has one, if the version still holds."""
    if not services.game_bot_move(game_id=game_id, expected_version=expected_version):
        log.info("bot move for game %s v%s was overtaken", game_id, expected_version)


@shared_task(**RETRY)
def turn_timeout(game_id: int, expected_version: int) -> bool:
    """The deadline of ``expected_version`` has come: resolve it unless the game moved on."""
    return services.game_handle_timeout(game_id=game_id, expected_version=expected_version)


@shared_task
def sweep_deadlines() -> int:
    """Resolve every game whose deadline has passed (beat runs this every second). One sweep
    at a time: a sweep that outlasts the second is not joined by the next one.

    Each sweep first beats the clock heartbeat: after an outage (no sweep for a while, or no
    web process alive) every running game gets the lost time back before any deadline is
    resolved, and while no web process is alive nobody times out (``clock_outages``)."""
    if not cache.add(SWEEP_LOCK, 1, timeout=SWEEP_LOCK_SECONDS):
        return 0
    try:
        return _sweep()
    except (OperationalError, InterfaceError) as exc:
        # The database busy (SQLite's write lock, held past its timeout by other writers) or
        # unreachable: the next beat, a second later, sweeps again, and if none gets through
        # for a while that is an outage the clocks get back. A warning, not a traceback.
        log.warning("deadline sweep skipped, the database did not answer: %s", exc)
        return 0
    finally:
        cache.delete(SWEEP_LOCK)


def _sweep() -> int:
    if not services.clock_sweep_beat().serving:
        return 0  # nobody can move now: no timeouts (the time is given back later)
    started = time.monotonic()
    handled = services.game_sweep_deadlines()
    if time.monotonic() - started > settings.SWEEP_SECONDS:
        # A long sweep (many timeouts at once) was no outage: the next sweep's gap counts
        # from its end, not its start.
        services.clock_sweep_touch()
    return handled


@shared_task
def notify_turn(table_id: int, version: int, positions: list[int]) -> None:
    """Turn-based games: tell the players whose turn it is (in the site and by e-mail)."""
    services.game_notify_turn(table_id=table_id, version=version, positions=positions)


@shared_task(**RETRY)
def analyse_game(analysis_id: int) -> bool:
    """Run a queued post-game analysis (``games.services.analysis``); a duplicate does nothing."""
    return analysis.analysis_run(analysis_id=analysis_id)
