"""Caps on open WebSockets per user and per client address (issue 20), counted in the cache
(Redis in CI): a socket over a cap is told why and closed with 4429; closing one frees a
place; a forged X-Forwarded-For buys no more; a dead process's sockets stop counting."""

import json
import time

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from ttr_site import socket_quota
from ttr_site.routing import websocket_urlpatterns
from ttr_site.socket_quota import SocketQuotaMiddleware

pytestmark = pytest.mark.django_db(transaction=True)
APP = SocketQuotaMiddleware(URLRouter(websocket_urlpatterns))


def lobby_socket(user, address="203.0.113.7", forwarded=None):
    headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
    communicator = WebsocketCommunicator(APP, "/ws/lobby/", headers=headers)
    communicator.scope["user"] = user
    communicator.scope["client"] = (address, 40000)
    return communicator


async def refused(communicator) -> dict:
    """The frame a refused socket gets, after checking it is then closed with 4429."""
    connected, _ = await communicator.connect()
    assert connected  # accepted only to be told why
    frame = json.loads(await communicator.receive_from())
    closed = await communicator.receive_output()
    assert closed == {"type": "websocket.close", "code": 4429}
    return frame


def test_a_user_gets_at_most_their_cap_of_sockets_and_a_clear_refusal(cast, settings):
    settings.SOCKETS_PER_USER = 3

    async def scenario():
        open_ = [lobby_socket(cast["alice"], address=f"198.51.100.{i}") for i in range(3)]
        for communicator in open_:
            assert (await communicator.connect())[0]
        frame = await refused(lobby_socket(cast["alice"], address="198.51.100.99"))
        assert frame["type"] == "error" and frame["code"] == "too_many_sockets"
        assert "connections" in frame["message"]
        # Another user is not affected, and closing one socket frees a place.
        bob = lobby_socket(cast["bob"])
        assert (await bob.connect())[0]
        await open_.pop().disconnect()
        again = lobby_socket(cast["alice"])
        assert (await again.connect())[0]
        for communicator in [*open_, bob, again]:
            await communicator.disconnect()

    async_to_sync(scenario)()


def test_an_address_gets_at_most_its_cap_whatever_it_forwards(settings):
    settings.SOCKETS_PER_ADDRESS = 2
    settings.TRUSTED_PROXIES = []

    async def scenario():
        first = [lobby_socket(AnonymousUser(), forwarded=f"10.9.0.{i}") for i in range(2)]
        for communicator in first:
            assert (await communicator.connect())[0]
        frame = await refused(lobby_socket(AnonymousUser(), forwarded="10.9.0.77"))
        assert frame["code"] == "too_many_sockets"
        elsewhere = lobby_socket(AnonymousUser(), address="192.0.2.1")
        assert (await elsewhere.connect())[0]
        for communicator in [*first, elsewhere]:
            await communicator.disconnect()

    async_to_sync(scenario)()


def test_the_leases_of_a_process_that_died_lapse(cast, settings):
    settings.SOCKETS_PER_USER = 1
    keys = [(f"sockets:user:{cast['alice'].pk}", 1)]
    long_ago = time.time() - socket_quota.LEASE_SECONDS - 1
    # A socket of a process killed before it could give its lease back:
    assert socket_quota._store().take(keys, "ghost", long_ago)

    async def scenario():
        communicator = lobby_socket(cast["alice"])
        assert (await communicator.connect())[0]
        await communicator.disconnect()

    async_to_sync(scenario)()
