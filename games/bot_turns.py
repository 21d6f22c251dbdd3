"""Bot moves played by the web process that made the move before them.

A bot's move used to be a Celery task for every move. Measured with ``benchmarks/load.py``
(200 tables, 2 bots each), queueing it cost the web process about 1.2 ms of CPU per move and
the worker as much again as the move itself, and a bot's turn waited 1.6 s (p50) in the
queue. When the move before the bot's was committed by a web server thread (one its process's
event loop handed the call: ``ttr_site.pools.run_in`` or asgiref's ``SyncToAsync``, so it knows
that loop), that loop now waits
``BOT_MOVE_DELAY`` and plays the bot in its thread pool. Anywhere else (a Celery task, the
deadline sweep, a command, a test without a loop) the move goes to Celery as before.

Nothing is lost with the process: a bot move that never ran (the process was killed) leaves
the game's deadline in place, and the sweep plays it after ``BOT_STALL_SECONDS``; a graceful
shutdown hands the waiting moves to Celery at once (``lifespan``). A move that runs twice, or
after another, does nothing: ``game_bot_move`` checks the version, and writes only if it is
still the one it read.
"""

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings

from ttr_site import pools
from ttr_site.jobs import BROKER_ERRORS, enqueue

log = logging.getLogger(__name__)

# The use case that plays a bot's move (``games.services.game_bot_move``), given at start-up by
# ``GamesConfig.ready``: this module only schedules, so the imports run one way (the services'
# effects call ``schedule``; nothing here imports the services or the tasks).
_play_move = None


def set_player(play) -> None:
    global _play_move
    _play_move = play


# (game id, version) -> the timer of a bot move waiting for its delay. Only the event loop
# touches these, so no lock is needed.
_waiting: dict[tuple[int, int], asyncio.TimerHandle] = {}
_running: set[asyncio.Task] = set()


def web_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop of this web process, if the calling thread was handed its work
    by it (a move by ``ttr_site.pools.run_in``, any other call by ``sync_to_async``)."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(local, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def schedule(game_id: int, version: int, delay: float) -> bool:
    """Play the bot's move at ``version`` after ``delay`` seconds in this web process, if the
    caller runs in one; ``False`` means the caller must queue it elsewhere."""
    loop = web_loop()
    if loop is None:
        return False
    loop.call_soon_threadsafe(_wait, loop, (game_id, version), delay)
    return True


def _wait(loop: asyncio.AbstractEventLoop, key: tuple[int, int], delay: float) -> None:
    if key not in _waiting:
        _waiting[key] = loop.call_later(delay, _start, key)


def _start(key: tuple[int, int]) -> None:
    _waiting.pop(key, None)
    task = asyncio.ensure_future(_play(*key))
    _running.add(task)
    task.add_done_callback(_running.discard)


async def _play(game_id: int, version: int) -> None:
    try:
        # In the bots' own threads, not the one shared database thread: like a player's move,
        # a bot's waits on the database for most of its time and must not hold up the other
        # sockets of this process.
        await pools.run_in(_pool(), _play_move, game_id=game_id, expected_version=version)
    except Exception:
        # The database or Redis went away mid-move: nothing was committed. Celery retries
        # with backoff (and the sweep is behind it).
        log.warning("bot move for game %s v%s failed here; queued", game_id, version, exc_info=1)
        await sync_to_async(_queue, thread_sensitive=False)([(game_id, version)])


def _pool() -> ThreadPoolExecutor:
    """This process's threads for bot moves: not those of the players' own moves
    (``games.consumers``), where under load a player's move queued behind the bots', while a
    player waits for the answer to their own click and a bot's turn is a wait anyway
    (``BOT_MOVE_DELAY``)."""
    return pools.pool("bot-move", settings.BOT_MOVE_THREADS, nice=settings.BOT_MOVE_NICE)


def _queue(moves: list[tuple[int, int]]) -> None:
    for game_id, version in moves:
        try:
            enqueue("games.tasks.bot_move", game_id, version)
        except BROKER_ERRORS as exc:  # the sweep plays it after BOT_STALL_SECONDS
            log.warning("could not queue bot move %s v%s: %r", game_id, version, exc)


async def hand_over() -> int:
    """Give every bot move still waiting here to Celery (the process is stopping)."""
    moves = list(_waiting)
    for key in moves:
        _waiting.pop(key).cancel()
    if moves:
        await sync_to_async(_queue, thread_sensitive=False)(moves)  # the broker, no database
    return len(moves)


async def lifespan(scope, receive, send) -> None:
    """ASGI lifespan: at shutdown, the waiting bot moves go to Celery."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            handed = await hand_over()
            if handed:
                log.info("handed %d waiting bot move(s) to Celery", handed)
            await send({"type": "lifespan.shutdown.complete"})
            return
