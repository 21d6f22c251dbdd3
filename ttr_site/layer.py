"""Channel-layer sends from synchronous code: services after commit, Celery tasks.

With Redis (production mode) the channel layer is channels_redis's pub/sub layer, and a group
send is one Redis ``PUBLISH`` of the serialized message to the group's channel. Synchronous
code publishes the messages of one move itself: one pipeline, one round trip, from the calling
thread, through a connection pool of this process (redis-py's pools are thread-safe and made
again after a fork), using the layer's own serializer and channel names.

Measured with ``benchmarks/load.py``: every send used to go through ``async_to_sync``, then
through one event loop kept in a thread of the process, where the layer sends one message at a
time under a lock. Under load that thread and the GIL it needed for each reply became the
queue: all six threads making moves in a web process waited on it (``py-spy dump``), and a
player's move took 0.8 s (p50) to come back with 20% of the CPU idle.

A view push (a message whose type is in ``ttr_site.fanout.FANOUT_TYPES``) goes to its group's
fan-out channel instead, in the same pipeline: each web process hands it to its own sockets
without the channel layer's per-socket dispatch (``ttr_site/fanout.py``).

Embedded mode keeps ``async_to_sync``: its in-memory layer hands sends to the web server's
loop anyway (and carries the view pushes too: there is no fan-out without Redis).
"""

import threading

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.utils import _consistent_hash, decode_hosts
from django.conf import settings

from ttr_site import fanout, redis_retry

PUBLISH_TIMEOUT = 5  # seconds
_lock = threading.Lock()
_clients: list[redis.Redis] | None = None


def group_send_all(messages: list[tuple[str, dict]]) -> None:
    """Send each ``(group, message)``, in this order; return when all are sent."""
    if settings.EMBEDDED:
        async_to_sync(_send_all)(messages)
        return
    layer, clients = get_channel_layer(), _redis_clients()
    pipelines = {}
    for group, message in messages:
        if message["type"] in fanout.FANOUT_TYPES:  # one host: the fan-out's (see there)
            channel, index, data = fanout.fanout_channel(group), 0, fanout.pack(message)
        else:
            channel = group_channel(group)
            index = _consistent_hash(channel, len(clients))
            data = layer.serialize(message)
        if index not in pipelines:
            pipelines[index] = clients[index].pipeline(transaction=False)
        pipelines[index].publish(channel, data)
    for pipeline in pipelines.values():
        pipeline.execute()


def group_channel(group: str) -> str:
    """The pub/sub channel of ``group``, as channels_redis's pub/sub layer names it."""
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    return f"{prefix}__group__{group}"


async def _send_all(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    for group, message in messages:
        await layer.group_send(group, message)


def _redis_clients() -> list[redis.Redis]:
    """One client (with its pool) per host of the channel layer, made once per process."""
    global _clients
    with _lock:
        if _clients is None:
            hosts = decode_hosts(settings.CHANNEL_LAYERS["default"]["CONFIG"].get("hosts"))
            _clients = [_client(host) for host in hosts]
        return _clients


def _client(host: dict) -> redis.Redis:
    # A push is sent after its move has committed, from the thread that made it: a Redis that
    # stops answering must cost that thread seconds, not hang it (the push is logged as lost
    # and the client resyncs).
    host = {"socket_timeout": PUBLISH_TIMEOUT, "socket_connect_timeout": PUBLISH_TIMEOUT, **host}
    host |= redis_retry.publish_options()  # not the layer's asyncio retry: a client of its own
    if "address" in host:
        return redis.Redis.from_url(host.pop("address"), **host)
    return redis.Redis(**host)
