"""Rate limits: chat lines, game actions per user, socket frames per connection, failed
log-ins (on both log-in pages), API requests per client address. Over a limit the frame gets
an error frame and changes nothing, and the socket stays open. (The drills play whole games at
bot speed under the default limits and check that nobody was ever rate limited: a legitimate
player never comes near them.)

The per-address limits are also tried on a live production site (uvicorn, as deployed) with
real headers: X-Forwarded-For is believed only from the proxy named in TRUSTED_PROXIES
(127.0.0.2, a loopback address the test connects from), never from anyone else."""

import asyncio
import http.client
import json
import uuid
from urllib.parse import urlencode

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from games import services
from games.engine.bots import choose_action
from games.errors import GameError
from games.models import Game
from tests.factories import PASSWORD
from tests.games.test_table_socket import is_view, receive_until, socket
from tests.live import LiveSite

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


LOCKED = "Too many failed login attempts. Try again later."


def admin_login(client, login, password, **extra):
    data = {"username": login, "password": password, "next": "/admin/"}
    return client.post("/admin/login/", data, **extra)


def site_login(client, login, password, **extra):
    return client.post("/accounts/login/", {"login": login, "password": password}, **extra)


def test_the_account_lock_holds_whatever_the_host_port_address_or_name_used(cast):
    """The account budget was keyed on the Host header (port included) and the login as typed:
    each port, and the e-mail beside the username, was a fresh budget of 5."""
    client = Client()
    for i, name in enumerate(["alice", "ALICE", "alice@example.com", "Alice@Example.com", "alice"]):
        extra = {"HTTP_HOST": f"127.0.0.1:{8001 + i}", "REMOTE_ADDR": f"192.0.2.{i + 1}"}
        response = site_login(client, name, "not-the-password", **extra)
        assert response.status_code == 200 and LOCKED not in response.content.decode()
    extra = {"HTTP_HOST": "localhost:9999", "REMOTE_ADDR": "192.0.2.99"}
    response = site_login(client, "alice@example.com", PASSWORD, **extra)
    assert LOCKED in response.content.decode() and "_auth_user_id" not in client.session


@pytest.mark.parametrize("locked_on", ["site", "admin"])
def test_a_lock_from_either_log_in_page_holds_on_both(cast, locked_on):
    """/admin/login/ had no limit at all: 30 wrong passwords, then the right one got in."""
    cast["alice"].is_staff = True
    cast["alice"].save(update_fields=["is_staff"])
    attempt = site_login if locked_on == "site" else admin_login
    for _ in range(5):
        assert LOCKED not in attempt(Client(), "alice", "wrong").content.decode()
    for log_in in (site_login, admin_login):
        client = Client()
        response = log_in(client, "alice", PASSWORD)
        assert response.status_code == 200 and LOCKED in response.content.decode()
        assert "_auth_user_id" not in client.session


def test_the_admin_log_in_still_lets_staff_in_and_only_staff(cast):
    cast["carol"].is_staff = True
    cast["carol"].save(update_fields=["is_staff"])
    client = Client()
    response = admin_login(client, "carol", PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/admin/"
    response = admin_login(Client(), "bob", PASSWORD)  # the right password, not staff
    assert response.status_code == 200 and "staff account" in response.content.decode()


def test_api_throttles_count_the_peer_not_a_forwarded_header(settings):
    """DRF's get_ident believed any X-Forwarded-For: rotating it was a fresh budget each time."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.API_THROTTLE_RATES, "anon": "2/minute"},
    }
    client = Client(REMOTE_ADDR="192.0.2.1")
    statuses = [
        client.get("/api/v1/tables/", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
        for i in range(3)
    ]
    assert statuses == [200, 200, 429]
    assert Client(REMOTE_ADDR="192.0.2.2").get("/api/v1/tables/").status_code == 200


# --- On a live production site, with real headers -------------------------------------------

PROXY = "127.0.0.2"  # the site's TRUSTED_PROXIES; the test's other requests come from 127.0.0.1
CSRF = "k" * 32  # a CSRF secret of the test's own, sent as cookie and as form field
LIVE_USERS = f"""
from allauth.account.models import EmailAddress
from ttr_site.accounts.models import User
for name in ("ivy", "lou"):
    user = User.objects.create_user(name, name + "@example.com", {PASSWORD!r}, is_staff=True)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
"""


@pytest.fixture(scope="module")
def live_site(tmp_path_factory):
    env = {"TRUSTED_PROXIES": PROXY, "API_THROTTLE_ANON": "5/minute"}
    site = LiveSite("production", tmp_path_factory.mktemp("limits"), extra_env=env).start()
    try:
        site.manage("shell", "-c", LIVE_USERS)
        yield site
    finally:
        site.stop()


def send(site, method, path, *, via="127.0.0.1", forwarded=(), host=None, form=None):
    """One request on a new connection from ``via``, with the given X-Forwarded-For headers
    (str or raw bytes, one header each); returns the status and the body."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", site.port, timeout=30, source_address=(via, 0)
    )
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host or f"127.0.0.1:{site.port}")
        for value in [forwarded] if isinstance(forwarded, str | bytes) else forwarded:
            connection.putheader("X-Forwarded-For", value)
        body = None
        if form is not None:
            body = urlencode({**form, "csrfmiddlewaretoken": CSRF}).encode()
            connection.putheader("Cookie", f"csrftoken={CSRF}")
            connection.putheader("Content-Type", "application/x-www-form-urlencoded")
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        connection.close()


def live_login(site, login, password, *, admin=False, **options):
    if admin:
        form = {"username": login, "password": password, "next": "/admin/"}
        return send(site, "POST", "/admin/login/", form=form, **options)
    form = {"login": login, "password": password}
    return send(site, "POST", "/accounts/login/", form=form, **options)


@pytest.mark.postgres
@pytest.mark.redis
def test_live_rotating_x_forwarded_for_buys_no_fresh_api_budget(live_site):
    def status(**options):
        return send(live_site, "GET", "/api/v1/tables/", **options)[0]

    # From a peer that is not a trusted proxy the header is ignored (API_THROTTLE_ANON: 5/m).
    assert [status(forwarded=f"198.51.100.{i}") for i in range(6)] == [200] * 5 + [429]
    # From the trusted proxy, the forwarded address is the client, each with its own budget.
    assert [status(via=PROXY, forwarded="203.0.113.9") for _ in range(6)] == [200] * 5 + [429]
    # What the client put left of the proxy's entry changes nothing.
    assert status(via=PROXY, forwarded="203.0.113.10, 203.0.113.9") == 429
    assert status(via=PROXY, forwarded=["203.0.113.10", "203.0.113.9"]) == 429
    assert status(via=PROXY, forwarded="203.0.113.10") == 200


@pytest.mark.postgres
@pytest.mark.redis
def test_live_rotating_x_forwarded_for_buys_no_fresh_log_in_budget(live_site):
    for i in range(10):  # 10 failed log-ins a minute per address, each on another login
        status, body = live_login(live_site, f"nobody{i}", "wrong", forwarded=f"198.51.100.{i}")
        assert status == 200 and LOCKED not in body
    status, body = live_login(live_site, "ivy", PASSWORD, forwarded="198.51.100.99")
    assert status == 200 and LOCKED in body, "the address is locked, whatever it claims"
    status, body = live_login(live_site, "ivy", PASSWORD, admin=True, forwarded="198.51.100.98")
    assert status == 200 and LOCKED in body
    # The lock is the address's: ivy, forwarded by the trusted proxy from elsewhere, gets in.
    status, _ = live_login(live_site, "ivy", PASSWORD, via=PROXY, forwarded="192.0.2.50")
    assert status == 302


@pytest.mark.postgres
@pytest.mark.redis
def test_live_the_account_lock_holds_across_host_ports_addresses_and_both_pages(live_site):
    names = ["lou", "LOU", "lou@example.com", "Lou@Example.com", "lou"]
    for i, name in enumerate(names):
        options = {"via": PROXY, "forwarded": f"192.0.2.{i + 1}", "host": f"127.0.0.1:{9001 + i}"}
        status, body = live_login(live_site, name, "wrong", admin=i % 2 == 1, **options)
        assert status == 200 and LOCKED not in body
    for admin in (False, True):
        options = {"via": PROXY, "forwarded": f"192.0.2.{20 + admin}", "host": "localhost:9999"}
        status, body = live_login(live_site, "lou", PASSWORD, admin=admin, **options)
        assert status == 200 and LOCKED in body, "the right password is refused while locked"


GARBAGE = [
    b"",
    b",,,",
    b"unknown",
    b"not an address",
    b"999.1.1.1",
    b"[::1",
    b"203.0.113.1:99999",
    b"\xff\xfe\x00\x01",
    b"1.1.1.1, " * 1000 + b"203.0.113.1",
    ("é" * 50).encode("latin-1"),
]


@pytest.mark.postgres
@pytest.mark.redis
def test_live_garbage_x_forwarded_for_never_gives_a_5xx(live_site):
    for value in GARBAGE:
        for via in ("127.0.0.1", PROXY):
            for forwarded in ([value], [value, value]):
                answers = [
                    send(live_site, "GET", "/api/v1/tables/", via=via, forwarded=forwarded),
                    send(live_site, "GET", "/", via=via, forwarded=forwarded),
                    live_login(live_site, "nobody", "wrong", via=via, forwarded=forwarded),
                    live_login(live_site, "nobody", "x", admin=True, via=via, forwarded=forwarded),
                ]
                assert all(status < 500 for status, _ in answers), (value, via, answers)
                # allauth's own reading of the header refused such log-ins with a 403 (a NUL
                # in a header is uvicorn's 400)
                assert 403 not in [status for status, _ in answers], (value, via)
    assert "Traceback" not in live_site.output(), live_site.output()[-4000:]


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
