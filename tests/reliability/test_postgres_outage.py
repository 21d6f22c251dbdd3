"""PostgreSQL outage drill: mid-game the TCP proxy between the site and PostgreSQL is cut
(every connection reset, new ones refused) for a few seconds, then restored.

During the cut pages and API calls get a clear 503 (no traceback, not a 500) and socket
actions an ``unavailable`` error frame on a socket that stays open; afterwards the game goes
on to the end with its history whole."""

import asyncio
import json
import time
import urllib.error
import urllib.request

import pytest

from tests.reliability import clock_drill
from tests.reliability.checks import assert_game_is_sound
from tests.reliability.players import open_game, play, players_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
CUT_SECONDS = 4


def _fetch(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=15) as response:
            return response.status, response.headers.get("Retry-After", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Retry-After", ""), error.read()


def test_a_database_outage_is_a_clear_503_and_no_game_is_harmed(drill_site):
    site = drill_site
    setup = open_game(site, tag="pgcut", seats=3, humans=2)
    players = players_for(site, setup)
    answers = []

    async def cut_the_database():
        while max(p.version for p in players) < 40:
            await asyncio.sleep(0.05)
        await asyncio.to_thread(site.proxy.cut)
        await asyncio.sleep(1)  # let the players' actions meet the outage
        for url in site.urls:
            for path in (f"/table/{setup['table']}/", "/api/v1/tables/"):
                answers.append((path, *await asyncio.to_thread(_fetch, url + path)))
        await asyncio.sleep(CUT_SECONDS - 1)
        await asyncio.to_thread(site.proxy.restore)

    started = time.monotonic()
    asyncio.run(play(players, timeout=150, during=cut_the_database))
    for path, status, retry_after, body in answers:
        assert status == 503 and retry_after, (path, status, body[:300])
        assert b"Traceback" not in body
        if path.startswith("/api/"):
            assert json.loads(body)["code"] == "unavailable"
        else:
            assert b"The database is unreachable right now" in body
    # Actions sent during the cut were refused with an error frame, on sockets that stayed
    # open: nobody had to reconnect.
    assert sum(p.errors["unavailable"] for p in players) >= 1
    assert all(p.connections == 1 for p in players), [p.connections for p in players]
    summary = assert_game_is_sound(site, setup["game"], players)
    for url in site.urls:
        assert _fetch(url + f"/table/{setup['table']}/")[0] == 200
    print(f"postgres cut: {summary} in {time.monotonic() - started:.1f}s")


def test_a_seat_keeps_its_time_through_a_database_outage(drill_site):
    """PostgreSQL cut past the silent seat's deadline: nobody could move and no sweep ran; the
    first sweep after gives the time back (once, though the web beats went stale too)."""
    site = drill_site
    figures = clock_drill.drill(site, tag="clockpg", down=site.proxy.cut, up=site.proxy.restore)
    assert [cause for cause, _ in figures["outages"]][:1] == ["sweep"], figures
    figures.pop("setup")
    print(f"postgres down: {figures}")
