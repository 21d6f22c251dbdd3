"""Bots and timeouts on a live site with a real Celery worker (and beat), not a mock.

Production mode: uvicorn, a Celery worker and beat over Redis, PostgreSQL. Embedded mode:
the one ``manage.py serve`` process (worker and beat in threads, in-memory broker).
"""

import json

import pytest

from games import engine
from tests.live import LiveSite

LIVE = [pytest.mark.postgres, pytest.mark.redis]
FAST = {"BOT_MOVE_DELAY": "0.02", "BOT_STALL_SECONDS": "3"}

CREATE = """
from games import services
from games.models import Game
from ttr_site.accounts.models import User
owner = User.objects.create_user("owner", "owner@example.com", "pw-long-enough-1")
table = services.table_create(owner=owner, seat_count={seats}, move_seconds={move_seconds})
for _ in range({seats} - 1):
    services.table_add_bot(table_id=table.pk, by=owner, level="easy")
{after}
print("GAME", Game.objects.get(table=table).pk)
"""


def create_game(site, *, seats, move_seconds=90, owner_leaves=False):
    after = "services.table_leave(table_id=table.pk, user=owner)" if owner_leaves else ""
    code = CREATE.format(seats=seats, move_seconds=move_seconds, after=after)
    out = site.manage("shell", "--no-imports", "-c", code)
    return int(out.split("GAME")[1].split()[0])


def game_row(site, game_id):
    (row,) = site.sql(
        "SELECT g.version, g.state, g.seed, t.status FROM games_game g "
        "JOIN games_table t ON t.id = g.table_id WHERE g.id = %s",
        (game_id,),
    )
    return row


def assert_history_is_whole(site, game_id):
    """No move lost or applied twice: events 0 (the set-up) to version, and replaying their
    actions from the seed gives exactly the stored state and the log entries they hold."""
    version, state_json, seed, _ = game_row(site, game_id)
    events = site.sql(
        "SELECT seq, seat, action, entries FROM games_gameevent WHERE game_id = %s ORDER BY seq",
        (game_id,),
    )
    assert [e[0] for e in events] == list(range(0, version + 1))
    stored = engine.from_json(state_json)
    actions = [(seat, a if isinstance(a, dict) else json.loads(a)) for _, seat, a, _ in events[1:]]
    replayed = engine.replay(
        {"ruleset": "europe", "variant": stored.variant, "seats": stored.n, "seed": seed},
        actions,
    )
    made = [json.loads(e) if isinstance(e, str) else e for *_, e in events]  # SQLite: text
    entries = [entry for step in made for entry in step]
    assert engine.detach_log(replayed) == entries
    assert engine.to_json(replayed) == state_json


@pytest.mark.parametrize("mode", [pytest.param("production", marks=LIVE), "embedded"])
def test_a_silent_player_times_out_three_times_and_a_bot_finishes_the_game(mode, tmp_path):
    site = LiveSite(mode, tmp_path, extra_env=FAST).start()
    try:
        game_id = create_game(site, seats=2, move_seconds=2)
        site.wait_for(lambda: game_row(site, game_id)[3] == "finished", timeout=120,
                      what="the game finishing")  # fmt: skip
        ((abandoned, timeouts),) = site.sql(
            "SELECT s.abandoned, (SELECT count(*) FROM games_gameevent e JOIN games_game g "
            "ON g.id = e.game_id WHERE g.id = %s AND e.seat = s.position AND e.by_timeout) "
            "FROM games_seat s JOIN games_game g ON g.table_id = s.table_id "
            "WHERE g.id = %s AND s.user_id IS NOT NULL",
            (game_id, game_id),
        )
        assert abandoned in (True, 1)
        assert timeouts >= 3  # three timed-out turns (a turn may hold two steps)
        assert_history_is_whole(site, game_id)
    finally:
        site.stop()


# The killed-worker drill lives in tests/reliability/test_worker_kill.py, extended: both the
# timeout of a silent seat and bot moves resume after every worker is SIGKILLed and replaced.
