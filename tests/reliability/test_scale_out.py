"""Scale-out: two web processes and two workers share one Redis and one PostgreSQL, and the
clients of one table, connected to different web processes, each see every move in order."""

import asyncio
import time

import pytest

from tests.reliability.checks import assert_game_is_sound
from tests.reliability.players import open_game, play, players_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def test_clients_on_two_web_processes_see_every_move_in_order(drill_site):
    site = drill_site
    setup = open_game(site, tag="scale", seats=4, humans=4)
    # Seats 0 and 2 (and a watcher) on the first process, seats 1 and 3 on the second.
    players = players_for(site, setup, quiet=None)
    started = time.monotonic()
    asyncio.run(play(players, timeout=120))
    summary = assert_game_is_sound(site, setup["game"], players)
    for player in players:
        # One connection, its full frame first, then one push per version: no gap, no
        # reordering, no duplicate; each push's log continues exactly where the last ended.
        assert player.connections == 1 and player.gaps == 0
        (first_connection, first_version, first_log_start), *pushes = player.frames
        assert first_log_start == 0
        versions = [version for _, version, _ in pushes]
        assert versions == list(range(first_version + 1, summary["version"] + 1))
        assert all(log_start > 0 for _, _, log_start in pushes)
    assert {p.url for p in players} == set(site.urls)
    print(f"scale-out: {summary} in {time.monotonic() - started:.1f}s")
