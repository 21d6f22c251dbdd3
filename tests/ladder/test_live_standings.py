"""Live standings over the tournament socket (``ladder/live_standings.py``): a result reaches
an open page as a diff that turns the standings it loaded into the new ones; a page that
missed a diff is told so (``from`` is not its version) and reloads from the JSON endpoint;
an older publish never goes out after a newer one."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import Client

from ladder import live_standings, services
from ladder.routing import websocket_urlpatterns
from ladder.standings_diff import apply
from tests.ladder.factories import (
    LeagueFactory,
    MembershipFactory,
    finish_table,
    playing_tables,
    register,
    tournament,
)

pytestmark = pytest.mark.django_db(transaction=True)
APP = URLRouter(websocket_urlpatterns)


def socket(tournament_id, user=None):
    communicator = WebsocketCommunicator(APP, f"/ws/tournament/{tournament_id}/")
    communicator.scope["user"] = user or AnonymousUser()
    return communicator


def model(t, client=None):
    response = (client or Client()).get(f"/tournaments/{t.slug}/standings.json")
    assert response.status_code == 200, response.status_code
    data = json.loads(response.content)
    return data, live_standings.model_rows(data)


async def next_standings(communicator) -> dict:
    """The next ``standings`` frame (other frames pass by)."""
    while True:
        frame = json.loads(await communicator.receive_from(timeout=10))
        if frame["type"] == "standings":
            return frame


@pytest.fixture
def running(cast, eager_tasks):
    """Alice's tournament of the cast, round 1 in play at one table of four."""
    t = tournament(cast["alice"], round_count=2)
    entries = register(t, [cast[name] for name in ("alice", "bob", "carol", "dave")])
    services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    t.refresh_from_db()
    return t, {e.user.username: e for e in entries}


def test_a_result_reaches_an_open_page_as_a_diff_to_its_standings(running):
    t, entries = running
    loaded, rows = model(t)
    assert [row["points"] for row in rows] == [0, 0, 0, 0]
    assert loaded["key"] == "player" and loaded["rank"] == "place"
    (table,) = playing_tables(t)
    seat_of = {s.entry_id: s.seat for s in table.seats.all()}
    ranks = [0] * 4
    for place, name in enumerate(["dave", "carol", "bob", "alice"], start=1):
        ranks[seat_of[entries[name].pk]] = place

    async def scenario():
        watcher = socket(t.pk)
        assert (await watcher.connect())[0]
        await database_sync_to_async(finish_table)(table, ranks)
        frame = await next_standings(watcher)
        await watcher.disconnect()
        return frame

    frame = async_to_sync(scenario)()
    assert frame["from"] == loaded["v"] and frame["v"] > loaded["v"]
    after = apply(rows, frame, key="player", rank="place")
    assert [row["player"] for row in after][:1] == [entries["dave"].pk]
    assert after[0]["points"] == 12 and after[0]["games"] == 1
    assert after == model(t)[1]  # what a reload would give


def test_a_lost_model_tells_pages_to_reload_and_an_older_publish_is_dropped(running):
    t, entries = running
    loaded, rows = model(t)
    changed = [dict(r) for r in reversed(rows)]
    for place, row in enumerate(changed, start=1):
        row["place"], row["points"] = place, 12.0 - 4 * place

    async def scenario():
        watcher = socket(t.pk)
        assert (await watcher.connect())[0]
        publish = database_sync_to_async(live_standings.publish)
        v = loaded["v"]
        await publish(tournament_id=t.pk, version=v + 2, before=rows, after=changed)
        chained = await next_standings(watcher)
        # An older version after a newer one: nothing goes out.
        await publish(tournament_id=t.pk, version=v + 1, before=rows, after=rows)
        await database_sync_to_async(cache.delete)(f"live-standings:{t.pk}")
        await publish(tournament_id=t.pk, version=v + 3, before=changed, after=rows)
        lost = await next_standings(watcher)
        await watcher.disconnect()
        return chained, lost

    chained, lost = async_to_sync(scenario)()
    assert (chained["from"], chained["v"]) == (loaded["v"], loaded["v"] + 2)
    assert apply(rows, chained, key="player", rank="place") == changed
    assert (lost["from"], lost["v"]) == (None, loaded["v"] + 3)
    assert model(t)[0]["v"] == loaded["v"] + 3


def test_bad_frames_get_errors_and_the_socket_stays_open(running):
    t, _ = running

    async def scenario():
        watcher = socket(t.pk)
        assert (await watcher.connect())[0]
        for bad in ["{", json.dumps({"type": "standings", "v": 1}), json.dumps({"type": 3})]:
            await watcher.send_to(text_data=bad)
            error = json.loads(await watcher.receive_from(timeout=5))
            assert error["type"] == "error" and error["code"] == "malformed_message"
        await watcher.send_to(text_data=json.dumps({"type": "ping"}))
        assert json.loads(await watcher.receive_from(timeout=5)) == {"type": "pong"}
        await watcher.disconnect()

    async_to_sync(scenario)()


def test_a_private_tournaments_standings_stay_private(cast, eager_tasks):
    league = LeagueFactory(is_private=True)
    MembershipFactory(league=league, user=cast["alice"], role="admin")
    t = tournament(cast["alice"], league=league)
    outsider = Client()
    outsider.force_login(cast["bob"])
    assert outsider.get(f"/tournaments/{t.slug}/standings.json").status_code == 404
    assert Client().get(f"/tournaments/{t.slug}/standings.json").status_code == 404
    member = Client()
    member.force_login(cast["alice"])
    assert model(t, member)[0]["rows"] == []


def test_a_publish_that_gave_up_waiting_leaves_the_holders_lock_alone(monkeypatch):
    """A publish waits at most LOCK_SECONDS for another; when it goes ahead without the lock,
    leaving must not free the lock the other publish still holds (a third would then race it)."""
    monkeypatch.setattr(live_standings, "LOCK_SECONDS", 1)
    name = "live-standings-lock:4242"
    cache.set(name, "the other publish", 60)
    with live_standings._lock(4242):
        pass
    assert cache.get(name) == "the other publish"
    cache.delete(name)
    with live_standings._lock(4242):
        assert cache.get(name) is not None
    assert cache.get(name) is None
