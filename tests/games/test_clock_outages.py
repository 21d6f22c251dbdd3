"""Outage time given back (games.services.clock_outages): the sweep's heartbeat, the web
processes' beats, and what a shifted clock means for moves and banks."""

import asyncio
import threading
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.db import connection, transaction
from django.utils import timezone

from games import engine, services, tasks, web_beat
from games.errors import GameError
from games.models import ClockBeat, ClockOutage, Game, Seat, WebBeat
from ttr_site import pools

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(cast):
    """alice and bob, 30 s a move, no bank; both choosing their tickets."""
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=30)
    services.table_join(table_id=table.pk, user=cast["bob"])
    return Game.objects.get(table=table)


def _turn_started(game, seconds_ago: float, now=None) -> None:
    """Put the game's current turn ``seconds_ago`` in the past (deadline with it)."""
    now = now or timezone.now()
    start = now - timedelta(seconds=seconds_ago)
    move = timedelta(seconds=game.table.move_seconds)
    bank = timedelta(seconds=min(s.bank_left for s in Seat.objects.filter(table=game.table)))
    Game.objects.filter(pk=game.pk).update(turn_started_at=start, deadline=start + move + bank)
    game.refresh_from_db()


def _last_beat(seconds_ago: float, now=None) -> None:
    now = now or timezone.now()
    ClockBeat.objects.update_or_create(
        pk=1, defaults={"beat_at": now - timedelta(seconds=seconds_ago)}
    )


def _left(game, now) -> float:
    game.refresh_from_db()
    return (game.deadline - now).total_seconds()


def test_a_gap_in_the_sweep_beat_gives_the_running_games_the_time_back(game):
    now = timezone.now()
    _turn_started(game, 60, now)  # 30 s past its deadline...
    _last_beat(45, now)  # ...but no sweep ran for 45 s: the outage began 44 s ago (1 s late)
    beat = services.clock_sweep_beat(now=now)
    assert beat.serving
    assert _left(game, now) == pytest.approx(-30 + 44)
    assert (game.turn_started_at - (now - timedelta(seconds=60))).total_seconds() == 44
    outage = ClockOutage.objects.get()
    assert (outage.cause, outage.games) == ("sweep", 1)
    assert outage.seconds == pytest.approx(44)
    assert outage.ended_at == now


def test_the_sweep_gives_the_time_back_before_it_times_anyone_out(game):
    _turn_started(game, 40)  # 10 s overdue
    _last_beat(30)
    assert tasks.sweep_deadlines() == 0  # nobody timed out
    game.refresh_from_db()
    assert game.version == 0 and game.deadline > timezone.now()


def test_no_gap_no_shift(game):
    _turn_started(game, 40)  # 10 s overdue
    deadline = game.deadline
    _last_beat(1)
    assert tasks.sweep_deadlines() == 1  # timed out, as before
    assert not ClockOutage.objects.exists()
    game.refresh_from_db()
    assert game.version == 2  # both seats' set-up choices made for them
    assert ClockBeat.objects.get().beat_at > deadline


def test_the_first_beat_ever_is_no_outage(game):
    ClockBeat.objects.all().delete()
    _turn_started(game, 10)
    before = game.deadline
    services.clock_sweep_beat()
    game.refresh_from_db()
    assert game.deadline == before and not ClockOutage.objects.exists()


def test_a_turn_that_began_during_the_outage_starts_afresh_when_it_ends(game):
    now = timezone.now()
    _turn_started(game, 10, now)
    _last_beat(45, now)
    services.clock_sweep_beat(now=now)
    game.refresh_from_db()
    assert game.turn_started_at == now
    assert _left(game, now) == pytest.approx(30)


def test_finished_games_keep_their_clock(game):
    _turn_started(game, 10)
    game.table.status = "finished"
    game.table.save(update_fields=["status"])
    before = game.deadline
    _last_beat(45)
    services.clock_sweep_beat()
    game.refresh_from_db()
    assert game.deadline == before
    assert ClockOutage.objects.get().games == 0


def test_a_move_inside_the_returned_time_is_accepted_and_the_bank_not_charged(cast):
    """Move 30 s, bank 60 s. The turn began 100 s ago, so the deadline passed 10 s ago; the
    sweep had not run for 60 s (59 s of outage). The move made now is in time, and the bank
    pays only the 11 s of overtime outside the outage (100 - 59 - 30), not 60 s."""
    table = services.table_create(
        owner=cast["alice"], seat_count=2, move_seconds=30, bank_seconds=60
    )
    services.table_join(table_id=table.pk, user=cast["bob"])
    game = Game.objects.get(table=table)
    users = {0: cast["alice"], 1: cast["bob"]}
    for seat in (0, 1):  # both keep their tickets
        legal = engine.legal_actions(engine.from_json(game.state), seat)
        keep = next(a for a in legal if a["type"] == "keep_tickets")
        game = services.game_submit_action(
            game_id=game.pk, user=users[seat], action=keep, expected_version=game.version
        )
    mover = engine.current_seats(engine.from_json(game.state))[0]
    _turn_started(game, 100)
    legal = engine.legal_actions(engine.from_json(game.state), mover)
    action = next(a for a in legal if a["type"] == "draw_card" and a.get("source") == "deck")

    def move():
        return services.game_submit_action(
            game_id=game.pk, user=users[mover], action=action, expected_version=game.version
        )

    with pytest.raises(GameError) as late:
        move()
    assert late.value.code == "time_up"  # without the time given back: too late
    _last_beat(60)
    services.clock_sweep_beat()
    game = move()  # the first card: the turn goes on
    legal = engine.legal_actions(engine.from_json(game.state), mover)
    action = next(a for a in legal if a["type"] == "draw_card" and a.get("source") == "deck")
    move()  # the second: the turn is over, and the bank pays its overtime
    seat = Seat.objects.get(table=table, position=mover)
    assert seat.bank_left == pytest.approx(60 - 11, abs=1)


def test_no_human_times_out_while_no_web_process_is_alive_and_the_time_comes_back(game):
    now = timezone.now()
    _turn_started(game, 40, now)  # 10 s overdue
    WebBeat.objects.create(name="web:1", beat_at=now - timedelta(seconds=20))
    _last_beat(1, now)
    beat = services.clock_sweep_beat(now=now)
    assert not beat.serving
    assert tasks.sweep_deadlines() == 0  # not timed out: nobody can move
    game.refresh_from_db()
    assert game.version == 0
    # A web process is back 5 s later: the 25 s since the last web beat come back.
    later = now + timedelta(seconds=5)
    services.web_beat(name="web:2", now=later)
    beat = services.clock_sweep_beat(now=later)
    assert beat.serving and beat.outage.cause == "web"
    assert beat.outage.seconds == pytest.approx(25)
    assert _left(game, later) == pytest.approx(-15 + 25)


def test_one_web_process_down_among_several_is_no_outage(game):
    now = timezone.now()
    _turn_started(game, 40, now)
    WebBeat.objects.create(name="web:1", beat_at=now - timedelta(seconds=20))
    services.web_beat(name="web:2", now=now)
    _last_beat(1, now)
    assert services.clock_sweep_beat(now=now).serving
    assert tasks.sweep_deadlines() == 1  # the others serve: the timeout stands
    assert not ClockOutage.objects.exists()


def test_a_graceful_stop_of_the_last_web_process_starts_the_outage_at_once(game):
    now = timezone.now()
    services.web_beat(name="web:1", now=now)
    _last_beat(1, now)
    assert services.clock_sweep_beat(now=now).serving
    services.web_stopped(name="web:1", now=now + timedelta(seconds=0.5))
    # Its beat is fresh, but it stopped: from now on nobody serves.
    assert not services.clock_sweep_beat(now=now + timedelta(seconds=1)).serving
    assert ClockBeat.objects.get().web_down_since == now + timedelta(seconds=0.5)


def test_a_database_outage_is_given_back_once_though_it_also_staled_the_web_beats(game):
    """PostgreSQL down 30 s: no sweep and no web beat. The first sweep after gives the 29 s
    back; the web beats come back a second later, and that second is all the web span adds."""
    now = timezone.now()
    _turn_started(game, 10, now - timedelta(seconds=30))  # 10 s into the turn at the cut
    WebBeat.objects.create(name="web:1", beat_at=now - timedelta(seconds=30))
    _last_beat(30, now)
    assert not services.clock_sweep_beat(now=now).serving  # the web beat is stale yet
    later = now + timedelta(seconds=1)
    services.web_beat(name="web:1", now=later)
    services.clock_sweep_beat(now=later)
    given = sum(o.seconds for o in ClockOutage.objects.all())
    assert given == pytest.approx(29 + 1)
    # 30 - 10 = 20 s left at the cut, less the sweep's resolution: the outage counts from
    # when the next sweep was due, a second after the last one.
    assert _left(game, later) == pytest.approx(19)


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres  # it watches the sweeps wait on the row lock in pg_stat_activity
def test_two_sweeps_racing_after_an_outage_shift_once(cast):
    """Both read the stale beat before either writes it (held back by a lock on the row
    here); the compare-and-set lets one of them shift."""
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=30)
    services.table_join(table_id=table.pk, user=cast["bob"])
    game = Game.objects.get(table=table)
    now = timezone.now()
    _turn_started(game, 60, now)
    _last_beat(45, now)
    results = []

    def sweep():
        try:
            results.append(services.clock_sweep_beat(now=now))
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    with transaction.atomic():
        ClockBeat.objects.select_for_update().get(pk=1)
        for thread in threads:
            thread.start()
        _wait_for_blocked_updates(2)
    for thread in threads:
        thread.join(timeout=30)
    assert len(results) == 2
    assert sum(beat.outage is not None for beat in results) == 1
    assert ClockOutage.objects.count() == 1
    assert _left(game, now) == pytest.approx(-30 + 44)


def _wait_for_blocked_updates(count: int) -> None:
    deadline = time.monotonic() + 20
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # else read once per transaction
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND query LIKE 'UPDATE%%games_clockbeat%%'"
            )
            if cursor.fetchone()[0] >= count:
                return
            time.sleep(0.02)
    raise AssertionError("the sweeps never reached the compare-and-set")


@pytest.mark.django_db(transaction=True)
def test_the_web_processes_lifespan_beats_and_records_its_graceful_stop(settings):
    settings.EMBEDDED = False
    settings.WEB_BEAT_SECONDS = 0.05
    sent = []

    async def scenario():
        stop = asyncio.Event()

        async def receive():
            if not sent:
                return {"type": "lifespan.startup"}
            await stop.wait()
            return {"type": "lifespan.shutdown"}

        async def send(message):
            sent.append(message)

        running = asyncio.ensure_future(web_beat.lifespan({"type": "lifespan"}, receive, send))
        for _ in range(200):
            if await _beats():
                break
            await asyncio.sleep(0.05)
        stop.set()
        await running

    try:
        async_to_sync(scenario)()
    finally:
        pools.shutdown()  # its thread's database connection with it
    assert [m["type"] for m in sent] == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    (beat,) = WebBeat.objects.all()
    assert beat.stopped_at is not None
    assert not services.clock_sweep_beat().serving  # it was the only one


async def _beats() -> int:
    from channels.db import database_sync_to_async

    return await database_sync_to_async(WebBeat.objects.count)()


@pytest.mark.django_db(transaction=True)
def test_the_sockets_at_a_shifted_table_get_the_new_clock(cast):
    from channels.db import database_sync_to_async

    from tests.games.test_table_socket import is_view, receive_until, socket

    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=30)
    services.table_join(table_id=table.pk, user=cast["bob"])
    game = Game.objects.get(table=table)
    _turn_started(game, 60)
    _last_beat(45)

    async def scenario():
        alice = socket(table.pk, cast["alice"])
        assert (await alice.connect())[0]
        await receive_until(alice, is_view(0))
        await database_sync_to_async(services.clock_sweep_beat)()
        frame = (await receive_until(alice, lambda f: f["type"] == "clock"))[-1]
        await alice.disconnect()
        return frame

    frame = async_to_sync(scenario)()
    game.refresh_from_db()
    assert frame["version"] == 0
    assert frame["clock"]["turn_started_at"] == game.turn_started_at.isoformat()
    assert frame["clock"]["deadline"] == game.deadline.isoformat()


def test_a_sweep_that_ran_long_is_no_outage(game):
    """Beat, then a sweep that took 5 s (many timeouts at once) touches the beat at its end:
    the next sweep finds no gap."""
    now = timezone.now()
    _turn_started(game, 10, now)
    before = game.deadline
    services.clock_sweep_beat(now=now)
    services.clock_sweep_touch(now=now + timedelta(seconds=5))
    assert services.clock_sweep_beat(now=now + timedelta(seconds=6)).outage is None
    game.refresh_from_db()
    assert game.deadline == before


@pytest.mark.django_db(transaction=True)
def test_a_sweep_the_database_cannot_serve_is_skipped_with_a_warning(game, caplog):
    """Another connection holds the lock the sweep needs past the sweep's wait (SQLite's write
    lock under load in embedded mode; a lock on PostgreSQL): that beat logs one warning, no
    traceback, and frees the sweep's own lock, so the next beat sweeps as usual."""
    from django.db import connections

    _turn_started(game, 60)  # past its deadline
    _last_beat(0.5)
    version = game.version
    holder = connections.create_connection("default")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET lock_timeout = '200ms'")
        else:
            cursor.execute("PRAGMA busy_timeout = 200")
    with holder.cursor() as cursor:
        if holder.vendor == "postgresql":
            cursor.execute("BEGIN")
            cursor.execute("LOCK TABLE games_clockbeat IN ACCESS EXCLUSIVE MODE")
        else:
            cursor.execute("BEGIN IMMEDIATE")
    try:
        with caplog.at_level("WARNING", logger="games.tasks"):
            assert tasks.sweep_deadlines() == 0
    finally:
        with holder.cursor() as cursor:
            cursor.execute("ROLLBACK")
        holder.close()
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("RESET lock_timeout")
            else:  # back to the settings' wait
                wait = connection.settings_dict["OPTIONS"]["timeout"]
                cursor.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")
    [record] = [r for r in caplog.records if r.name == "games.tasks"]
    assert record.levelname == "WARNING" and record.exc_info is None
    assert "deadline sweep skipped" in record.getMessage()
    game.refresh_from_db()
    assert game.version == version  # nothing resolved while the database did not answer
    assert tasks.sweep_deadlines() == 1  # the next beat: the lock was freed, the seat times out
