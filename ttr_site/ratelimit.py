"""Rate limits counted in the cache: LocMem in embedded mode, Redis in production, so a
limit holds across every web process of a deployment.

A limit is *n events per window of w seconds* per key, counted in fixed windows: the first
event of a key starts its window, which expires after ``w`` seconds with its count. (A burst
straddling two windows can reach 2n; for flood protection that is close enough, and it costs
one cache increment per event: on Redis one round trip, an INCR and an EXPIRE NX in a
pipeline, where Django's ``add`` and ``incr`` take three, and every game action pays it.)
The pipeline stays a transaction (MULTI/EXEC): without it a connection lost between the two
commands could leave a count with no expiry, and that user limited for good. The client is
made once per process (``ttr_site.cache``).
"""

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache


def rate_limit_hit(key: str, limit: int, window: int) -> bool:
    """Count one event for ``key``; False when it is beyond ``limit`` in the current window."""
    key = f"rate:{key}"
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        return _redis_count(backend, key, window) <= limit
    cache.add(key, 0, timeout=window)
    try:
        count = cache.incr(key)
    except ValueError:  # the window expired between add and incr
        cache.set(key, count := 1, timeout=window)
    return count <= limit


def _redis_count(backend: RedisCache, key: str, window: int) -> int:
    key = backend.make_and_validate_key(key)
    pipeline = backend._cache.get_client(key, write=True).pipeline(transaction=True)
    pipeline.incr(key)
    pipeline.expire(key, window, nx=True)  # the first event of a window starts its clock
    count, _ = pipeline.execute()
    return count
