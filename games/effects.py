"""After commit: what a committed move sets off. Called only from ``transaction.on_commit`` by
``games.services``; imports nothing of the services or the tasks (jobs are queued by name,
``ttr_site.jobs``), so the move path runs one way: adapters -> services -> storage, engine,
effects.

A move's effects, in order: each audience's view pushed (``broadcast.game_changed``), then the
next bot move scheduled, then turn notices of turn-based games queued; the parsed state kept
for the game's next move last, once nothing reads it any more. The move is committed whatever
happens here: a push lost to an outage is made good when the client resyncs, a task that
cannot be queued by the deadline sweep.
"""

import logging

from django.conf import settings

from games import bot_turns, broadcast, clocks, engine
from games.models import Game, Table
from games.signals import game_finished
from games.storage import parsed_states
from ttr_site.jobs import BROKER_ERRORS, enqueue

log = logging.getLogger(__name__)

# bot levels that search for a second or more per move: played by Celery only (schedule_bots)
SEARCHING_LEVELS = frozenset({"expert"})


def move_committed(game, table, seats, version, state, since, entries) -> None:
    """Push every audience its view, then queue bot moves and turn-based turn notices."""
    try:
        _announce(game, table, seats, version, state, since, entries)
    except BROKER_ERRORS as exc:
        log.warning("could not queue the tasks of game %s v%s: %r", game.pk, version, exc)
    if version == game.version and not engine.is_terminal(state):
        parsed_states.keep(game, state, table, seats)  # the pushes are done with them


def _announce(game, table, seats, version, state, since, entries) -> None:
    clock = clocks.clock_summary(table, game, seats.values())
    running = table.status == Table.Status.PLAYING
    # Bots' seats (their own, or handed over) have no holder: nobody may watch their view.
    holders = {p: s.user_id for p, s in seats.items() if s.user_id is not None and not s.is_bot}
    broadcast.game_changed(
        table.pk, version, state, since, entries, clock, holders=holders, running=running
    )
    if engine.is_terminal(state) or not running:
        return
    bots = {p for p, s in seats.items() if s.is_bot}
    searching = {p for p in bots if seats[p].bot_level in SEARCHING_LEVELS}
    schedule_bots(game.pk, version, state, bots=bots, searching=searching)
    # No timeout task per move: the deadline is on the row and the sweep (every second)
    # resolves it; a task per move almost never fired and cost the worker more than the bots.
    humans = [p for p in engine.current_seats(state) if not seats[p].is_bot]
    if humans and table.time_control != clocks.REALTIME:
        enqueue("games.tasks.notify_turn", table.pk, version, humans)


def schedule_bots(
    game_id: int, version: int, state, *, bots: set[int], searching: frozenset | set = frozenset()
) -> None:
    """If a bot (one of the positions ``bots``) decides now, have it play after a watchable
    delay (``BOT_MOVE_DELAY``). Where it plays: in this web process when the move was
    committed by one of its threads (``bot_turns.schedule`` sets a timer on its event loop),
    else, from a Celery task, the sweep or a command, by Celery. A searching bot (positions
    ``searching``: the expert, up to a second or two of CPU per move) always plays in Celery:
    in a web process it would hold the interpreter from the sockets of every table there."""
    deciding = engine.current_seats(state)
    if engine.is_terminal(state) or not bots.intersection(deciding):
        return
    heavy = bool(searching.intersection(deciding))
    if heavy or not bot_turns.schedule(game_id, version, settings.BOT_MOVE_DELAY):
        enqueue("games.tasks.bot_move", game_id, version, countdown=settings.BOT_MOVE_DELAY)


def game_over(table_id: int, result: dict, abandoned: list[int]) -> None:
    """The game ended: the lobby drops the table, and its listeners (ratings, tournaments)
    hear of the result (``games.signals.game_finished``)."""
    broadcast.lobby_changed(table_id)
    game_finished.send(sender=Game, table_id=table_id, result=result, abandoned=abandoned)
