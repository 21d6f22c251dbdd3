"""Rate limits: chat lines, game actions per user, socket frames per connection, failed
log-ins. Over a limit the frame gets an error frame and changes nothing, and the socket
stays open. (The drills play whole games at bot speed under the default limits and check
that nobody was ever rate limited: a legitimate player never comes near them.)"""

import asyncio
import json
import uuid

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from games import services
from games.engine.bots import choose_action
from games.errors import GameError
from games.models import Game
from tests.factories import PASSWORD
from tests.games.test_table_socket import is_view, receive_until, socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    """A cache of this test's own, so no count is left over from another test."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": uuid.uuid4().hex,
        }
    }


@pytest.fixture
def started(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])
    return table


async def _answer(communicator) -> dict:
    """The next frame that is not a push (view, table, chat, presence)."""
    frames = await receive_until(
        communicator, lambda f: f["type"] not in ("view", "table", "chat", "presence")
    )
    return frames[-1]


def _version(table) -> int:
    return Game.objects.get(table=table).version


def test_chat_is_limited_per_player_and_table_as_configured(started, cast, settings):
    settings.CHAT_RATE_LIMIT, settings.CHAT_RATE_WINDOW = 2, 1
    other = services.table_create(owner=cast["alice"], seat_count=2)
    alice = cast["alice"]
    for _ in range(2):
        services.chat_post(table_id=started.pk, user=alice, text="hi")
    with pytest.raises(GameError) as exc:
        services.chat_post(table_id=started.pk, user=alice, text="hi")
    assert exc.value.code == "chat_rate_limited"
    services.chat_post(table_id=other.pk, user=alice, text="hi")  # another table: its own count
    services.chat_post(table_id=started.pk, user=cast["bob"], text="hi")  # another player
    async_to_sync(asyncio.sleep)(1.1)  # a new window
    services.chat_post(table_id=started.pk, user=alice, text="hi again")
    assert started.chat.count() == 4


def test_actions_beyond_the_users_limit_change_nothing_on_any_socket(started, cast, settings):
    settings.ACTION_RATE_LIMIT, settings.ACTION_RATE_WINDOW = 3, 60

    async def scenario():
        # Two sockets of the same player: the limit is the user's, not the connection's.
        first, second = socket(started.pk, cast["alice"]), socket(started.pk, cast["alice"])
        for communicator in (first, second):
            assert (await communicator.connect())[0]
        legal = (await receive_until(first, is_view(0)))[-1]["legal"]
        await receive_until(second, is_view(0))
        stale = {"type": "action", "action": legal[0], "version": 7}
        for communicator in (first, first, second):
            await communicator.send_json_to(stale)
            assert (await _answer(communicator))["code"] == "stale_version"
        await second.send_json_to({"type": "action", "action": legal[0], "version": 0})
        refused = await _answer(second)
        assert refused["code"] == "rate_limited" and refused["message"]
        await first.send_json_to({"type": "ping"})
        assert (await _answer(first))["type"] == "pong"  # still connected
        for communicator in (first, second):
            await communicator.disconnect()

    async_to_sync(scenario)()
    assert _version(started) == 0  # the legal action over the limit was not applied


def test_frames_beyond_a_connections_limit_get_an_error_and_the_socket_stays(
    started, cast, settings
):
    settings.SOCKET_FRAME_RATE_LIMIT, settings.SOCKET_FRAME_RATE_WINDOW = 4, 60

    async def scenario():
        flooder, calm = socket(started.pk, cast["alice"]), socket(started.pk, cast["alice"])
        for communicator in (flooder, calm):
            assert (await communicator.connect())[0]
        legal = (await receive_until(flooder, is_view(0)))[-1]["legal"]
        for _ in range(4):
            await flooder.send_json_to({"type": "ping"})
            assert (await _answer(flooder))["type"] == "pong"
        for frame in ({"type": "ping"}, {"type": "action", "action": legal[0], "version": 0}):
            await flooder.send_json_to(frame)
            assert (await _answer(flooder))["code"] == "rate_limited"
        await flooder.send_to(text_data="{not json")  # counted before it is even parsed
        assert (await _answer(flooder))["code"] == "rate_limited"
        await calm.send_json_to({"type": "ping"})  # another connection has its own count
        assert (await _answer(calm))["type"] == "pong"
        for communicator in (flooder, calm):
            await communicator.disconnect()

    async_to_sync(scenario)()
    assert _version(started) == 0


def test_a_pong_carries_the_version_so_a_client_behind_can_tell(started, cast):
    game = Game.objects.get(table=started)

    async def scenario():
        alice = socket(started.pk, cast["alice"])
        assert (await alice.connect())[0]
        await receive_until(alice, is_view(0))
        await alice.send_json_to({"type": "ping"})
        return json.loads(json.dumps(await _answer(alice)))

    assert async_to_sync(scenario)() == {"type": "pong", "version": game.version}


def test_repeated_failed_logins_are_refused_and_the_page_says_so(cast):
    client = Client()
    wrong = {"login": "alice", "password": "not-the-password"}
    for _ in range(5):  # LOGIN_FAILED_RATE_LIMIT: 5 per 5 minutes per account
        response = client.post("/accounts/login/", wrong)
        assert response.status_code == 200
        assert "Too many failed login attempts" not in response.content.decode()
    response = client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert "Too many failed login attempts. Try again later." in response.content.decode()
    assert "_auth_user_id" not in client.session  # not even the right password gets in
    # Another account is not affected.
    response = client.post("/accounts/login/", {"login": "bob", "password": PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(cast["bob"].pk)


def test_a_whole_game_at_socket_speed_stays_under_the_default_limits(started, cast):
    users = {0: cast["alice"], 1: cast["bob"]}

    async def scenario():
        sockets = {seat: socket(started.pk, user) for seat, user in users.items()}
        latest = {}
        for seat, communicator in sockets.items():
            assert (await communicator.connect())[0]
            latest[seat] = (await receive_until(communicator, is_view(0)))[-1]
        version = 0
        while not latest[0]["view"].get("final"):
            state = latest[0]["view"]
            seat = min(state["current_seats"])
            action = choose_action("easy", {}, latest[seat]["legal"], seed=version)
            await sockets[seat].send_json_to({"type": "action", "action": action,
                                              "version": version})  # fmt: skip
            version += 1
            for s, communicator in sockets.items():
                frames = await receive_until(communicator, is_view(version))
                assert not [f for f in frames if f["type"] == "error"], frames
                latest[s] = frames[-1]
        for communicator in sockets.values():
            await communicator.disconnect()
        return version

    assert async_to_sync(scenario)() > 50
