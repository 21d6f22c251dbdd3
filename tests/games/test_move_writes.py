"""A player's or a bot's move is made from the game read without a lock, and written only if
the game row is still as read (``games.storage.store_move``: a compare-and-set on its version
and revision). Whatever changed between the read and the write is seen, as it was when moves
waited for the row's lock: these tests make the change in exactly that gap."""

import pytest
from django.utils import timezone

from games import engine, services
from games.errors import GameError
from games.models import Game, GameEvent
from games.services import clock_outages, moves
from games.storage import parsed_states, read_game, store_move
from tests.games.moving import replay_events

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=45)
    services.table_join(table_id=table.pk, user=cast["bob"])
    return Game.objects.get(table=table)


def _in_the_gap(monkeypatch, change) -> list[int]:
    """Make ``change`` (committed at once) right after a move's first read of the game; the
    list it returns counts the reads."""
    reads, real = [], moves.read_game

    def read(game_id):
        found = real(game_id)
        reads.append(game_id)
        if len(reads) == 1:
            change()
        return found

    monkeypatch.setattr(moves, "read_game", read)
    return reads


def _first_legal(game, seat: int) -> dict:
    game.refresh_from_db()
    return engine.legal_actions(engine.from_json(game.state), seat)[0]


def _unchanged(game) -> tuple:
    after = Game.objects.get(pk=game.pk)
    return after.version, after.state, GameEvent.objects.filter(game=game).count()


def test_the_write_is_made_only_if_version_and_revision_are_still_as_read(game):
    read, _seats = read_game(game.pk)
    before = _unchanged(game)

    def event(version):
        return GameEvent(game=read, seq=version, seat=0, action={"type": "x"}, entries=[])

    read.version += 1
    assert not store_move(read, event(read.version), unchanged=(0, 1))  # a revision since
    assert not store_move(read, event(read.version), unchanged=(5, 0))  # a move since
    assert _unchanged(game) == before
    assert store_move(read, event(read.version), unchanged=(0, 0))
    after = Game.objects.get(pk=game.pk)
    assert after.version == 1 and GameEvent.objects.filter(game=game, seq=1).exists()


def test_a_move_read_before_its_player_left_is_not_written(game, cast, monkeypatch):
    """The seat was handed to a bot between the read and the write: the leaver's move is
    refused as any move after leaving is, and nothing is written."""
    action = _first_legal(game, 0)
    before = _unchanged(game)
    reads = _in_the_gap(
        monkeypatch, lambda: services.table_leave(table_id=game.table_id, user=cast["alice"])
    )
    with pytest.raises(GameError) as caught:
        services.game_submit_action(
            game_id=game.pk, action=action, expected_version=0, user=cast["alice"]
        )
    assert caught.value.code == "not_your_seat"
    assert len(reads) == 2  # read again after the write found the row changed
    assert _unchanged(game) == before
    assert Game.objects.get(pk=game.pk).revision == 1


def test_a_move_read_before_the_game_was_ended_early_is_not_written(game, cast, monkeypatch):
    action = _first_legal(game, 1)
    before = _unchanged(game)
    _in_the_gap(monkeypatch, lambda: services.table_end_early(table_id=game.table_id))
    with pytest.raises(GameError) as caught:
        services.game_submit_action(
            game_id=game.pk, action=action, expected_version=0, user=cast["bob"]
        )
    assert caught.value.code == "game_not_running"
    assert _unchanged(game) == before


def test_a_move_read_before_another_move_is_refused_as_stale(game, cast, monkeypatch):
    mine, theirs = _first_legal(game, 0), _first_legal(game, 1)

    def bob_moves():
        services.game_submit_action(
            game_id=game.pk, action=theirs, expected_version=0, user=cast["bob"]
        )

    _in_the_gap(monkeypatch, bob_moves)
    with pytest.raises(GameError) as caught:
        services.game_submit_action(
            game_id=game.pk, action=mine, expected_version=0, user=cast["alice"]
        )
    assert caught.value.code == "stale_version"
    events = GameEvent.objects.filter(game=game, seq__gt=0)
    assert [(e.seq, e.seat) for e in events] == [(1, 1)]  # bob's move alone


def test_a_move_read_before_the_clocks_were_given_back_keeps_the_time_given(
    game, cast, monkeypatch
):
    """An outage's time given back between the read and the write is kept: the move is made
    again from the shifted clock, not written over it with the clock it read."""
    action = _first_legal(game, 0)
    started = Game.objects.get(pk=game.pk).turn_started_at
    now = timezone.now()

    def give_back():
        clock_outages._give_back(now - timezone.timedelta(seconds=30), now, "sweep")

    reads = _in_the_gap(monkeypatch, give_back)
    services.game_submit_action(
        game_id=game.pk, action=action, expected_version=0, user=cast["alice"]
    )
    assert len(reads) == 2
    after = Game.objects.get(pk=game.pk)
    assert after.version == 1 and after.revision == 1
    # the set-up is one decision of both seats: bob's clock runs on from the shifted start
    assert after.turn_started_at > started


def test_a_bot_move_read_before_a_player_moved_leaves_it_to_the_next_version(
    game, cast, monkeypatch
):
    """Both seats choose their set-up tickets at once; the bot (taking over alice's seat)
    thinks from a read, bob moves meanwhile: the bot's move is not written over bob's, and
    the version bob made has its own bot task."""
    game.table.seats.filter(position=0).update(abandoned=True, bot_level="easy")
    theirs = _first_legal(game, 1)

    def bob_moves():
        services.game_submit_action(
            game_id=game.pk, action=theirs, expected_version=0, user=cast["bob"]
        )

    _in_the_gap(monkeypatch, bob_moves)
    assert services.game_bot_move(game_id=game.pk, expected_version=0) is False
    events = GameEvent.objects.filter(game=game, seq__gt=0)
    assert [(e.seq, e.seat, e.by_bot) for e in events] == [(1, 1, False)]


def test_a_bot_move_read_before_a_seat_change_is_made_again(game, cast, monkeypatch):
    """A change that is not a move (here bob's seat handed over) between the bot's read and
    its write: the bot chooses again from a new read, and its move is written."""
    game.table.seats.filter(position=0).update(abandoned=True, bot_level="easy")
    reads = _in_the_gap(
        monkeypatch, lambda: services.table_leave(table_id=game.table_id, user=cast["bob"])
    )
    assert services.game_bot_move(game_id=game.pk, expected_version=0) is True
    assert len(reads) == 2
    (event,) = GameEvent.objects.filter(game=game, seq__gt=0)
    assert event.by_bot and event.seq == 1


def test_a_bot_move_read_before_its_player_conceded_is_made_again(game, cast, monkeypatch):
    """Giving up a seat a bot already plays (after timeouts) is a change to the running game
    like any other: it bumps ``revision``, so no move is written from seats read before it."""
    game.table.seats.filter(position=0).update(abandoned=True, bot_level="easy")
    reads = _in_the_gap(
        monkeypatch, lambda: services.table_leave(table_id=game.table_id, user=cast["alice"])
    )
    assert services.game_bot_move(game_id=game.pk, expected_version=0) is True
    assert len(reads) == 2
    assert game.table.seats.get(position=0).conceded
    assert Game.objects.get(pk=game.pk).revision == 1


# --- a bot's move after a move written in this process: no read ---------------------------


def _alice_moved_against_a_bot(cast) -> Game:
    """alice against a medium bot, with alice's set-up tickets kept: the bot's are due, and
    this process wrote the game as it stands (``ParsedStates.take_written``). Returns the
    game ``game_submit_action`` returned."""
    parsed_states.clear()
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=45)
    services.table_add_bot(table_id=table.pk, by=cast["alice"], level="medium")
    game = Game.objects.get(table=table)
    return services.game_submit_action(
        game_id=game.pk, action=_first_legal(game, 0), expected_version=0, user=cast["alice"]
    )


@pytest.fixture
def bot_game(cast):
    return _alice_moved_against_a_bot(cast)


def _counted_reads(monkeypatch) -> list[int]:
    return _in_the_gap(monkeypatch, lambda: None)


def test_a_bot_move_after_a_move_written_here_reads_nothing(bot_game, monkeypatch):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    reads = _counted_reads(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        assert services.game_bot_move(game_id=bot_game.pk, expected_version=1) is True
    assert reads == []
    sql = [q["sql"] for q in queries.captured_queries]
    assert not [q for q in sql if q.startswith("SELECT")], sql
    after = Game.objects.get(pk=bot_game.pk)
    assert after.version == 2
    replayed = replay_events(after)
    engine.detach_log(replayed)
    assert engine.to_json(replayed) == after.state  # the same move a read would have given


def test_a_bot_move_is_not_written_over_a_state_rewritten_since(bot_game, monkeypatch):
    """Someone rewrote the state without a new version or revision (no code does; the check
    must hold): the move made from the kept state is not written, and the bot moves again
    from the row."""
    row = Game.objects.get(pk=bot_game.pk)
    other = engine.from_json(row.state)
    other.scores[0] += 7
    Game.objects.filter(pk=row.pk).update(state=engine.to_json(other))
    reads = _counted_reads(monkeypatch)
    assert services.game_bot_move(game_id=bot_game.pk, expected_version=1) is True
    assert len(reads) == 1
    after = Game.objects.get(pk=bot_game.pk)
    assert after.version == 2
    assert engine.from_json(after.state).scores[0] == other.scores[0]


def test_a_bot_move_after_the_game_was_ended_early_writes_nothing(bot_game, monkeypatch):
    services.table_end_early(table_id=bot_game.table_id)
    before = _unchanged(bot_game)
    reads = _counted_reads(monkeypatch)
    assert services.game_bot_move(game_id=bot_game.pk, expected_version=1) is False
    assert len(reads) == 1  # the kept game still said "playing": its write found otherwise
    assert _unchanged(bot_game) == before


def test_a_bot_move_after_its_seat_was_taken_back_is_not_made(cast, monkeypatch):
    """The bot played alice's seat after her timeouts, and she took it back after the move
    this process wrote: the kept seats say a bot decides, the row says alice does."""
    parsed_states.clear()
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=45)
    services.table_join(table_id=table.pk, user=cast["bob"])
    game = Game.objects.get(table=table)
    table.seats.filter(position=0).update(abandoned=True, bot_level="easy")
    services.game_submit_action(
        game_id=game.pk, action=_first_legal(game, 1), expected_version=0, user=cast["bob"]
    )  # bob's set-up, written here with alice's seat the bot's
    services.table_take_back(table_id=table.pk, user=cast["alice"])
    reads = _counted_reads(monkeypatch)
    assert services.game_bot_move(game_id=game.pk, expected_version=1) is False
    assert len(reads) == 1
    assert Game.objects.get(pk=game.pk).version == 1


def test_the_callers_game_is_not_the_one_a_bot_moves_on(cast):
    """The API answers from the game ``game_submit_action`` returns; the bot's move that
    follows in this process changes its own copy."""
    returned = _alice_moved_against_a_bot(cast)
    text = returned.state
    assert services.game_bot_move(game_id=returned.pk, expected_version=1) is True
    assert Game.objects.get(pk=returned.pk).version == 2
    assert returned.version == 1 and returned.state == text


@pytest.mark.postgres  # SQLite writes the game row and the event apart, in a transaction
def test_a_move_in_time_is_two_statements_the_read_and_the_write(game, cast):
    """The point of it all: a player's move in time costs the database two statements, with
    no lock, BEGIN or COMMIT (Django records those two where they are issued)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    action = _first_legal(game, 0)
    with CaptureQueriesContext(connection) as queries:
        services.game_submit_action(
            game_id=game.pk, action=action, expected_version=0, user=cast["alice"]
        )
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 2, sql
    assert sql[0].startswith("SELECT") and "FOR UPDATE" not in sql[0]
    assert sql[1].startswith("WITH updated AS (UPDATE")
    assert Game.objects.get(pk=game.pk).version == 1


def _kept_connection():
    """This thread's connection, kept from an earlier use and due for Django's health check,
    as it is at the start of every move handed to its thread (``ttr_site.pools.run_in``) and
    of every ``database_sync_to_async`` call: ``close_old_connections``."""
    from django.db import close_old_connections, connection

    Game.objects.exists()
    close_old_connections()
    assert connection.connection is not None and not connection.health_check_done
    return connection


@pytest.mark.postgres
def test_a_move_on_a_kept_connection_that_died_is_made_on_a_new_one(game, cast):
    """The server ended the connection a move thread kept (PostgreSQL restarted, a proxy cut
    it): the move is made on a new connection (Django's health check, ``CONN_HEALTH_CHECKS``,
    finds the dead one before the move's read), not refused. Sending no ``SELECT 1`` and
    letting the read find it was measured at no gain under load: docs/benchmarks.md, stop 35."""
    import time

    from django.db import connections

    action = _first_legal(game, 0)
    connection = _kept_connection()
    dead = connection.connection.info.backend_pid
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [dead])
            for _ in range(100):  # the backend ends a moment after the signal
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [dead])
                if not cursor.fetchone()[0]:
                    break
                time.sleep(0.05)
    finally:
        other.close()
    services.game_submit_action(
        game_id=game.pk, action=action, expected_version=0, user=cast["alice"]
    )
    assert connection.connection.info.backend_pid != dead
    assert Game.objects.get(pk=game.pk).version == 1


def _threads_until(stop, errors, bodies):
    """A thread per body, each running it again and again on its own connection until
    ``stop``; what they raise goes to ``errors``."""
    import threading

    from django.db import close_old_connections, connection

    def loop(body):
        close_old_connections()
        try:
            while not stop.is_set():
                body()
        except Exception as exc:  # noqa: BLE001 - the test reports them
            errors.append(repr(exc))
        finally:
            connection.close()

    return [threading.Thread(target=loop, args=(body,)) for body in bodies]


def _player(game, user, position: int):
    """One turn of a player who plays the easy bot's choice whenever their seat decides."""
    import random
    import time

    from games.engine.bots import choose_action

    rng = random.Random(user.pk)

    def body():
        current = Game.objects.get(pk=game.pk)
        state = engine.from_json(current.state)
        if engine.is_terminal(state) or position not in engine.current_seats(state):
            time.sleep(0.001)
            return
        legal = engine.legal_actions(state, position)
        action = choose_action("easy", engine.view_for(state, position), legal, seed=rng.random())
        try:
            services.game_submit_action(
                game_id=game.pk, action=action, expected_version=current.version, user=user
            )
        except GameError as exc:
            assert exc.code in {"stale_version", "not_your_seat", "game_not_running"}, exc
        except engine.IllegalAction:
            pass  # chosen from a state a later move changed: refused, nothing written

    return body


@pytest.mark.postgres  # real concurrency: row locks and READ COMMITTED re-checks
def test_moves_bots_and_a_leave_racing_keep_the_game_whole(cast):
    """Two players and a bot moving as fast as they can, each on its own connection, while
    one player leaves: every event is there once and in order, the stored state is the
    events' replay, and no move of the leaver is written after her leave."""
    import threading
    import time

    from django.db import connection, transaction

    from tests.games.moving import replay_events

    table = services.table_create(owner=cast["alice"], seat_count=3, move_seconds=60)
    services.table_join(table_id=table.pk, user=cast["bob"])
    services.table_add_bot(table_id=table.pk, by=cast["alice"], level="easy")
    game = Game.objects.get(table=table)
    seats = {s.user_id: s.position for s in game.table.seats.exclude(user=None)}
    stop, left, errors = threading.Event(), {}, []

    def bot():
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        services.game_bot_move(game_id=game.pk, expected_version=version)

    def leave_then_stop():
        try:
            time.sleep(0.3)
            with transaction.atomic():  # the leave's lock held to the end: its exact version
                services.table_leave(table_id=table.pk, user=cast["alice"])
                left["version"] = Game.objects.values_list("version", flat=True).get(pk=game.pk)
            time.sleep(0.3)
        finally:
            stop.set()
            connection.close()

    alice, bob = cast["alice"], cast["bob"]
    threads = _threads_until(
        stop,
        errors,
        [_player(game, alice, seats[alice.pk]), _player(game, bob, seats[bob.pk]), bot],
    )
    threads.append(threading.Thread(target=leave_then_stop))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    game.refresh_from_db()
    events = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [e.seq for e in events] == list(range(game.version + 1))
    assert game.version > left["version"] > 3, (game.version, left)  # moves before and after
    whole = services.game_state(game, whole_log=True)
    assert engine.to_json(whole) == engine.to_json(replay_events(game))
    by_alice = [e.seq for e in events if e.user_id == alice.pk]
    assert by_alice and max(by_alice) <= left["version"]
