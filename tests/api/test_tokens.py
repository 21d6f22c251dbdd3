"""Personal API tokens: created and revoked on the settings page, shown once, stored as a
digest; Bearer requests; the browser session with CSRF; 401s in the error format."""

import hashlib
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.api.conftest import assert_error
from tests.factories import UserFactory
from ttr_site.accounts.errors import AccountError
from ttr_site.accounts.models import ApiToken
from ttr_site.accounts.services import api_token_create, api_token_revoke

pytestmark = pytest.mark.django_db


def bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def test_a_player_creates_a_token_on_the_settings_page_and_sees_it_once(client, cast):
    client.force_login(cast["alice"])
    response = client.post(reverse("api_token_new"), {"name": "my bot"})
    assert response.status_code == 200
    secret = response.context["new_secret"]
    assert secret.startswith("ttr_") and secret in response.content.decode()
    token = ApiToken.objects.get(user=cast["alice"])
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert token.prefix == secret[:12] and secret not in str(token.__dict__)
    page = client.get(reverse("account_settings")).content.decode()
    assert "my bot" in page and token.prefix in page and secret not in page
    assert bearer(secret).get("/api/v1/me/").json()["username"] == "alice"


def test_the_page_showing_a_new_secret_may_not_be_stored_by_any_cache(client, cast):
    client.force_login(cast["alice"])
    response = client.post(reverse("api_token_new"), {"name": "my bot"})
    assert response.context["new_secret"]
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"no-store", "private"} <= directives


def test_a_token_needs_a_name(client, cast):
    client.force_login(cast["alice"])
    response = client.post(reverse("api_token_new"), {"name": ""})
    assert response.status_code == 200 and not ApiToken.objects.exists()
    assert "new_secret" not in response.context


def test_a_revoked_token_gets_a_401(client, cast):
    token, secret = api_token_create(user=cast["bob"], name="script")
    api = bearer(secret)
    assert api.get("/api/v1/me/").status_code == 200
    client.force_login(cast["bob"])
    client.post(reverse("api_token_revoke", args=[token.pk]))
    token.refresh_from_db()
    assert token.revoked_at is not None
    response = api.get("/api/v1/me/")
    assert_error(response, 401, "login_required")
    assert response["WWW-Authenticate"].startswith("Bearer")
    # A revoked token is refused even on public reads: it never falls back to anonymous.
    assert_error(api.get("/api/v1/tables/"), 401, "login_required")


def test_nobody_revokes_another_players_token(client, cast):
    token, secret = api_token_create(user=cast["bob"], name="script")
    client.force_login(cast["carol"])
    client.post(reverse("api_token_revoke", args=[token.pk]))
    assert bearer(secret).get("/api/v1/me/").status_code == 200


@pytest.mark.parametrize(
    "header", ["Bearer", "Bearer ttr_nope", "Bearer a b", "bearer ttr_" + "x" * 200, "Token x"]
)
def test_malformed_or_unknown_tokens_are_401(cast, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    if header.startswith("Token"):
        # Not our scheme: no token at all, so an anonymous caller.
        assert_error(client.get("/api/v1/me/"), 401, "login_required")
        assert client.get("/api/v1/tables/").status_code == 200
        return
    assert_error(client.get("/api/v1/tables/"), 401, "login_required")


def test_an_inactive_users_token_stops_working(cast):
    _token, secret = api_token_create(user=cast["dave"], name="x")
    cast["dave"].is_active = False
    cast["dave"].save()
    assert_error(bearer(secret).get("/api/v1/me/"), 401)


def test_last_use_is_recorded(cast):
    token, secret = api_token_create(user=cast["dave"], name="x")
    bearer(secret).get("/api/v1/me/")
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_anonymous_writes_are_401_and_me_needs_a_login():
    client = APIClient()
    assert_error(client.get("/api/v1/me/"), 401, "login_required")
    assert_error(client.post("/api/v1/tables/", {}, format="json"), 401, "login_required")


def test_the_session_works_and_needs_csrf_for_writes(cast):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(cast["carol"])
    assert browser.get("/api/v1/me/").json()["username"] == "carol"
    response = browser.post("/api/v1/tables/", {}, content_type="application/json")
    assert_error(response, 403, "forbidden")
    browser.get(reverse("account_settings"))  # sets the CSRF cookie
    csrf = browser.cookies["csrftoken"].value
    response = browser.post(
        "/api/v1/tables/", {}, content_type="application/json", HTTP_X_CSRFTOKEN=csrf
    )
    assert response.status_code == 201


def test_tokens_are_limited_and_revoking_twice_is_a_user_error(cast):
    from ttr_site.accounts.errors import AccountError
    from ttr_site.accounts.services import MAX_TOKENS

    tokens = [api_token_create(user=cast["alice"], name=f"t{i}")[0] for i in range(MAX_TOKENS)]
    with pytest.raises(AccountError, match="too_many_tokens"):
        api_token_create(user=cast["alice"], name="one more")
    api_token_revoke(user=cast["alice"], token_id=tokens[0].pk)
    with pytest.raises(AccountError, match="token_not_found"):
        api_token_revoke(user=cast["alice"], token_id=tokens[0].pk)
    api_token_create(user=cast["alice"], name="now there is room")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_thirty_tokens_created_at_once_stop_at_the_cap():
    # Each request counted the active tokens, then created one: on PostgreSQL 30 parallel
    # creations from 15 left 23 active. The user's row lock makes the count hold.
    from ttr_site.accounts.services import MAX_TOKENS

    user = UserFactory(username="alice")
    for i in range(MAX_TOKENS - 5):
        api_token_create(user=user, name=f"old {i}")
    start, outcomes = threading.Barrier(30), []

    def create(i):
        try:
            start.wait()
            api_token_create(user=user, name=f"new {i}")
            outcomes.append("created")
        except AccountError as exc:
            outcomes.append(exc.code)
        except Exception as exc:  # noqa: BLE001 - reported below
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["created"] * 5 + ["too_many_tokens"] * 25
    assert user.api_tokens.active().count() == MAX_TOKENS
