"""Celery tasks of the live tables: thin wrappers that call ``games.services``.

Game tasks take ``(game_id, expected_version)`` and do nothing if the game has moved on, so
duplicate, late or retried runs are harmless (tasks are acknowledged late and retried).
``sweep_deadlines`` (Celery beat) catches any deadline whose task was lost.
"""

import logging

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import OperationalError
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import engine
from games.engine.bots import choose_action
from games.errors import GameError
from games.models import Game, Seat, Table

log = logging.getLogger(__name__)
RETRY = {
    "autoretry_for": (OperationalError,),
    "retry_backoff": 0.5,
    "retry_backoff_max": 10,
    "max_retries": 8,
}


def _bot_seats(game_id: int) -> dict[int, str]:
    seats = Seat.objects.filter(table__game__id=game_id)
    return {s.position: s.bot_level for s in seats if s.is_bot}


def schedule_bots(game_id: int, version: int, state) -> None:
    """If a bot has a decision to make now, queue its move (after a watchable delay)."""
    if engine.is_terminal(state):
        return
    bots = _bot_seats(game_id)
    if any(seat in bots for seat in engine.current_seats(state)):
        bot_move.apply_async((game_id, version), countdown=settings.BOT_MOVE_DELAY)


@shared_task(**RETRY)
def bot_move(game_id: int, expected_version: int) -> None:
    """Play one decision for the first bot seat that has one, if the version still holds."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.version != expected_version:
        return
    state = engine.from_json(game.state)
    bots = _bot_seats(game_id)
    seat = next((s for s in engine.current_seats(state) if s in bots), None)
    if seat is None:
        return
    legal = engine.legal_actions(state, seat)
    if not legal:
        return
    seed = game.seed ^ (expected_version * 1_000_003 + seat)
    action = choose_action(bots[seat], engine.view_for(state, seat), legal, seed=seed)
    from games.services import game_submit_action

    try:
        game_submit_action(
            game_id=game_id, action=action, expected_version=expected_version, bot_seat=seat
        )
    except GameError as exc:
        if exc.code not in ("stale_version", "game_not_running"):
            raise
        log.info("bot move for game %s v%s was overtaken", game_id, expected_version)


@shared_task(**RETRY)
def turn_timeout(game_id: int, expected_version: int) -> bool:
    """The deadline of ``expected_version`` has come: resolve it unless the game moved on."""
    from games.services import game_handle_timeout

    return game_handle_timeout(game_id=game_id, expected_version=expected_version)


@shared_task
def sweep_deadlines() -> int:
    """Handle every overdue game whose timeout task was lost (beat runs this every 5 s)."""
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
