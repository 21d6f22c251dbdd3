"""The API's common contract: one error format, pagination, throttling, the schema and docs."""

import pytest
from rest_framework.test import APIClient

from games import services
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db


def test_the_api_root_lists_every_endpoint_and_where_they_are_described(as_user):
    body = as_user(None).get("/api/v1/").json()
    assert body["version"] == "v1" and body["docs"].endswith("/api/docs/")
    endpoints = body["endpoints"]
    assert "/api/v1/tables/" in endpoints and "/api/v1/tables/{table_id}/game/actions/" in endpoints
    assert "/api/v1/tournaments/" in endpoints and "/api/v1/leagues/" in endpoints
    assert all(e.startswith("/api/v1/") and "<" not in e for e in endpoints)


def test_an_unknown_endpoint_is_a_json_404(as_user):
    assert_error(APIClient().get("/api/v1/nothing/here/"), 404, "not_found")
    assert_error(APIClient().post("/api/v2/"), 404, "not_found")


def test_a_wrong_method_is_a_405_in_the_error_format(as_user, cast):
    response = as_user(cast["alice"]).delete("/api/v1/tables/")
    assert_error(response, 405, "method_not_allowed")
    assert "GET" in response["Allow"]


def test_malformed_json_and_wrong_content_types_are_400_and_415(as_user, cast):
    client = as_user(cast["alice"])
    response = client.post("/api/v1/tables/", "{nope", content_type="application/json")
    assert_error(response, 400, "malformed_message")
    response = client.post("/api/v1/tables/", "seat_count=3", content_type="text/plain")
    assert_error(response, 415, "unsupported_media_type")


def test_invalid_fields_are_named(as_user, cast):
    response = as_user(cast["alice"]).post(
        "/api/v1/tables/", {"seat_count": 9, "ruleset": "mars"}, format="json"
    )
    body = assert_error(response, 400, "invalid")
    assert set(body["fields"]) == {"seat_count", "ruleset"}
    assert all(isinstance(m, str) for m in body["fields"]["seat_count"])


def test_a_service_refusal_keeps_its_code_and_detail(as_user, cast):
    response = as_user(cast["alice"]).post(
        "/api/v1/tables/",
        {"ruleset": "new_york", "variant": "standard", "seat_count": 5},
        format="json",
    )
    body = assert_error(response, 400, "invalid_options")
    assert body["detail"]


def test_lists_are_paginated_with_a_bounded_page_size(as_user, cast, settings):
    settings.API_MAX_PAGE_SIZE = 3
    for _ in range(5):
        services.table_create(owner=cast["alice"], seat_count=2)
    client = as_user(None)
    body = client.get("/api/v1/tables/?page_size=2").json()
    assert body["count"] == 5 and len(body["results"]) == 2 and body["next"]
    assert body["previous"] is None
    body = client.get("/api/v1/tables/?page_size=100").json()
    assert len(body["results"]) == 3  # the maximum, not 100
    body = client.get(body["next"]).json()
    assert len(body["results"]) == 2 and body["next"] is None
    assert_error(client.get("/api/v1/tables/?page=9"), 404, "not_found")


def _rates(settings, **rates):
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {
        "DEFAULT_THROTTLE_RATES": settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] | rates
    }


def test_anonymous_reads_are_throttled_with_a_429(settings):
    _rates(settings, anon="3/minute")
    client = APIClient()
    for _ in range(3):
        assert client.get("/api/v1/tables/").status_code == 200
    response = client.get("/api/v1/tables/")
    body = assert_error(response, 429, "rate_limited")
    assert int(response["Retry-After"]) > 0 and body["params"]["wait"] > 0


def test_writes_have_a_stricter_rate_than_reads(as_user, cast, settings):
    _rates(settings, writes="2/minute")
    client = as_user(cast["alice"])
    for _ in range(2):
        assert client.post("/api/v1/tables/", {}, format="json").status_code == 201
    assert_error(client.post("/api/v1/tables/", {}, format="json"), 429, "rate_limited")
    assert client.get("/api/v1/tables/").status_code == 200  # reads still go through


def test_game_actions_have_their_own_rate(as_user, cast, settings):
    from tests.api.conftest import two_player_game

    _rates(settings, actions="1/minute", writes="100/minute")
    table = two_player_game(cast)
    client = as_user(cast["alice"])
    url = f"/api/v1/tables/{table.pk}/game/actions/"
    body = {"action": {"type": "pass"}, "version": 0}
    assert client.post(url, body, format="json").status_code in (409, 422)
    assert_error(client.post(url, body, format="json"), 429, "rate_limited")


@pytest.mark.redis
def test_throttling_counts_in_redis_too(settings):
    import os
    import uuid

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": f"api-test-{uuid.uuid4().hex}",
        }
    }
    _rates(settings, anon="2/minute")
    client = APIClient()
    assert [client.get("/api/v1/leagues/").status_code for _ in range(3)] == [200, 200, 429]


def test_the_schema_is_openapi_3_and_the_docs_are_self_hosted(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/tables/{table_id}/game/actions/" in schema["paths"]
    assert schema["components"]["securitySchemes"]["token"]["scheme"] == "bearer"
    docs = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in docs and "cdn" not in docs.lower() and "/static/" in docs
    assert client.get("/api/redoc/").status_code == 200


def test_the_old_game_address_is_an_alias_of_the_v1_one(as_user, cast):
    from tests.api.conftest import two_player_game

    table = two_player_game(cast)
    client = as_user(cast["bob"])
    old = client.get(f"/api/tables/{table.pk}/game/").json()
    new = client.get(f"/api/v1/tables/{table.pk}/game/").json()
    assert old == new and new["seat"] == 1
    schema = client.get("/api/schema/", {"format": "json"}).json()
    assert not [p for p in schema["paths"] if not p.startswith("/api/v1/")]  # documented once
