"""Celery tasks of the live tables: thin wrappers that call ``games.services``.

Game tasks take ``(game_id, expected_version)`` and do nothing if the game has moved on, so
duplicate, late or retried runs are harmless (tasks are acknowledged late and retried).

Timeouts have no task per move: ``sweep_deadlines`` (beat, every second) resolves every game
whose deadline has passed, bot moves whose task was lost included. Measured with 200 tables
of 2 humans and 2 bots (``make bench-load``), one ETA task per human decision was half of what
the worker handled, for a timeout that almost never came; one indexed query a second does the
same job, at most a second late.
"""

import logging

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import InterfaceError, OperationalError
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import bot_turns, engine
from games.models import Game, Seat, Table

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


def _bot_seats(game_id: int) -> dict[int, str]:
    seats = Seat.objects.filter(table__game__id=game_id)
    return {s.position: s.bot_level for s in seats if s.is_bot}


def schedule_bots(game_id: int, version: int, state, bots=None) -> None:
    """If a bot has a decision to make now, have it played after a watchable delay: by this
    web process if the caller runs in one (``games.bot_turns``), else by Celery.
    ``bots``: the positions played by bots, if the caller has the seats at hand."""
    if engine.is_terminal(state):
        return
    if bots is None:
        bots = _bot_seats(game_id)
    if not any(seat in bots for seat in engine.current_seats(state)):
        return
    if not bot_turns.schedule(game_id, version, settings.BOT_MOVE_DELAY):
        bot_move.apply_async((game_id, version), countdown=settings.BOT_MOVE_DELAY)


@shared_task(**RETRY)
def bot_move(game_id: int, expected_version: int) -> None:
    """Play one decision for the first bot seat that has one, if the version still holds."""
    from games.services import game_bot_move

    if not game_bot_move(game_id=game_id, expected_version=expected_version):
        log.info("bot move for game %s v%s was overtaken", game_id, expected_version)


@shared_task(**RETRY)
def turn_timeout(game_id: int, expected_version: int) -> bool:
    """The deadline of ``expected_version`` has come: resolve it unless the game moved on."""
    from games.services import game_handle_timeout

    return game_handle_timeout(game_id=game_id, expected_version=expected_version)


@shared_task
def sweep_deadlines() -> int:
    """Resolve every game whose deadline has passed (beat runs this every second). One sweep
    at a time: a sweep that outlasts the second is not joined by the next one."""
    if not cache.add(SWEEP_LOCK, 1, timeout=SWEEP_LOCK_SECONDS):
        return 0
    try:
        return _sweep()
    finally:
        cache.delete(SWEEP_LOCK)


def _sweep() -> int:
    overdue = Game.objects.filter(
        deadline__lte=timezone.now(), table__status=Table.Status.PLAYING
    ).values_list("id", "version")[:500]
    handled = 0
    for game_id, version in overdue:
        try:
            handled += bool(turn_timeout(game_id, version))
        except Exception:
            log.exception("sweeping game %s failed", game_id)
    return handled


@shared_task
def notify_turn(table_id: int, version: int, positions: list[int]) -> None:
    """Turn-based games: tell the players whose turn it is (in the site and by e-mail)."""
    from ttr_site.accounts.services import notification_send

    game = Game.objects.filter(table_id=table_id).first()
    if game is None or game.version != version:
        return  # they already moved
    table = game.table
    url = settings.SITE_URL + table.get_absolute_url()
    for seat in Seat.objects.filter(table=table, position__in=positions).select_related("user"):
        user = seat.user
        if user is None or seat.abandoned:
            continue
        notification_send(
            user=user,
            text=translation.gettext_lazy("It is your turn at table %(id)s.") % {"id": table_id},
            url=table.get_absolute_url(),
        )
        if user.email:
            with translation.override(user.language or None):
                send_mail(
                    _("[ttr] Your turn at table %(id)s") % {"id": table_id},
                    _("It is your turn. Play here: %(url)s") % {"url": url},
                    None,
                    [user.email],
                    fail_silently=True,
                )
