"""API test set-up: token-authenticated clients for the cast, a fresh cache per test (so
throttle counts never leak between tests), and builders for tables mid-game."""

import uuid

import pytest
from rest_framework.test import APIClient

from games import services
from ttr_site.accounts.services import api_token_create


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    """A cache of this test's own: throttles count from zero, presence starts empty."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": uuid.uuid4().hex,
        }
    }


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def token_client(user) -> APIClient:
    """A client that authenticates as ``user`` with a fresh personal API token."""
    _token, secret = api_token_create(user=user, name="tests")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


@pytest.fixture
def as_user():
    """``as_user(user)``: a token client; ``as_user(None)``: anonymous."""
    return lambda user: APIClient() if user is None else token_client(user)


@pytest.fixture
def admin(db):
    from tests.factories import UserFactory

    user = UserFactory(username="admin")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def assert_error(response, status: int, code: str | None = None) -> dict:
    """The response is the one error format with this status (and code)."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert isinstance(body.get("code"), str) and isinstance(body.get("message"), str), body
    assert body["message"]
    if code is not None:
        assert body["code"] == code, body
    return body


def two_player_game(cast):
    """A started two-seat table: alice (owner, seat 0) and bob (seat 1)."""
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])
    return table
