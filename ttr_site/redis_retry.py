"""How the site's Redis clients meet a connection that died under them (a Redis restart).

A web process keeps its connections to Redis open (the cache's pool, the channel layer's
pub/sub connection). After Redis restarts, each is dead until used; redis-py's defaults let
the first command on one fail, and that was a WebSocket refused once per web process (the
presence count in the cache, the group subscription in the channel layer), found by
``tests/reliability/test_redis_restart.py``. With these options a command met by a dead
connection reconnects and is sent again, a few times within about a second; a Redis still
down fails as before (an outage, ``ttr_site/outages.py``).

Imported by the settings: no Django here.
"""

from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError, TimeoutError
from redis.retry import Retry

ATTEMPTS = 3  # after the first: 50, 100 and 200 ms apart
ERRORS = (ConnectionError, TimeoutError)


def _backoff() -> ExponentialBackoff:
    return ExponentialBackoff(cap=0.5, base=0.05)


def cache_options() -> dict:
    """``OPTIONS`` of the Redis cache (passed to redis-py's connection pool)."""
    return {"retry": Retry(_backoff(), ATTEMPTS, ERRORS), "retry_on_error": list(ERRORS)}


def layer_host(url: str) -> dict:
    """A ``hosts`` entry of the channels_redis layer (its asyncio pool)."""
    retry = AsyncRetry(_backoff(), ATTEMPTS, ERRORS)
    return {"address": url, "retry": retry, "retry_on_error": list(ERRORS)}


def publish_options() -> dict:
    """The push client's (``ttr_site/layer.py``): it retries a dead connection, never a
    timeout, so that a Redis that stops answering costs a committing thread one timeout."""
    return {"retry": Retry(_backoff(), ATTEMPTS, (ConnectionError,)),
            "retry_on_error": [ConnectionError]}  # fmt: skip
