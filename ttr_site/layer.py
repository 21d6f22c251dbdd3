"""Channel-layer sends from synchronous code: services after commit, Celery tasks.

``async_to_sync`` runs a send on the web server's event loop when it is called from a thread
that ``sync_to_async`` started, but anywhere else (a Celery task) it makes a new thread and a
new event loop for every call, and the Redis channel layer, which keeps its connections per
loop, opens a new Redis connection each time: measured at about half the CPU of a bot's
move (benchmarks/load.py). With Redis (production mode) every send of a process therefore
goes to one event loop kept in a daemon thread of that process (made again after a fork),
whose connection is reused. Embedded mode keeps ``async_to_sync``: its in-memory layer
hands sends to the web server's loop anyway.
"""

import asyncio
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None


def group_send_all(messages: list[tuple[str, dict]]) -> None:
    """Send each ``(group, message)``, in this order; return when all are sent."""
    if settings.EMBEDDED:
        async_to_sync(_send_all)(messages)
    else:
        asyncio.run_coroutine_threadsafe(_send_all(messages), _sender_loop()).result()


async def _send_all(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    for group, message in messages:
        await layer.group_send(group, message)


def _sender_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid():
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            thread = threading.Thread(target=_loop.run_forever, name="channel-layer", daemon=True)
            thread.start()
        return _loop
