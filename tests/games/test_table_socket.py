"""The table WebSocket over the configured channel layer (Redis pub/sub in CI).

A whole game is played through the sockets of two players while a spectator watches; every
frame each of them receives is checked for the other seats' secrets.
"""

import json
import random

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games import engine, services
from games.models import Game, GameEvent
from games.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)
APP = URLRouter(websocket_urlpatterns)


def socket(table_id, user):
    communicator = WebsocketCommunicator(APP, f"/ws/table/{table_id}/")
    communicator.scope["user"] = user
    return communicator


async def receive_until(communicator, predicate, timeout=10):
    """Frames up to and including the first that matches."""
    frames = []
    while True:
        frame = json.loads(await communicator.receive_from(timeout=timeout))
        frames.append(frame)
        if predicate(frame):
            return frames
        assert frame["type"] != "error", frame  # fail on an unexpected error, not a timeout


def is_view(version):
    return lambda f: f["type"] == "view" and f["version"] == version


def secret_facts(state, seat):
    """Strings only ``seat`` may see: its ticket ids (held and offered)."""
    everything = engine.view_for(state, "all")
    me = everything["players"][seat]
    ids = {t["id"] for t in me.get("tickets", [])}
    ids |= {t["id"] for t in (me.get("offered_tickets") or [])}
    return ids


def assert_no_foreign_secrets(frame, viewer, state):
    text = json.dumps(frame)
    view = frame.get("view", {})
    if view.get("final"):
        return  # final scoring reveals every ticket (docs/rules.md 1.6)
    for seat in range(state.n):
        if seat == viewer:
            continue
        for ticket_id in secret_facts(state, seat):
            assert f'"{ticket_id}"' not in text, (viewer, seat, ticket_id)
    for player in view.get("players", []):
        if player["seat"] != viewer:
            assert "hand" not in player and "tickets" not in player
    if frame["type"] != "view":
        return
    if viewer is None:
        assert "you" not in view and frame["legal"] == []
    else:
        assert view["you"]["seat"] == viewer
    for entry in frame.get("log", []):
        if entry.get("seat") != viewer:
            assert "secret" not in entry and "private" not in entry
            if entry["type"] == "draw_card" and entry.get("source") == "deck":
                assert "color" not in entry, entry


def test_a_whole_game_over_sockets_leaks_no_secret(cast, settings):
    # Played at machine speed: each player makes more than ACTION_RATE_LIMIT (100 per 10 s,
    # well above a person's pace) moves a window; the limit has tests of its own.
    settings.ACTION_RATE_LIMIT = 10_000
    alice, bob = cast["alice"], cast["bob"]
    table = services.table_create(owner=alice, seat_count=2)
    services.table_join(table_id=table.pk, user=bob)
    game = Game.objects.get(table=table)
    rng = random.Random(7)

    async def scenario():
        players = {0: socket(table.pk, alice), 1: socket(table.pk, bob)}
        watcher = socket(table.pk, AnonymousUser())
        everyone = {**players, None: watcher}
        for communicator in everyone.values():
            assert (await communicator.connect())[0]
        latest = {}
        for viewer, communicator in everyone.items():
            frames = await receive_until(communicator, is_view(0))
            latest[viewer] = frames[-1]
        version = 0
        while True:
            state = await database_sync_to_async(_state)(game.pk)
            for viewer, frame in latest.items():
                assert_no_foreign_secrets(frame, viewer, state)
                expected = engine.view_for(state, viewer)
                expected.pop("log")
                assert frame["view"] == expected
            if engine.is_terminal(state):
                break
            seat = engine.current_seats(state)[0]
            legal = latest[seat]["legal"]
            assert legal == engine.legal_actions(state, seat)
            await players[seat].send_json_to(
                {"type": "action", "action": rng.choice(legal), "version": version}
            )
            version += 1
            for viewer, communicator in everyone.items():
                frames = await receive_until(communicator, is_view(version))
                for frame in frames:
                    assert frame["type"] != "error", frame
                    assert_no_foreign_secrets(frame, viewer, state)
                latest[viewer] = frames[-1]
        for communicator in everyone.values():
            await communicator.disconnect()
        return version

    moves = async_to_sync(scenario)()
    assert moves > 50
    state = _state(game.pk)
    assert engine.is_terminal(state)
    # The event log: no gap, no duplicate, and each audience's copy is its redaction.
    seqs = list(GameEvent.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(0, moves + 1))
    for event in GameEvent.objects.filter(game=game):
        assert "secret" not in json.dumps(event.entries_for(None))
    # The REST view is the socket's sync frame.
    client = Client()
    client.force_login(bob)
    body = client.get(f"/api/tables/{table.pk}/game/").json()
    assert body["version"] == moves and body["seat"] == 1
    anonymous = Client().get(f"/api/tables/{table.pk}/game/").json()
    assert anonymous["seat"] is None and anonymous["legal"] == []


def _state(game_id):
    return engine.from_json(Game.objects.get(pk=game_id).state)


@pytest.fixture
def started(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])
    return table


def test_bad_frames_get_error_frames_and_change_nothing(started, cast):
    game = Game.objects.get(table=started)

    async def scenario():
        alice = socket(started.pk, cast["alice"])
        assert (await alice.connect())[0]
        first = (await receive_until(alice, is_view(0)))[-1]
        legal = first["legal"]
        bad = [
            ("{nope", "malformed_message"),
            ("[1, 2]", "malformed_message"),
            ('{"type": 5}', "malformed_message"),
            ('{"type": "dance"}', "malformed_message"),
            (json.dumps({"type": "action", "action": legal[0], "version": 3}), "stale_version"),
            (json.dumps({"type": "action", "action": legal[0]}), "malformed_message"),
            (
                json.dumps(
                    {
                        "type": "action",
                        "action": {"type": "keep_tickets", "tickets": []},
                        "version": 0,
                    }
                ),
                "too_few_tickets",
            ),  # fmt: skip
            (json.dumps({"type": "action", "action": "x", "version": 0}), "malformed_message"),
            ("x" * 20_000, "malformed_message"),
        ]
        for raw, code in bad:
            await alice.send_to(text_data=raw)
            frames = await receive_until(alice, lambda f: f["type"] == "error")
            assert frames[-1]["code"] == code, (raw[:40], frames[-1])
            assert frames[-1]["message"]
        await alice.send_to(bytes_data=b"\xff\xfe")
        assert (await receive_until(alice, lambda f: f["type"] == "error"))[-1]["code"]
        # Still connected and still able to play.
        await alice.send_json_to({"type": "action", "action": legal[0], "version": 0})
        await receive_until(alice, is_view(1))
        await alice.disconnect()

    async_to_sync(scenario)()
    game.refresh_from_db()
    assert game.version == 1


def test_chat_is_stored_pushed_and_limited(started, cast):
    async def scenario():
        alice, bob = socket(started.pk, cast["alice"]), socket(started.pk, cast["bob"])
        for c in (alice, bob):
            assert (await c.connect())[0]
        await alice.send_json_to({"type": "chat", "text": "good luck!"})
        frames = await receive_until(bob, lambda f: f["type"] == "chat")
        assert frames[-1]["text"] == "good luck!" and frames[-1]["username"] == "alice"
        await alice.send_json_to({"type": "chat", "text": "x" * 301})
        assert (await receive_until(alice, lambda f: f["type"] == "error"))[-1][
            "code"
        ] == "chat_too_long"
        for i in range(6):
            await alice.send_json_to({"type": "chat", "text": f"spam {i}"})
        # waited for, not drained after a fixed pause: a loaded machine may answer later (no
        # answer fails on receive_until's timeout, another error on its check)
        await receive_until(
            alice, lambda f: f["type"] == "error" and f["code"] == "chat_rate_limited"
        )
        for c in (alice, bob):
            await c.disconnect()
        # A page that connects later is shown the talk so far, oldest first.
        carol = socket(started.pk, AnonymousUser())
        assert (await carol.connect())[0]
        history = await receive_until(carol, lambda f: f["type"] == "view")
        texts = [f["text"] for f in history if f["type"] == "chat"]
        assert texts == ["good luck!", "spam 0", "spam 1", "spam 2", "spam 3"]
        await carol.disconnect()

    async_to_sync(scenario)()
    assert started.chat.count() == 5


def test_presence_shows_who_is_connected(started, cast):
    async def scenario():
        alice, bob = socket(started.pk, cast["alice"]), socket(started.pk, cast["bob"])
        assert (await alice.connect())[0]
        await receive_until(alice, lambda f: f["type"] == "presence")
        assert (await bob.connect())[0]
        frames = await receive_until(
            alice, lambda f: f["type"] == "presence" and len(f["online"]) == 2
        )
        assert sorted(frames[-1]["online"]) == sorted([cast["alice"].pk, cast["bob"].pk])
        await bob.disconnect()
        frames = await receive_until(alice, lambda f: f["type"] == "presence")
        assert frames[-1]["online"] == [cast["alice"].pk]
        await alice.disconnect()

    async_to_sync(scenario)()


def test_a_private_table_refuses_strangers(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2, is_private=True)

    async def scenario():
        stranger = socket(table.pk, cast["carol"])
        connected, code = await stranger.connect()
        assert (connected, code) == (False, 4404)

    async_to_sync(scenario)()


def test_an_anonymous_visitor_holds_no_seat_even_beside_bots(cast):
    from games.presenters import table_summary

    table = services.table_create(owner=cast["alice"], seat_count=3)
    services.table_add_bot(table_id=table.pk, by=cast["alice"])
    summary = table_summary(table, AnonymousUser())
    assert summary["your_seat"] is None and summary["is_owner"] is False
