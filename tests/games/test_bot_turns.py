"""games.bot_turns: a bot's move is played by the web process whose thread made the move
before it, after BOT_MOVE_DELAY, on that process's event loop; elsewhere it goes to Celery,
and at a graceful shutdown the waiting ones are handed to Celery."""

import asyncio
import os
import sys
import threading
import time

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.db import connection

from games import bot_turns, services
from games.models import Game
from tests.games.moving import player_moves
from ttr_site import pools
from ttr_site.celery import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_bot_left_waiting(monkeypatch):
    # The loop's worker threads close their database connections after each call (as they
    # would keep them in a server), so none outlives the test database.
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)
    yield
    for handle in bot_turns._waiting.values():  # a later turn of the bot's, not under test
        handle.cancel()
    bot_turns._waiting.clear()


@pytest.fixture
def game(cast):
    """Alice (seat 0) against an easy bot (seat 1); both are keeping tickets (version 0)."""
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=60)
    services.table_add_bot(table_id=table.pk, by=cast["alice"], level="easy")
    return Game.objects.get(table=table)


def _version(game_id: int) -> int:
    return Game.objects.get(pk=game_id).version


def test_outside_a_web_process_the_move_goes_elsewhere():
    assert bot_turns.web_loop() is None
    assert bot_turns.schedule(1, 0, 0.1) is False


def _story(game_id: int) -> str:
    """What a failing wait shows: the game's steps, and the bot moves this process holds."""
    steps = Game.objects.get(pk=game_id).events.order_by("seq")
    told = [(e.seq, e.seat, e.by_bot, (e.action or {}).get("type")) for e in steps]
    return f"steps (seq, seat, by bot, action): {told}; waiting here: {list(bot_turns._waiting)}"


def _in_move_threads(fn):
    """``fn`` made as a socket makes a player's move: in the moves' pool (``pools.run_in``)."""
    from games.consumers import _move_threads

    async def call(*args):
        return await pools.run_in(_move_threads(), lambda: fn(*args))

    return call


@pytest.mark.parametrize(
    "handed", [_in_move_threads, database_sync_to_async], ids=["socket", "sync_to_async"]
)
def test_the_web_process_that_made_a_move_plays_the_bot_after_the_delay(
    game, cast, settings, handed
):
    settings.BOT_MOVE_DELAY = 0.2

    async def scenario():
        # A player's move, made in a thread of this event loop as a socket makes it (or a
        # view, or any other sync_to_async call).
        await handed(player_moves)(game, cast["alice"])  # keeps tickets
        after_alice = await database_sync_to_async(_version)(game.pk)
        started = time.monotonic()
        # The bound only ends a wait that would never end: the CI on a busy machine
        # once saw no move within 10 s (after stop 40), so it is wide; a failure tells its story.
        while await database_sync_to_async(_version)(game.pk) == after_alice:
            if time.monotonic() - started > 60:
                story = await database_sync_to_async(_story)(game.pk)
                raise AssertionError(f"the bot never moved after version {after_alice}: {story}")
            await asyncio.sleep(0.05)
        return after_alice

    after_alice = async_to_sync(scenario)()
    # No Celery worker runs in this test: the loop played the bot, and only once.
    alice, bot = game.events.get(seq=after_alice), game.events.get(seq=after_alice + 1)
    assert (bot.seat, bot.by_bot, bot.action["type"]) == (1, True, "keep_tickets")
    # It waited the delay after Alice's move was written (each event's time is taken as it is
    # written: a slow machine only lengthens the gap, so this holds however busy it is).
    assert (bot.created_at - alice.created_at).total_seconds() >= 0.2


def test_a_graceful_shutdown_hands_the_waiting_bot_moves_to_celery(game, cast, settings):
    settings.BOT_MOVE_DELAY = 600  # would wait ten minutes here
    queue = django_settings.CELERY_TASK_DEFAULT_QUEUE
    with celery_app.connection_for_read() as connection:
        connection.SimpleQueue(queue, no_ack=True).clear()

    async def scenario():
        await database_sync_to_async(player_moves)(game, cast["alice"])  # keeps tickets
        await asyncio.sleep(0.05)  # the scheduling reaches the loop
        assert len(bot_turns._waiting) == 1
        messages = []

        async def receive():
            return {"type": "lifespan.shutdown"}

        async def send(message):
            messages.append(message)

        await bot_turns.lifespan({"type": "lifespan"}, receive, send)
        return messages

    assert async_to_sync(scenario)() == [{"type": "lifespan.shutdown.complete"}]
    assert not bot_turns._waiting
    version = _version(game.pk)
    with celery_app.connection_for_read() as connection:
        message = connection.SimpleQueue(queue, no_ack=True).get(timeout=5)
    assert message.headers["task"] == "games.tasks.bot_move"
    assert message.payload[0] == [game.pk, version]  # queued for now, not in ten minutes
    assert message.headers.get("eta") is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice is Linux's")
def test_bot_moves_run_on_threads_of_lower_cpu_priority_than_players_moves(settings):
    """Under load the players' answers come first (README, Benchmarks): the bot-move threads
    run BOT_MOVE_NICE steps below the process; the players' move threads and the thread that
    asked are not lowered."""
    from games.consumers import _move_threads

    def nice() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    settings.BOT_MOVE_NICE = 7
    before = nice()
    assert bot_turns._pool().submit(nice).result() == min(before + 7, 19)
    assert _move_threads().submit(nice).result() == before
    assert nice() == before


def test_an_expert_bot_plays_in_celery_never_on_the_web_loop(cast, settings):
    """The expert searches for a second or more: on the web loop's threads it would hold the
    interpreter from every other table's sockets in that process (games.effects)."""
    settings.BOT_MOVE_DELAY = 0.2
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=60)
    services.table_add_bot(table_id=table.pk, by=cast["alice"], level="expert")
    game = Game.objects.get(table=table)
    queue = django_settings.CELERY_TASK_DEFAULT_QUEUE
    with celery_app.connection_for_read() as connection:
        connection.SimpleQueue(queue, no_ack=True).clear()

    async def scenario():
        await database_sync_to_async(player_moves)(game, cast["alice"])  # keeps tickets
        await asyncio.sleep(0.05)  # a web-loop bot move would be waiting by now
        return len(bot_turns._waiting)

    assert async_to_sync(scenario)() == 0
    version = _version(game.pk)
    with celery_app.connection_for_read() as connection:
        message = connection.SimpleQueue(queue, no_ack=True).get(timeout=5)
    assert message.headers["task"] == "games.tasks.bot_move"
    assert message.payload[0] == [game.pk, version]
