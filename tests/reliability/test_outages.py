"""What a move does when Redis or the broker is unreachable after its commit: it stays made.

Found by the Redis restart drill: a push that failed after the commit raised out of the
service, so the player was told "server_error" about a move that was made, and the bot move
and timeout queued after the push were never queued.
"""

import logging

import pytest
from asgiref.sync import async_to_sync
from django.db import OperationalError
from django.test import Client
from kombu.exceptions import OperationalError as BrokerUnreachable
from redis.exceptions import ConnectionError as RedisDown

from games import broadcast, engine, services, tasks
from games.models import Game
from tests.games.test_table_socket import is_view, receive_until, socket

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot_table(cast):
    """alice against an easy bot; alice keeps her tickets first."""
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_add_bot(table_id=table.pk, by=cast["alice"], level="easy")
    return table


def _alice_moves(table, cast, capture):
    game = Game.objects.get(table=table)
    state = engine.from_json(game.state)
    with capture(execute=True):
        services.game_submit_action(game_id=game.pk, user=cast["alice"], expected_version=0,
                                    action=engine.legal_actions(state, 0)[0])  # fmt: skip
    game.refresh_from_db()
    return game


def test_a_lost_push_is_logged_and_the_tasks_are_still_queued(
    bot_table, cast, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    def redis_is_down(messages):
        raise RedisDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    queued = []
    monkeypatch.setattr(broadcast, "group_send_all", redis_is_down)
    monkeypatch.setattr(tasks.bot_move, "apply_async", lambda *a, **k: queued.append("bot"))
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *a, **k: queued.append("t"))
    with caplog.at_level(logging.WARNING, logger="games.broadcast"):
        game = _alice_moves(bot_table, cast, django_capture_on_commit_callbacks)
    assert game.version == 1
    assert "lost" in caplog.text
    assert queued  # the bot's move (or the clock) is queued all the same


def test_a_move_stands_when_the_broker_is_unreachable(
    bot_table, cast, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    def broker_is_down(*args, **kwargs):
        raise BrokerUnreachable("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(broadcast, "group_send_all", lambda messages: None)
    monkeypatch.setattr(tasks.bot_move, "apply_async", broker_is_down)
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", broker_is_down)
    with caplog.at_level(logging.WARNING, logger="games.effects"):
        game = _alice_moves(bot_table, cast, django_capture_on_commit_callbacks)
    assert game.version == 1 and game.deadline is not None  # the sweep will find it
    assert "could not queue" in caplog.text


# --- the database unreachable: pages, API and sockets (ttr_site/outages.py) -----------------


def _database_down(*args, **kwargs):
    raise OperationalError('connection failed: connection to server at "127.0.0.1" refused')


def _assert_503_page(response):
    assert response.status_code == 503 and response["Retry-After"]
    body = response.content.decode()
    assert "The database is unreachable right now" in body and "Traceback" not in body


def test_a_page_whose_view_meets_a_database_outage_is_a_503(bot_table, monkeypatch):
    monkeypatch.setattr("games.views.table_summary", _database_down)
    _assert_503_page(Client().get(f"/table/{bot_table.pk}/"))


def test_an_outage_met_before_the_view_is_a_503_too(cast, monkeypatch):
    client = Client(raise_request_exception=False)
    client.force_login(cast["alice"])
    # The session's user is loaded by middleware (the account's language), not by a view.
    monkeypatch.setattr("django.contrib.auth.get_user", _database_down)
    _assert_503_page(client.get("/play/"))


def test_the_api_answers_an_outage_with_its_error_format(monkeypatch):
    monkeypatch.setattr("games.apis.TableListApi.get", _database_down)
    response = Client().get("/api/v1/tables/")
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json()["code"] == "unavailable" and response.json()["message"]


@pytest.mark.django_db(transaction=True)
def test_a_socket_action_during_an_outage_gets_an_error_frame_and_the_socket_stays(
    cast, monkeypatch
):
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])

    async def scenario():
        alice = socket(table.pk, cast["alice"])
        assert (await alice.connect())[0]
        legal = (await receive_until(alice, is_view(0)))[-1]["legal"]
        monkeypatch.setattr(services, "game_submit_action", _database_down)
        await alice.send_json_to({"type": "action", "action": legal[0], "version": 0})
        error = (await receive_until(alice, lambda f: f["type"] == "error"))[-1]
        assert error["code"] == "unavailable" and "database" in error["message"]
        monkeypatch.undo()
        await alice.send_json_to({"type": "ping"})
        assert (await receive_until(alice, lambda f: f["type"] == "pong"))[-1]
        await alice.disconnect()

    async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
def test_a_socket_that_connects_during_an_outage_is_refused_not_left_hanging(cast, monkeypatch):
    from games.consumers import TableConsumer

    table = services.table_create(owner=cast["alice"], seat_count=2)
    monkeypatch.setattr(TableConsumer, "_access", lambda self: _async_database_down())

    async def scenario():
        connected, code = await socket(table.pk, cast["alice"]).connect(timeout=5)
        assert (connected, code) == (False, 1013)

    async_to_sync(scenario)()


async def _async_database_down():
    _database_down()
