"""The notification WebSocket, over the configured channel layer (Redis pub/sub in CI)."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from ttr_site.accounts.consumers import NotificationConsumer
from ttr_site.accounts.push import push_to_user

pytestmark = pytest.mark.django_db(transaction=True)


def communicator_for(user):
    communicator = WebsocketCommunicator(NotificationConsumer.as_asgi(), "/ws/notifications/")
    communicator.scope["user"] = user
    return communicator


async def _nothing_arrives(communicator):
    return await communicator.receive_nothing(timeout=0.3)


def test_an_anonymous_visitor_is_refused():
    async def scenario():
        communicator = communicator_for(AnonymousUser())
        connected, code = await communicator.connect()
        assert (connected, code) == (False, 4401)

    async_to_sync(scenario)()


def test_each_player_hears_only_their_own_pushes(cast):
    alice, bob = cast["alice"], cast["bob"]

    async def scenario():
        a, b = communicator_for(alice), communicator_for(bob)
        assert (await a.connect())[0] and (await b.connect())[0]
        await asyncio.get_running_loop().run_in_executor(
            None, push_to_user, alice.pk, {"kind": "notification", "text": "for alice"}
        )
        assert await a.receive_json_from(timeout=5) == {"kind": "notification", "text": "for alice"}
        assert await _nothing_arrives(b)
        await a.disconnect()
        await b.disconnect()

    async_to_sync(scenario)()


def test_a_malformed_frame_gets_an_error_and_the_socket_stays_open(cast):
    async def scenario():
        c = communicator_for(cast["carol"])
        assert (await c.connect())[0]
        await c.send_to(text_data="{not json")
        error = await c.receive_json_from(timeout=5)
        assert error["kind"] == "error" and error["code"] == "push_only"
        await c.send_to(bytes_data=b"\x00\xff")
        assert (await c.receive_json_from(timeout=5))["kind"] == "error"
        await asyncio.get_running_loop().run_in_executor(
            None, push_to_user, cast["carol"].pk, {"kind": "notification", "text": "still here"}
        )
        assert (await c.receive_json_from(timeout=5))["text"] == "still here"
        await c.disconnect()

    async_to_sync(scenario)()
