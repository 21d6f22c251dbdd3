"""The per-process fan-out of view pushes (``ttr_site/fanout.py``) against the real Redis: one
subscription per view group however many sockets share it, dropped with the last one, and a
connection that Redis closes under the reader is made again, so the sockets still open keep
getting their moves' views without asking."""

import asyncio
import gc

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.conf import settings

from games import broadcast, engine, services
from games.models import Game
from tests.games.test_table_socket import is_view, receive_until, socket
from ttr_site import fanout

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def _subscribers(group: str) -> int:
    """How many connections Redis has subscribed to the group's fan-out channel."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        return dict(client.pubsub_numsub(fanout.fanout_channel(group)))[
            fanout.fanout_channel(group).encode()
        ]
    finally:
        client.close()


def _move(table, cast) -> int:
    """The current seat makes its first legal move; return the new version."""
    game = Game.objects.get(table=table)
    state = engine.from_json(game.state)
    seat = engine.current_seats(state)[0]
    user = cast["alice"] if seat == 0 else cast["bob"]
    services.game_submit_action(game_id=game.pk, user=user, expected_version=game.version,
                                action=engine.legal_actions(state, seat)[0])  # fmt: skip
    return game.version + 1


async def _until(predicate, timeout=5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await predicate():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.02)


def test_one_subscription_per_group_however_many_sockets(started, cast):
    group = broadcast.seat_group(started.pk, 0)
    count = database_sync_to_async(_subscribers)

    async def scenario():
        tabs = [socket(started.pk, cast["alice"]) for _ in range(3)]
        for tab in tabs:
            assert (await tab.connect())[0]
            await receive_until(tab, is_view(0))
        assert await count(group) == 1
        version = await database_sync_to_async(_move)(started, cast)
        for tab in tabs:  # each of alice's tabs gets the move's view, once
            await receive_until(tab, is_view(version))
        await tabs[0].disconnect()
        assert await count(group) == 1
        version = await database_sync_to_async(_move)(started, cast)
        for tab in tabs[1:]:
            await receive_until(tab, is_view(version))
        for tab in tabs[1:]:
            await tab.disconnect()
        await _until(lambda: _is(count(group), 0))

    async_to_sync(scenario)()


async def _is(awaitable, value) -> bool:
    return await awaitable == value


def _kill(address: str) -> int:
    """Close a client's connection from Redis's side, as a Redis restart does."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        return client.client_kill_filter(_type="pubsub", addr=address)
    finally:
        client.close()


def test_a_socket_keeps_getting_views_after_redis_drops_the_fan_out(started, cast):
    group = broadcast.seat_group(started.pk, 0)
    count = database_sync_to_async(_subscribers)

    async def scenario():
        alice = socket(started.pk, cast["alice"])
        assert (await alice.connect())[0]
        await receive_until(alice, is_view(0))
        # this loop's fan-out connection, and no other (the suite's other processes use Redis)
        host, port = fanout._hub().pubsub.connection._writer.get_extra_info("sockname")[:2]
        assert await database_sync_to_async(_kill)(f"{host}:{port}") == 1
        await _until(lambda: _is(count(group), 1))  # the reader subscribed again
        version = await database_sync_to_async(_move)(started, cast)
        frames = await receive_until(alice, is_view(version))
        assert not [f for f in frames if f["type"] == "error"]
        assert frames[-1]["seat"] == 0 and frames[-1]["log_start"] > 0  # a push, not a resync
        await alice.disconnect()

    async_to_sync(scenario)()


def test_a_socket_that_ended_without_leaving_is_not_kept():
    """A consumer that ends on an unexpected error never runs ``disconnect``: the hub holds
    its sockets weakly, so it does not keep one alive (nor push to it) after that."""

    class Member:
        channel_name = "x"
        pushed: list = []

        def fanout_push(self, group, message):
            self.pushed.append(message)

    async def scenario():
        hub = fanout._hub()
        member = Member()
        await fanout.join("fanout-test-gone", member)
        channel = fanout.fanout_channel("fanout-test-gone")
        assert list(hub.members[channel]) == [member]
        del member
        gc.collect()
        assert list(hub.members[channel]) == []
        hub._deliver(channel, fanout.pack({"type": "view.push", "version": 1, "text": "{}"}))
        assert Member.pushed == []

    async_to_sync(scenario)()
