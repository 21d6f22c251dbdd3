"""The tournament page's socket (``/ws/tournament/<id>/``) over the configured channel layer
(Redis pub/sub in CI): changes are announced live (a ``standings`` frame, once the change's
snapshot is stored); bad frames get an error, not a drop."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from ladder import services
from ladder.models import Tournament
from ladder.routing import websocket_urlpatterns
from tests.ladder.factories import LeagueFactory, MembershipFactory, tournament

pytestmark = pytest.mark.django_db(transaction=True)
APP = URLRouter(websocket_urlpatterns)


def socket(tournament_id, user):
    communicator = WebsocketCommunicator(APP, f"/ws/tournament/{tournament_id}/")
    communicator.scope["user"] = user
    return communicator


def test_a_registration_is_announced_to_open_pages_and_bad_frames_get_errors(cast, eager_tasks):
    t = tournament(cast["alice"])

    async def scenario():
        watcher = socket(t.pk, AnonymousUser())
        assert (await watcher.connect())[0]
        await database_sync_to_async(services.tournament_register)(
            tournament_id=t.pk, user=cast["bob"]
        )
        # One frame per change, sent by the snapshot's rebuild (nothing at the commit itself,
        # which would double what thousands of spectators receive).
        frame = json.loads(await watcher.receive_from(timeout=5))
        version = await database_sync_to_async(lambda: Tournament.objects.get(pk=t.pk).version)()
        assert (frame["type"], frame["v"]) == ("standings", version)
        assert await watcher.receive_nothing(timeout=0.5)
        for bad in ["not json", json.dumps([1]), json.dumps({"type": "action"}), "x" * 20_000]:
            await watcher.send_to(text_data=bad)
            error = json.loads(await watcher.receive_from(timeout=5))
            assert error["type"] == "error" and error["code"] == "malformed_message"
        await watcher.send_to(text_data=json.dumps({"type": "ping"}))
        assert json.loads(await watcher.receive_from(timeout=5)) == {"type": "pong"}
        await watcher.disconnect()

    async_to_sync(scenario)()


def test_a_private_leagues_tournament_refuses_outsiders(cast):
    league = LeagueFactory(is_private=True)
    MembershipFactory(league=league, user=cast["alice"], role="admin")
    t = tournament(cast["alice"], league=league)

    async def scenario():
        outsider = socket(t.pk, cast["bob"])
        assert await outsider.connect() == (False, 4404)
        member = socket(t.pk, cast["alice"])
        assert (await member.connect())[0]
        await member.disconnect()
        assert (await socket(999_999, cast["alice"]).connect()) == (False, 4404)

    async_to_sync(scenario)()
