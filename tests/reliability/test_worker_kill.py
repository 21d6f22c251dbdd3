"""Worker kill drill: every Celery worker is SIGKILLed twice in one game, once while a
silent player's turn timeout is due and once in the middle of bot play, and replaced after
a pause. The timeout tasks and bot moves the dead workers held are lost with them; the
deadlines on the game row and beat's sweep make the new workers resume both, and the version
check makes sure nothing is applied twice."""

import json
import time

import pytest

from games import engine
from tests.reliability import clock_drill
from tests.reliability.checks import assert_history_is_whole, game_row
from tests.reliability.players import open_game

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
MOVE_SECONDS = 2


def _timeouts(site, game_id: int, seat: int) -> int:
    ((count,),) = site.sql(
        "SELECT count(*) FROM games_gameevent WHERE game_id = %s AND seat = %s AND by_timeout",
        (game_id, seat),
    )
    return count


def _timed_out_turns(site, game_id: int, seat: int) -> list[tuple]:
    """The turns (``"setup"`` or the turn counter) in which the seat's moves were made by
    its timeouts, one entry per timed-out step (a turn is one or two steps)."""
    (seed,) = site.sql("SELECT seed FROM games_game WHERE id = %s", (game_id,))[0]
    events = site.sql(
        "SELECT seat, action, by_timeout FROM games_gameevent WHERE game_id = %s AND seq > 0 "
        "ORDER BY seq",
        (game_id,),
    )
    state = engine.new_game(seats=3, seed=seed)
    turns = []
    for actor, action, by_timeout in events:
        if actor == seat and by_timeout:
            turns.append("setup" if state.phase == "setup" else state.turn)
        action = action if isinstance(action, dict) else json.loads(action)
        engine.apply_action(state, actor, action)
    return turns


def _abandoned(site, game_id: int, seat: int) -> bool:
    ((abandoned,),) = site.sql(
        "SELECT abandoned FROM games_seat s JOIN games_game g ON g.table_id = s.table_id "
        "WHERE g.id = %s AND s.position = %s",
        (game_id, seat),
    )
    return abandoned


def _deciding(site, game_id: int) -> list[int]:
    return engine.current_seats(engine.from_json(game_row(site, game_id)[1]))


def _kill_and_replace(site, game_id: int, pause: float) -> int:
    """Kill every worker, wait ``pause`` seconds, start two new ones; the moves made while
    no worker ran (none, or one already in flight)."""
    site.kill_workers()
    before = game_row(site, game_id)[0]
    time.sleep(pause)
    during = game_row(site, game_id)[0] - before
    site.start_worker()
    site.start_worker()
    return during


def test_timeouts_and_bot_moves_resume_after_the_workers_are_killed(drill_site):
    site = drill_site
    started = time.monotonic()
    setup = open_game(site, tag="worker", seats=3, humans=1, move_seconds=MOVE_SECONDS)
    game_id, (silent,) = setup["game"], setup["seats"]
    # 1. The silent player has timed out once and it is its turn again: its next timeout
    # task sits in a worker, waiting for the deadline. Kill the workers past that deadline.
    site.wait_for(lambda: _timeouts(site, game_id, silent) >= 1, what="a first timeout")
    site.wait_for(lambda: _deciding(site, game_id) == [silent], what="the silent seat's turn")
    idle = _kill_and_replace(site, game_id, pause=MOVE_SECONDS + 1)
    assert idle == 0  # nobody moved for the silent seat while no worker ran
    site.wait_for(lambda: _timeouts(site, game_id, silent) >= 2, what="the timeout resuming")
    # 2. Three timeouts hand the seat to a bot; kill the workers again mid-bot-play.
    site.wait_for(lambda: _abandoned(site, game_id, silent), what="the seat handed to a bot")
    version = game_row(site, game_id)[0]
    site.wait_for(lambda: game_row(site, game_id)[0] >= version + 20, what="bot play")
    _kill_and_replace(site, game_id, pause=2)
    site.wait_for(lambda: game_row(site, game_id)[3] == "finished", timeout=120,
                  what="the game finishing after the restarts")  # fmt: skip
    assert_history_is_whole(site, game_id)
    # Exactly three timed-out turns, then a bot: a timeout run twice would have counted one
    # turn twice and handed the seat over a turn early.
    turns = _timed_out_turns(site, game_id, silent)
    assert len(set(turns)) == 3 and all(turns.count(t) <= 2 for t in turns), turns
    ((by_the_seat,),) = site.sql(
        "SELECT count(*) FROM games_gameevent WHERE game_id = %s AND seat = %s AND NOT by_bot",
        (game_id, silent),
    )
    assert by_the_seat == len(turns)  # after its third timed-out turn, only the bot moved
    print(f"worker kills: {game_row(site, game_id)[0]} versions, timed-out turns {turns} "
          f"in {time.monotonic() - started:.1f}s")  # fmt: skip


def test_a_seat_keeps_its_time_while_the_workers_and_beat_are_down(drill_site):
    """Every worker and beat killed past the silent seat's deadline: no sweep runs, and the
    first one after gives the seat the time back before it could time it out."""
    site = drill_site

    def down():
        site.kill_workers()
        site.kill_beat()

    def up():
        site.start_beat()
        site.start_worker(wait=False)
        site.start_worker()

    figures = clock_drill.drill(site, tag="clockworker", down=down, up=up)
    assert [cause for cause, _ in figures["outages"]][:1] == ["sweep"], figures
    figures.pop("setup")
    print(f"worker and beat down: {figures}")
