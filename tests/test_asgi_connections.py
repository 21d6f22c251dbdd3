"""HTTP requests over ASGI close the database connection their thread opened."""

import asyncio
import threading
from unittest import mock

import pytest
from django.core.handlers.asgi import ASGIHandler
from django.db import connections


async def _get(path: str) -> int:
    scope = {"type": "http", "method": "GET", "path": path, "query_string": b"",
             "headers": [(b"host", b"127.0.0.1")], "server": ("127.0.0.1", 80)}  # fmt: skip
    messages = [{"type": "http.request", "body": b"", "more_body": False}]
    sent = []

    async def receive():
        if messages:
            return messages.pop(0)
        await asyncio.Event().wait()  # the client stays connected

    async def send(message):
        sent.append(message)

    await ASGIHandler()(scope, receive, send)
    return next(m["status"] for m in sent if m["type"] == "http.response.start")


@pytest.mark.django_db(transaction=True)
def test_an_asgi_request_closes_its_persistent_database_connection():
    closed_in = []
    wrapper = type(connections["default"])
    real_close = wrapper.close

    def spy(self):
        closed_in.append(threading.get_ident())
        real_close(self)

    persistent = {"CONN_MAX_AGE": 600}  # Django alone would keep it open after the request
    with (
        mock.patch.dict(connections.settings["default"], persistent),
        mock.patch.object(wrapper, "close", spy),
    ):
        # asyncio.run, as uvicorn: async_to_sync would run the request's code on this thread
        assert asyncio.run(_get("/api/v1/tables/")) == 200
    assert [t for t in closed_in if t != threading.get_ident()], "the request thread's closed"
