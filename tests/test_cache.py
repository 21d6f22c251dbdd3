"""The Redis cache: every socket of a web process shares one client and its connection pool
(``ttr_site.cache``), instead of each holding a Redis connection of its own."""

import asyncio
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches

from ttr_site.ratelimit import rate_limit_hit

pytestmark = pytest.mark.skipif(
    settings.EMBEDDED, reason="the in-memory cache of embedded mode has no connections"
)


def _touch_cache() -> tuple[int, int]:
    """What a socket's work does (a lease, presence, a rate limit): use the cache, from a
    thread, as ``sync_to_async`` runs it. Returns its client and connection pool."""
    backend = caches["default"]
    backend.set("touched", 1, timeout=5)
    client = backend._cache
    return id(client), id(client._get_connection_pool(write=True))


async def _from_tasks(count: int) -> set:
    """``count`` asyncio tasks, as ``count`` sockets are, each using the cache."""

    async def one():
        return await sync_to_async(_touch_cache, thread_sensitive=False)()

    return set(await asyncio.gather(*(asyncio.create_task(one()) for _ in range(count))))


def test_sockets_of_a_process_share_one_redis_client_and_pool():
    used = asyncio.run(_from_tasks(20))
    assert len(used) == 1, f"{len(used)} clients/pools for 20 sockets"
    assert used == {_touch_cache()}  # and synchronous code (a request, a task) uses it too


def test_cache_calls_reuse_one_redis_client_across_threads():
    """Django builds a ``redis.Redis`` per cache call; ours hands out one per server."""
    client = caches["default"]._cache
    seen = [client.get_client(write=True), client.get_client(write=True), client.get_client()]
    other = threading.Thread(target=lambda: seen.append(caches["default"]._cache.get_client()))
    other.start()
    other.join()
    assert len({id(c) for c in seen}) == 1


def test_the_rate_limit_counts_in_redis_and_its_window_expires():
    backend = caches["default"]
    key = f"test-window-{id(backend)}"
    assert [rate_limit_hit(key, 2, 30) for _ in range(3)] == [True, True, False]
    redis_key = backend.make_and_validate_key(f"rate:{key}")
    raw = backend._cache.get_client(write=True)
    assert raw.get(redis_key) == b"3"
    assert 0 < raw.ttl(redis_key) <= 30  # the first hit started the window; later ones kept it
    raw.pexpire(redis_key, 1)
    time.sleep(0.05)
    assert rate_limit_hit(key, 2, 30)  # a new window
    assert raw.get(redis_key) == b"1"
    raw.delete(redis_key)
