"""Caps on open WebSockets: at most ``SOCKETS_PER_USER`` per signed-in user and
``SOCKETS_PER_ADDRESS`` per client address (``ttr_site.client_address``), across every web
process of a deployment (issue 20: 500 sockets from one user were accepted, and a ``sync``
flood from 40 raised another player's worst latency from 29 ms to 1.26 s).

Each open socket holds a *lease* in one sorted set per user and per address (Redis in
production, this process's memory in embedded mode), scored by when it expires. A process
renews the leases of its open sockets every ``LEASE_SECONDS / 3`` in one round trip, and a
socket gives its lease back when it closes; a process that dies without closing its sockets
stops renewing, so their leases lapse within ``LEASE_SECONDS`` instead of counting forever.

A socket over a cap is accepted only to be told why: an ``error`` frame (``too_many_sockets``)
and close code 4429. If Redis cannot be reached the socket is let through (the cap is abuse
protection; an outage must not lock every player out) and the outage is logged.
"""

import asyncio
import logging
import threading
import time
import uuid

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from redis.exceptions import RedisError

from ttr_site.client_address import client_address, rate_limit_ident
from ttr_site.i18n import scope_language

log = logging.getLogger(__name__)
LEASE_SECONDS = 120
REFUSED_CODE = 4429
REFUSED_MESSAGE = _("Too many open connections: close some of this site's tabs and reload.")


def _keys(scope) -> list[tuple[str, int]]:
    """The sorted sets a socket of ``scope`` counts in, each with its cap."""
    address = rate_limit_ident(client_address(scope))
    keys = [(f"sockets:addr:{address}", settings.SOCKETS_PER_ADDRESS)]
    user = scope.get("user")
    if getattr(user, "is_authenticated", False):
        keys.append((f"sockets:user:{user.pk}", settings.SOCKETS_PER_USER))
    return keys


class _MemoryLeases:
    """Embedded mode (one process): the same sorted sets as dicts."""

    def __init__(self):
        self.sets: dict[str, dict[str, float]] = {}
        self.lock = threading.Lock()

    def take(self, keys, member: str, now: float) -> bool:
        with self.lock:
            for key, limit in keys:
                live = {m: t for m, t in self.sets.get(key, {}).items() if t > now}
                if len(live) >= limit:
                    return False
                self.sets[key] = live
            for key, _limit in keys:
                self.sets[key][member] = now + LEASE_SECONDS
        return True

    def give_back(self, keys, member: str) -> None:
        with self.lock:
            for key in keys:
                self.sets.get(key, {}).pop(member, None)

    def renew(self, leases: dict[str, list[str]], now: float) -> None:
        with self.lock:
            for member, keys in leases.items():
                for key in keys:
                    if member in self.sets.get(key, {}):
                        self.sets[key][member] = now + LEASE_SECONDS


class _RedisLeases:
    def __init__(self, backend: RedisCache):
        self.backend = backend

    def _client(self, key: str):
        return self.backend._cache.get_client(key, write=True)

    def take(self, keys, member: str, now: float) -> bool:
        names = [self.backend.make_and_validate_key(key) for key, _limit in keys]
        pipeline = self._client(names[0]).pipeline(transaction=True)
        for name in names:
            pipeline.zremrangebyscore(name, 0, now)
            pipeline.zadd(name, {member: now + LEASE_SECONDS})
            pipeline.zcard(name)
            pipeline.expire(name, LEASE_SECONDS)
        counts = pipeline.execute()[2::4]
        # Add first, then count: two sockets racing for the last place both see the other,
        # so neither slips past the cap (at worst both are refused).
        if all(count <= limit for count, (_key, limit) in zip(counts, keys, strict=True)):
            return True
        self.give_back([key for key, _limit in keys], member)
        return False

    def give_back(self, keys, member: str) -> None:
        names = [self.backend.make_and_validate_key(key) for key in keys]
        pipeline = self._client(names[0]).pipeline(transaction=False)
        for name in names:
            pipeline.zrem(name, member)
        pipeline.execute()

    def renew(self, leases: dict[str, list[str]], now: float) -> None:
        if not leases:
            return
        pipeline = None
        for member, keys in leases.items():
            for key in keys:
                name = self.backend.make_and_validate_key(key)
                pipeline = pipeline or self._client(name).pipeline(transaction=False)
                pipeline.zadd(name, {member: now + LEASE_SECONDS}, xx=True)
                pipeline.expire(name, LEASE_SECONDS)
        pipeline.execute()


def _store():
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        return _RedisLeases(backend)
    global _memory
    _memory = _memory or _MemoryLeases()
    return _memory


_memory: _MemoryLeases | None = None
# This process's open sockets: lease member -> the keys it holds (renewed together).
_open: dict[str, list[str]] = {}
_renewers: set[asyncio.AbstractEventLoop] = set()


def _take(keys, member: str) -> bool:
    try:
        return _store().take(keys, member, time.time())
    except (RedisError, OSError) as exc:
        log.warning("socket caps not checked (Redis unreachable): %r", exc)
        return True


def _give_back(keys, member: str) -> None:
    try:
        _store().give_back(keys, member)
    except (RedisError, OSError) as exc:  # the lease lapses by itself
        log.warning("a socket's lease was not given back: %r", exc)


def _renew(leases: dict[str, list[str]]) -> None:
    try:
        _store().renew(leases, time.time())
    except (RedisError, OSError) as exc:
        log.warning("socket leases not renewed: %r", exc)


async def _renew_forever() -> None:
    while True:
        await asyncio.sleep(LEASE_SECONDS / 3)
        await sync_to_async(_renew, thread_sensitive=False)(dict(_open))


def _ensure_renewer() -> None:
    loop = asyncio.get_running_loop()
    if loop not in _renewers:
        _renewers.add(loop)
        loop.create_task(_renew_forever())


class SocketQuotaMiddleware:
    """ASGI middleware (inside the authentication middleware, so the user is known) that
    holds a lease for every WebSocket while its consumer runs, or refuses it with 4429."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        keys, member = _keys(scope), uuid.uuid4().hex
        if not await sync_to_async(_take, thread_sensitive=False)(keys, member):
            return await _refuse(scope, receive, send)
        _ensure_renewer()
        _open[member] = [key for key, _limit in keys]
        try:
            return await self.app(scope, receive, send)
        finally:
            held = _open.pop(member, [])
            await sync_to_async(_give_back, thread_sensitive=False)(held, member)


async def _refuse(scope, receive, send) -> None:
    """Accept only to say why, then close with ``REFUSED_CODE``."""
    from games.broadcast import encode

    message = await receive()
    if message["type"] != "websocket.connect":
        return
    with translation.override(scope_language(scope)):
        frame = {"type": "error", "code": "too_many_sockets", "message": str(REFUSED_MESSAGE)}
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": encode(frame)})
    await send({"type": "websocket.close", "code": REFUSED_CODE})
