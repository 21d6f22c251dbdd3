"""Web restart drill: mid-game, one web process is stopped (SIGTERM, uvicorn's graceful
shutdown) and a new one started on its port; later the other is killed (SIGKILL) and
replaced the same way. The clients reconnect with backoff, resync from the full frame and
play on to the end: no move lost, none applied twice."""

import asyncio
import signal
import threading
import time

import pytest

from tests.reliability import clock_drill
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


def _stop_all_web(site) -> None:
    """SIGTERM every web process at once, and wait until all have stopped."""
    stopping = [
        threading.Thread(target=site.stop_web, args=(index, signal.SIGTERM))
        for index in list(site._web)
    ]
    for thread in stopping:
        thread.start()
    for thread in stopping:
        thread.join()


def _start_all_web(site) -> None:
    for index in range(len(site.ports)):
        site.start_web(index)


def test_a_seat_keeps_its_time_when_every_web_process_restarts_at_once(drill_site):
    """A deploy that stops both web processes (SIGTERM) and starts them after the silent
    seat's deadline: nobody could move, so nobody timed out, and the time comes back."""
    site = drill_site
    figures = clock_drill.drill(
        site, tag="clockweb", down=lambda: _stop_all_web(site), up=lambda: _start_all_web(site)
    )
    assert "web" in [cause for cause, _ in figures["outages"]], figures
    figures.pop("setup")
    print(f"web processes down: {figures}")


def test_a_rolling_restart_of_the_web_processes_is_no_outage(drill_site):
    """A deploy that restarts the web processes one after the other: one serves throughout, so
    the clocks run on untouched (no outage), and the seat moves in its own time."""
    site = drill_site
    started = time.monotonic()
    setup, game_id = clock_drill.silent_seat_game(site, tag="clockroll", move_seconds=120)
    (seat,) = setup["seats"]
    version, deadline = clock_drill.clock(site, game_id)
    t0 = time.time()
    for index in range(len(site.ports)):
        site.stop_web(index, signal.SIGTERM)
        site.start_web(index)
    time.sleep(4)  # more than a web beat's lifetime: a gap in them would be seen by now
    assert clock_drill.clock(site, game_id) == (version, deadline)
    assert clock_drill.outages_since(site, t0) == []
    assert clock_drill.timeouts(site, game_id, version) == 0
    assert asyncio.run(clock_drill.move_now(site.urls[1], setup, version)) > version
    assert clock_drill.moved_by(site, game_id, version + 1) == (seat, False)
    print(f"rolling web restart: no outage, in {time.monotonic() - started:.1f}s")
