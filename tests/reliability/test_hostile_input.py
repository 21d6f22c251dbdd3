"""Regressions for what the fuzzers (tests/reliability/fuzz.py, fuzz_http.py) found, each
the smallest input that showed it."""

import json
import urllib.error
import urllib.request

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from rest_framework.test import APIClient

from games.models import Table
from tests.api.test_bot_client_live import make_token
from tests.games.test_table_socket import is_view, receive_until, socket
from tests.live import LiveSite

pytestmark = pytest.mark.django_db(transaction=True)


def _error(frames: list) -> dict:
    return frames[-1]


def test_a_frame_nested_thousands_deep_is_malformed_and_the_socket_stays(started, cast):
    # It raised RecursionError in json.loads, which ended the consumer: a dropped socket.
    async def scenario():
        alice = socket(started.pk, cast["alice"])
        assert (await alice.connect())[0]
        await receive_until(alice, is_view(0))
        for frame in ("[" * 8000, "{" * 8000, "[" * 5000 + "]" * 5000):
            await alice.send_to(text_data=frame)
            error = _error(await receive_until(alice, lambda f: f["type"] == "error"))
            assert error["code"] == "malformed_message"
        await alice.send_json_to({"type": "ping"})
        await receive_until(alice, lambda f: f["type"] == "pong")
        await alice.disconnect()

    async_to_sync(scenario)()


@pytest.mark.parametrize("text", ["\x00", "hi\x00there", "\ud800", "ok \udfff"])
def test_chat_text_no_column_can_hold_is_refused_not_a_server_error(started, cast, text):
    # NUL: PostgreSQL refused the row; a lone surrogate: not encodable as UTF-8. Both were a
    # server_error frame.
    async def scenario():
        alice = socket(started.pk, cast["alice"])
        assert (await alice.connect())[0]
        await receive_until(alice, is_view(0))
        await alice.send_to(text_data=json.dumps({"type": "chat", "text": text}))
        error = _error(await receive_until(alice, lambda f: f["type"] == "error"))
        await alice.disconnect()
        return error

    assert async_to_sync(scenario)()["code"] == "malformed_message"
    assert started.chat.count() == 0


@pytest.mark.parametrize("path", ["/table/1/invite/%00/", "/u/%00/", "/leagues/x/invite/a%00b/"])
def test_a_nul_in_the_address_is_a_404(started, path):
    # An invite token or username with a NUL reached PostgreSQL: a 500.
    assert Client().get(path).status_code == 404


def test_a_nul_in_an_api_address_is_the_apis_404(started):
    response = APIClient().get("/api/v1/users/a%00b/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


@pytest.mark.parametrize(
    "body",
    [
        '{"ruleset": "europe", "variant": "\\ud800", "seat_count": 2}',
        '{"ruleset": "europe", "variant": "classic", "seat_count": 2, "options": {"\\u0000": 1}}',
        '{"league": "europe", "time_control": "\\udfff"}',
    ],
)
def test_api_json_no_column_can_hold_is_a_400(cast, body):
    # A lone surrogate or a NUL in a JSON string reached the database: a 500.
    client = APIClient()
    client.force_authenticate(cast["alice"])
    for path in ("/api/v1/tables/", "/api/v1/queue/"):
        response = client.post(path, body, content_type="application/json")
        assert response.status_code == 400, (path, response.content[:300])
        assert response.json()["code"] == "malformed_message"


def _one_line_logs(caplog) -> list[str]:
    """The log records of the request; none carries a traceback or spans lines."""
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("django")]
    assert all(r.exc_info is None and r.exc_text is None for r in caplog.records), lines
    assert all("\n" not in line for line in lines), lines
    return lines


@pytest.mark.parametrize(
    "body",
    [
        "[" * 500 + "]" * 500,
        '{"a": ' * 600 + "1" + "}" * 600,
        "[" * 100_000,
        '{"seat_count": 2, "options": ' + "[" * 33 + "]" * 33 + "}",
    ],
    ids=["list-500", "object-600", "open-100000", "list-33-inside"],
)
def test_api_json_nested_too_deeply_is_a_400_logged_in_one_line(cast, body, caplog):
    # RecursionError in json.loads or in the parser's own check: a 500 with a ~130 KB traceback.
    client = APIClient()
    client.force_authenticate(cast["alice"])
    response = client.post("/api/v1/tables/", body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert response.json()["code"] == "malformed_message" and response.json()["message"]
    assert _one_line_logs(caplog) == ["Bad Request: /api/v1/tables/"]


def test_an_api_body_over_the_upload_limit_is_a_413_in_the_error_format(cast, caplog):
    # Django's RequestDataTooBig became its HTML "Bad Request (400)" page.
    client = APIClient()
    client.force_authenticate(cast["alice"])
    body = json.dumps({"seat_count": 2, "name": "a" * 3_000_000})
    response = client.post("/api/v1/tables/", body, content_type="application/json")
    assert response.status_code == 413 and response["Content-Type"] == "application/json"
    assert response.json()["code"] == "too_large" and response.json()["message"]
    assert _one_line_logs(caplog) == ["Request Entity Too Large: /api/v1/tables/"]
    assert not Table.objects.exists()


def test_the_real_server_answers_deep_and_huge_api_bodies_in_the_error_format(tmp_path):
    # The same two bodies through uvicorn (manage.py serve), where the body arrives by ASGI.
    site = LiveSite("embedded", tmp_path).start()
    try:
        token = make_token(site)
        for body, status, code in [
            ("[" * 5000 + "]" * 5000, 400, "malformed_message"),
            (json.dumps({"name": "a" * 3_000_000}), 413, "too_large"),
        ]:
            request = urllib.request.Request(
                site.url + "/api/v1/tables/", body.encode(), method="POST",
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )  # fmt: skip
            with pytest.raises(urllib.error.HTTPError) as error:
                urllib.request.urlopen(request, timeout=30)
            assert error.value.code == status
            assert json.loads(error.value.read())["code"] == code
        assert "Traceback" not in site.output() and "RecursionError" not in site.output()
    finally:
        site.stop()
