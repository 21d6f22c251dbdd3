"""Per-process fan-out of view pushes: one Redis subscription per web process, no per-socket
dispatch.

A move pushes each audience of its table one encoded view (``games.broadcast.game_changed``).
Through Channels every such message went, in each web process, through the channel layer's
per-consumer machinery: a queue per socket, the message deserialized again for every socket,
a new task and an ``asyncio.wait`` per message in the consumer's dispatch loop, the consumer's
``dispatch``. ``benchmarks/load.py`` measured that socket path (the bare Channels broadcast) at
more than half of a move's web CPU. Here the view groups skip it:

- The publisher (``ttr_site.layer.group_send_all``) sends a message whose type is in
  ``FANOUT_TYPES`` to ``fanout_channel(group)`` as plain msgpack, in the same pipeline as the
  move's other pushes (one round trip per move, as before).
- Each event loop of a web process has one ``Hub``: one Redis pub/sub connection, subscribed
  to the channel of every view group one of its sockets is in (``join``/``leave``: subscribed
  with the first socket, unsubscribed with the last). Its reader unpacks a message once and
  hands it to each local socket of the group, calling ``member.fanout_push(group, message)``,
  a plain method that queues it on the socket (``games.consumers.TableConsumer``): a slow
  socket delays nobody else.
- A dead connection (Redis restarted) is made again when the reader next reads, subscribed to
  every group again; pushes published meanwhile are lost, as with Channels, and the clients
  resync (``ping``/``pong`` versions, see ``games.broadcast``).

Embedded mode (``make run``: no Redis, an in-memory channel layer) has no hub: ``join`` and
``leave`` are the channel layer's ``group_add``/``group_discard`` and the pushes arrive as
Channels messages, as before.

One Redis host (the site's ``REDIS_URL``): the channel layer's first host.
"""

import asyncio
import contextlib
import logging
import types
import weakref

import msgpack
from channels.layers import get_channel_layer
from channels_redis.utils import _close_redis, create_pool, decode_hosts
from django.conf import settings
from redis import asyncio as aioredis

log = logging.getLogger(__name__)

FANOUT_TYPES = frozenset({"view.push"})
READ_TIMEOUT = 1.0  # seconds a reader waits for a message before looking again
RETRY_SECONDS = (0.05, 0.1, 0.2, 0.5, 1.0)  # between reconnects; the last one repeats


def fanout_channel(group: str) -> str:
    """The Redis channel of a view group's pushes (beside the channel layer's own names)."""
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    return f"{prefix}__fanout__{group}"


def pack(message: dict) -> bytes:
    return msgpack.packb(message, use_bin_type=True)


def enabled() -> bool:
    return not settings.EMBEDDED


async def join(group: str, member) -> None:
    """Deliver ``group``'s view pushes to ``member`` (a consumer) from now on: when this
    returns, a push published after it reaches the member."""
    if enabled():
        await _hub().join(group, member)
    else:
        await get_channel_layer().group_add(group, member.channel_name)


async def leave(group: str, member) -> None:
    if enabled():
        await _hub().leave(group, member)
    else:
        await get_channel_layer().group_discard(group, member.channel_name)


class Hub:
    """The view groups of one event loop's sockets, and the one connection that reads them."""

    def __init__(self) -> None:
        # fan-out channel -> the sockets in its group, held weakly: a socket whose consumer
        # ended without its ``disconnect`` (an unexpected error) is not kept alive here; its
        # channel stays subscribed, unused, until the group's next socket leaves
        self.members: dict[str, weakref.WeakSet] = {}
        self.groups: dict[str, str] = {}  # fan-out channel -> group name
        self.lock = asyncio.Lock()
        host = decode_hosts(settings.CHANNEL_LAYERS["default"]["CONFIG"].get("hosts"))[0]
        self.redis = aioredis.Redis(connection_pool=create_pool(host))
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.reader: asyncio.Task | None = None

    async def join(self, group: str, member) -> None:
        channel = fanout_channel(group)
        async with self.lock:
            members = self.members.get(channel)
            if members is None:
                await self.pubsub.subscribe(channel)
                members = self.members[channel] = weakref.WeakSet()
                self.groups[channel] = group
                if self.reader is None:
                    self.reader = asyncio.ensure_future(self._read())
            members.add(member)

    async def leave(self, group: str, member) -> None:
        channel = fanout_channel(group)
        async with self.lock:
            members = self.members.get(channel)
            if members is None or member not in members:
                return
            members.discard(member)
            if not members:
                del self.members[channel], self.groups[channel]
                try:
                    await self.pubsub.unsubscribe(channel)
                except (OSError, aioredis.RedisError) as exc:
                    # Redis is down: the reconnect may subscribe to the channel again, and
                    # its pushes are then dropped here (``_deliver``: no sockets)
                    log.info("could not unsubscribe %s: %r", channel, exc)

    async def _read(self) -> None:
        """Hand each message to its group's sockets, for as long as the loop runs. A dead
        connection is made again by redis-py when the next read needs it, subscribed to the
        same channels (``PubSub.on_connect``); while Redis stays down, each try fails and the
        next waits a little longer."""
        failures = 0
        while True:
            try:
                message = await self.pubsub.get_message(timeout=READ_TIMEOUT)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not failures:
                    log.warning("view fan-out lost Redis (%r); reconnecting", exc)
                await asyncio.sleep(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
                failures += 1
                continue
            if failures:
                log.warning("view fan-out reconnected to Redis (%d groups)", len(self.members))
                failures = 0
            if message is not None and message.get("type") == "message":
                self._deliver(message["channel"], message["data"])

    def _deliver(self, channel, data: bytes) -> None:
        if isinstance(channel, bytes):
            channel = channel.decode()
        members = self.members.get(channel)
        if not members:
            return
        message = msgpack.unpackb(data, raw=False)
        group = self.groups[channel]
        for member in tuple(members):
            try:
                member.fanout_push(group, message)
            except Exception:
                log.exception("a view push could not be queued to a socket")

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader
        try:
            await self.pubsub.aclose()
        finally:
            await _close_redis(self.redis)


# one hub per event loop (a web process has one; tests run several loops one after another)
_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub]" = weakref.WeakKeyDictionary()


def _hub() -> Hub:
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = Hub()
        _close_with(loop, hub)
    return hub


def _close_with(loop: asyncio.AbstractEventLoop, hub: Hub) -> None:
    """Close the hub's connection and reader when its loop closes (as channels_redis does
    for its layer), so that no task or socket is left behind by a loop that ends."""
    original = loop.close

    def close(self, *args, **kwargs):
        if _hubs.get(loop) is hub:
            del _hubs[loop]
            if not loop.is_running():
                loop.run_until_complete(hub.close())
        self.close = original
        return original(*args, **kwargs)

    loop.close = types.MethodType(close, loop)  # type: ignore[method-assign]
