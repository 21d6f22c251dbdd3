"""Embedded mode: the whole site in one process, with no external server.

When ``REDIS_URL`` is unset (``make run`` on a machine with only Python), ``manage.py serve``
runs in one process:

* the ASGI web server (uvicorn) for HTTP and WebSockets, on the main thread's event loop;
* a Celery worker (thread pool) consuming Celery's in-memory broker (``memory://``);
* Celery beat, in a thread, sending the periodic tasks to that broker.

The tasks, services and consumers are the very same code as in production; only the transport
differs. Pushes to browsers go through ``ThreadSafeInMemoryChannelLayer``: Channels' in-memory
layer is bound to the event loop of the web server, so calls from worker threads (each with its
own loop under ``async_to_sync``) are handed over to that loop.
"""

import asyncio
import logging
import threading

from channels.layers import InMemoryChannelLayer

log = logging.getLogger(__name__)


class ThreadSafeInMemoryChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer, safe to call from any thread of this one process.

    Terms: the *home loop* is the event loop that receives messages (the web server's); every
    send and group change made from another loop is run on the home loop instead, because
    ``asyncio.Queue`` may only be touched from the loop that waits on it.
    """

    _home: asyncio.AbstractEventLoop | None = None

    async def _at_home(self, method, *args):
        loop = asyncio.get_running_loop()
        home = self._home
        if home is None or home is loop or home.is_closed() or not home.is_running():
            return await method(*args)
        future = asyncio.run_coroutine_threadsafe(method(*args), home)
        return await asyncio.wrap_future(future)

    async def receive(self, channel):
        self._home = asyncio.get_running_loop()
        return await super().receive(channel)

    async def send(self, channel, message):
        return await self._at_home(super().send, channel, message)

    async def group_add(self, group, channel):
        return await self._at_home(super().group_add, group, channel)

    async def group_discard(self, group, channel):
        return await self._at_home(super().group_discard, group, channel)

    async def group_send(self, group, message):
        return await self._at_home(super().group_send, group, message)


def start_background_work(*, concurrency: int = 4):
    """Start the Celery worker and beat inside this process; return a function that stops them."""
    from celery.beat import EmbeddedService
    from django.conf import settings

    from ttr_site.celery import app

    app.conf.worker_hijack_root_logger = False
    app.finalize()
    app.set_current()
    app.set_default()
    worker = app.WorkController(
        pool="threads",
        concurrency=concurrency,
        queues=[settings.CELERY_TASK_DEFAULT_QUEUE, settings.ANALYSIS_QUEUE],
        hostname="embedded@localhost",
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
    )
    worker_thread = threading.Thread(target=worker.start, name="celery-worker", daemon=True)
    worker_thread.start()
    beat = EmbeddedService(app, thread=True)
    beat.start()
    log.info("embedded Celery worker (%d threads) and beat started", concurrency)

    def stop():
        beat.stop()
        worker.stop(in_sighandler=False)

    return stop
