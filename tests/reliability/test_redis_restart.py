"""Redis restart drill: the site's Redis (its own, not the shared one) is killed mid-game and
started again empty, as after a crash. With no manual step the site recovers: the web
processes' pub/sub pushes, the Celery broker (workers and beat) and the cache reconnect,
the game finishes with its history whole, and pages load on every web process."""

import asyncio
import json
import time
import urllib.request

import pytest
import websockets
from websockets.asyncio.client import connect

from tests.reliability import clock_drill
from tests.reliability.checks import assert_game_is_sound
from tests.reliability.players import open_game, play, players_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
DOWN_SECONDS = 2


async def _when(players, version: int) -> None:
    while max(p.version for p in players) < version:
        await asyncio.sleep(0.05)


async def _view(url: str, setup: dict) -> dict:
    ws_url = url.replace("http", "ws", 1) + f"/ws/table/{setup['table']}/"
    headers = {"Authorization": f"Bearer {setup['watcher']}"}
    async with connect(ws_url, additional_headers=headers, open_timeout=10) as ws:
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if frame["type"] == "view":
                return frame


def _fresh_view(site, url: str, setup: dict) -> dict:
    """The first view frame of a new socket on ``url``; a refused socket fails with the
    site's log (why it answered the handshake with an error)."""
    try:
        return asyncio.run(_view(url, setup))
    except websockets.exceptions.InvalidStatus as exc:
        log = site.output()
        last = log.rfind("Traceback")  # the processes' logs follow one another: find the error
        shown = log[last : last + 6000] if last >= 0 else log[-6000:]
        raise AssertionError(f"{url}: {exc}\n{shown}") from None


def test_the_site_recovers_from_a_redis_restart(drill_site):
    site = drill_site
    setup = open_game(site, tag="redis", seats=3, humans=2)
    players = players_for(site, setup)

    async def restart_redis():
        await _when(players, 40)
        site.redis.kill()
        await asyncio.sleep(DOWN_SECONDS)
        await asyncio.to_thread(site.redis.start)

    started = time.monotonic()
    asyncio.run(play(players, timeout=150, during=restart_redis))
    summary = assert_game_is_sound(site, setup["game"], players)
    for url in site.urls:
        for path in ("/", f"/table/{setup['table']}/", "/play/"):
            with urllib.request.urlopen(url + path, timeout=10) as response:
                assert response.status == 200, (url, path)
        # A new socket on each process: the channel layer subscribes and the cache counts
        # presence again.
        assert _fresh_view(site, url, setup)["view"]["final"]
    print(f"redis restart: {summary} in {time.monotonic() - started:.1f}s")


def test_a_seat_keeps_its_time_through_a_redis_restart(drill_site):
    """Redis (the broker beat sends the sweep through) down past the silent seat's deadline:
    the sweeps that could not be sent are an outage, given back when they come again."""
    site = drill_site
    figures = clock_drill.drill(site, tag="clockredis", down=site.redis.kill, up=site.redis.start)
    assert [cause for cause, _ in figures["outages"]][:1] == ["sweep"], figures
    # Every web process takes a socket at once after the restart (its dead connections to
    # Redis reconnect: ttr_site/redis_retry.py).
    for url in site.urls:
        assert _fresh_view(site, url, figures["setup"])["type"] == "view"
    figures.pop("setup")
    print(f"redis down: {figures}")


def test_the_first_socket_after_a_redis_restart_is_accepted(drill_site):
    """Every web process holds Redis connections made before the restart (the cache's pool,
    the channel layer's): the first socket after it must not be the one that finds them
    stale."""
    site = drill_site
    setup = open_game(site, tag="firstsocket", seats=2, humans=1)
    for url in site.urls:
        assert _fresh_view(site, url, setup)["type"] == "view"
    site.redis.kill()
    time.sleep(DOWN_SECONDS)
    site.redis.start()
    for url in site.urls:
        assert _fresh_view(site, url, setup)["type"] == "view"
