"""Sockets speak the player's language too: the account's, else the switcher's cookie, else
the browser's. Refusals from the engine are told in it, and so are bot names."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from games import services
from games.models import Game
from games.reasons import REASON_MESSAGES
from games.routing import websocket_urlpatterns
from ttr_site.i18n import scope_language

pytestmark = pytest.mark.django_db(transaction=True)
APP = URLRouter(websocket_urlpatterns)


def scope(user=None, cookie="", accept=""):
    headers = [(b"cookie", cookie.encode()), (b"accept-language", accept.encode())]
    return {"user": user or AnonymousUser(), "headers": headers}


def test_the_language_follows_account_then_cookie_then_browser(cast):
    alice = cast["alice"]
    assert scope_language(scope(accept="nl-NL,nl;q=0.9")) == "nl"
    assert scope_language(scope(cookie="django_language=de", accept="nl")) == "de"
    assert scope_language(scope(accept="fr, *;q=0.1")) == "en"
    alice.language = "nl"
    assert scope_language(scope(alice, cookie="django_language=de", accept="de")) == "nl"


def test_an_illegal_move_and_the_bots_are_told_in_the_players_language(cast):
    alice = cast["alice"]
    alice.language = "de"
    alice.save(update_fields=["language"])
    table = services.table_create(owner=alice, seat_count=2)
    services.table_add_bot(table_id=table.pk, by=alice, level="easy")
    game = Game.objects.get(table=table)

    async def scenario():
        socket = WebsocketCommunicator(APP, f"/ws/table/{table.pk}/")
        socket.scope["user"] = alice
        assert (await socket.connect())[0]
        summary = json.loads(await socket.receive_from(timeout=5))
        with translation.override("de"):
            easy_bot = str(translation.gettext("easy bot"))  # a bot's name: "Ada (easy bot)"
        assert summary["type"] == "table" and easy_bot != "easy bot"
        assert summary["seats"][1]["name"].endswith(f" ({easy_bot})")
        await socket.send_to(text_data=json.dumps(
            {"type": "action", "version": game.version,
             "action": {"type": "keep_tickets", "tickets": ["E999"]}}
        ))  # fmt: skip
        while (frame := json.loads(await socket.receive_from(timeout=5)))["type"] != "error":
            pass
        with translation.override("de"):
            expected = str(REASON_MESSAGES[frame["code"]])
        assert frame["message"] == expected and frame["message"] != str(
            REASON_MESSAGES[frame["code"]]
        )
        await socket.disconnect()

    async_to_sync(scenario)()


def test_the_api_tells_an_engine_refusal_in_the_browsers_language(cast):
    from django.test import Client

    alice = cast["alice"]
    table = services.table_create(owner=alice, seat_count=2)
    services.table_add_bot(table_id=table.pk, by=alice, level="easy")
    client = Client(HTTP_ACCEPT_LANGUAGE="nl")
    client.force_login(alice)
    response = client.post(
        f"/api/v1/tables/{table.pk}/game/actions/",
        {"version": 0, "action": {"type": "keep_tickets", "tickets": ["E999"]}},
        content_type="application/json",
    )
    body = response.json()
    with translation.override("nl"):
        dutch = str(REASON_MESSAGES[body["code"]])
    with translation.override("en"):
        english = str(REASON_MESSAGES[body["code"]])
    assert response.status_code == 422 and body["message"] == dutch != english
