"""Celery tasks of the live tables: thin wrappers that call ``games.services``.

Every task takes ``(game_id, expected_version)`` and does nothing if the game has moved on,
so duplicate, late or retried runs are harmless.
"""

import logging

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from games import engine
from games.engine.bots import choose_action
from games.errors import GameError
from games.models import Game, Seat

log = logging.getLogger(__name__)


def _bot_seats(game_id: int) -> dict[int, str]:
    seats = Seat.objects.filter(table__game__id=game_id).select_related(None)
    return {s.position: s.bot_level for s in seats if s.is_bot}


def schedule_bots(game_id: int, version: int, state) -> None:
    """If a bot has a decision to make now, queue its move (after a watchable delay)."""
    if engine.is_terminal(state):
        return
    bots = _bot_seats(game_id)
    if any(seat in bots for seat in engine.current_seats(state)):
        bot_move.apply_async((game_id, version), countdown=settings.BOT_MOVE_DELAY)


@shared_task(
    autoretry_for=(OperationalError,), retry_backoff=0.5, retry_backoff_max=10, max_retries=8
)
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
    action = choose_action(bots[seat], engine.view_for(state, seat), legal,
                           seed=game.seed ^ (expected_version * 1_000_003 + seat))  # fmt: skip
    from games.services import game_submit_action

    try:
        game_submit_action(
            game_id=game_id, action=action, expected_version=expected_version, bot_seat=seat
        )
    except GameError as exc:
        if exc.code != "stale_version":
            raise
        log.info("bot move for game %s v%s was overtaken", game_id, expected_version)
