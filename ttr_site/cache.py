"""The site's Redis cache: Django's backend, with one client (one connection pool) per process.

Django keeps a cache backend instance per thread and, under ASGI, per async context
(``django.core.cache.caches`` is an asgiref ``Local``), and each instance makes its own
``RedisCacheClient`` with its own connection pool. Every WebSocket runs in an asyncio task of
its own, so every socket that touched the cache (its quota lease, its presence, the action
rate limit) opened a Redis connection of its own and held it as long as the socket lived, and
after it until a garbage collection freed the instance. Measured with
``benchmarks/idle_sockets.py``: 1,000 open sockets held 1,000 more connections to Redis
(2,034 open files in the web process, 1,034 still open after the sockets closed), and 10,000
reached the process's limit of 20,000 open files (Redis's own default ``maxclients`` is
10,000). Django's issue: https://github.com/django/django/pull/18459.

The client is safe to share between threads (redis-py's pools are; a pool is made again in a
forked child), so every instance of this backend in a process uses one per configuration.
For the same reason it hands out one ``redis.Redis`` per server: Django's ``get_client``
builds a new one on every cache call, with its table of a few hundred reply parsers, and
that was most of the CPU of the action rate limit, which every game move pays
(``benchmarks/move_path.py`` under cProfile).
"""

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_lock = threading.Lock()
_clients: dict[tuple, object] = {}


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's client, reusing one ``redis.Redis`` (and so one pool) per server."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._redis_by_pool: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._redis_by_pool.get(id(pool))
        if client is None:
            client = self._redis_by_pool.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class SharedRedisCache(RedisCache):
    """``RedisCache`` whose instances in one process share one client and its pools."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
