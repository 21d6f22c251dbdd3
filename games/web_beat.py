"""A web process's liveness beat, and its ASGI lifespan.

While it serves, each web process writes its beat (``services.web_beat``, a row per process
in PostgreSQL, the store every move needs) every ``WEB_BEAT_SECONDS``; a graceful shutdown
(SIGTERM in a deploy) records that it stopped. The deadline sweep times no human seat out
while no web process is alive, and gives the time back when one returns
(``games.services.clock_outages``). One process among several going down is no outage: the
others serve, and the clients reconnect to them.
"""

import asyncio
import contextlib
import logging

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection

from games import bot_turns
from games.services import clock_outages
from ttr_site import pools

log = logging.getLogger(__name__)
_task: asyncio.Task | None = None


def _in_own_thread(function):
    """``function`` run in a thread of its own: a beat never waits behind a page or a move
    (nor they behind a beat waiting for the database)."""
    return database_sync_to_async(
        function, thread_sensitive=False, executor=pools.pool("web-beat", 1)
    )


async def _beat_forever(name: str) -> None:
    beat = _in_own_thread(clock_outages.web_beat)
    while True:
        try:
            await beat(name=name)
        except Exception as exc:  # the database unreachable: beat again in a moment
            log.debug("web beat failed: %r", exc)
        await asyncio.sleep(settings.WEB_BEAT_SECONDS)


def start() -> None:
    """Start this process's beat (at the lifespan's start-up)."""
    global _task
    # Embedded mode serves, sweeps and plays in one process: when it is down, so is the sweep,
    # and the sweep's own heartbeat finds the outage.
    if _task is None and not settings.EMBEDDED:
        _task = asyncio.ensure_future(_beat_forever(clock_outages.web_process_name()))


async def stop() -> None:
    """Stop the beat and record that this process serves nobody from now on."""
    global _task
    if _task is None:
        return  # never started (embedded mode)
    _task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await _task
    _task = None
    try:
        await _in_own_thread(_stopped)(clock_outages.web_process_name())
    except Exception as exc:  # its beat goes stale instead, a few seconds later
        log.warning("could not record this web process stopping: %r", exc)


def _stopped(name: str) -> None:
    try:
        clock_outages.web_stopped(name=name)
    finally:
        connection.close()  # the beat's thread is done with the database


async def lifespan(scope, receive, send) -> None:
    """ASGI lifespan: the beat from start-up; at shutdown the beat stops (recorded) and the
    bot moves waiting here go to Celery (``bot_turns.lifespan``)."""

    async def received():
        message = await receive()
        if message["type"] == "lifespan.startup":
            start()
        elif message["type"] == "lifespan.shutdown":
            await stop()
        return message

    await bot_turns.lifespan(scope, received, send)
