"""Web restart drill: mid-game, one web process is stopped (SIGTERM, uvicorn's graceful
shutdown) and a new one started on its port; later the other is killed (SIGKILL) and
replaced the same way. The clients reconnect with backoff, resync from the full frame and
play on to the end: no move lost, none applied twice."""

import asyncio
import signal
import time

import pytest

from tests.reliability.checks import assert_game_is_sound
from tests.reliability.players import open_game, play, players_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def _when(players, version: int) -> None:
    while max(p.version for p in players) < version:
        await asyncio.sleep(0.05)


def test_clients_reconnect_and_resync_through_web_restarts(drill_site):
    site = drill_site
    setup = open_game(site, tag="restart", seats=3, humans=3)
    players = players_for(site, setup)
    restarts = []

    async def restart_web_processes():
        for index, sig, at in ((0, signal.SIGTERM, 40), (1, signal.SIGKILL, 110)):
            await _when(players, at)
            down = time.monotonic()
            await asyncio.to_thread(site.stop_web, index, sig)
            await asyncio.sleep(1)  # the clients of that process retry meanwhile
            await asyncio.to_thread(site.start_web, index)
            restarts.append((sig.name, round(time.monotonic() - down, 1)))

    started = time.monotonic()
    asyncio.run(play(players, timeout=150, during=restart_web_processes))
    summary = assert_game_is_sound(site, setup["game"], players)
    # Every client of each stopped process came back on a new connection.
    assert all(p.connections >= 2 for p in players)
    print(f"web restarts {restarts}: {summary} in {time.monotonic() - started:.1f}s")
