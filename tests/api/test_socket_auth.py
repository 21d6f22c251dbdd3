"""WebSockets accept a personal token (header or query string) without an Origin; the
session still needs an allowed Origin; an unknown or revoked token is refused."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from tests.api.conftest import two_player_game
from ttr_site.accounts.services import api_token_create, api_token_revoke
from ttr_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def connect(path: str, headers=()):
    """(accepted, first frame or close code) for a socket opened with these headers."""

    async def run():
        communicator = WebsocketCommunicator(application, path, headers=list(headers))
        accepted, code = await communicator.connect(timeout=5)
        if not accepted:
            return False, code
        frames = []
        while True:
            frame = json.loads(await communicator.receive_from(timeout=5))
            frames.append(frame)
            if frame["type"] == "view":
                break
        await communicator.disconnect()
        return True, frames

    return async_to_sync(run)()


def view_seat(frames) -> int | None:
    return next(f for f in frames if f["type"] == "view")["seat"]


def session_cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return (b"cookie", cookie.encode())


ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def test_a_token_in_the_header_needs_no_origin(cast):
    table = two_player_game(cast)
    _token, secret = api_token_create(user=cast["bob"], name="bot")
    accepted, frames = connect(
        f"/ws/table/{table.pk}/", [(b"authorization", f"Bearer {secret}".encode())]
    )
    assert accepted and view_seat(frames) == 1


def test_a_token_in_the_query_string_works_too(cast):
    table = two_player_game(cast)
    _token, secret = api_token_create(user=cast["alice"], name="bot")
    accepted, frames = connect(f"/ws/table/{table.pk}/?token={secret}")
    assert accepted and view_seat(frames) == 0


def test_the_token_wins_over_the_session_cookie(cast):
    table = two_player_game(cast)
    _token, secret = api_token_create(user=cast["bob"], name="bot")
    headers = [session_cookie(cast["alice"]), (b"authorization", f"Bearer {secret}".encode())]
    accepted, frames = connect(f"/ws/table/{table.pk}/", headers)
    assert accepted and view_seat(frames) == 1


def test_a_session_socket_without_an_allowed_origin_is_refused(cast):
    table = two_player_game(cast)
    cookie = session_cookie(cast["alice"])
    assert connect(f"/ws/table/{table.pk}/", [cookie])[0] is False
    evil = (b"origin", b"https://evil.example.org")
    assert connect(f"/ws/table/{table.pk}/", [cookie, evil])[0] is False
    accepted, frames = connect(f"/ws/table/{table.pk}/", [cookie, ORIGIN])
    assert accepted and view_seat(frames) == 0


@pytest.mark.parametrize("how", ["header", "query"])
def test_unknown_and_revoked_tokens_are_refused(cast, how):
    table = two_player_game(cast)
    token, secret = api_token_create(user=cast["bob"], name="bot")
    api_token_revoke(user=cast["bob"], token_id=token.pk)
    for bad in (secret, "ttr_unknown", ""):
        if how == "header":
            result = connect(
                f"/ws/table/{table.pk}/", [(b"authorization", f"Bearer {bad}".encode()), ORIGIN]
            )
        else:
            result = connect(f"/ws/table/{table.pk}/?token={bad}", [ORIGIN])
        assert result[0] is False, bad


def test_the_notification_socket_takes_a_token(cast):
    _token, secret = api_token_create(user=cast["carol"], name="bot")

    async def run():
        headers = [(b"authorization", f"Bearer {secret}".encode())]
        communicator = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
        accepted, _ = await communicator.connect(timeout=5)
        await communicator.disconnect()
        anonymous = WebsocketCommunicator(application, "/ws/notifications/", headers=[ORIGIN])
        refused = await anonymous.connect(timeout=5)
        return accepted, refused

    accepted, (ok, code) = async_to_sync(run)()
    assert accepted and not ok and code == 4401
