"""ttr_site.rows: the move's rows read and written without the ORM compiling each statement,
but exactly as the ORM reads and writes them."""

import orjson
import pytest
from django.db.models import signals
from django.utils import timezone

from games import services
from games.errors import GameError
from games.models import Game, GameEvent, Seat, Table
from games.storage import locked_game, read_game, seats_of
from ttr_site import rows

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def table(cast):
    table = services.table_create(
        owner=cast["alice"], seat_count=3, move_seconds=45, options={"warehouses": True}
    )
    services.table_join(table_id=table.pk, user=cast["bob"])
    services.table_add_bot(table_id=table.pk, by=cast["alice"], level="hard")
    return Table.objects.get(pk=table.pk)


@pytest.mark.parametrize("reader", [locked_game, read_game], ids=["locked", "read"])
def test_the_game_its_table_and_seats_load_as_the_orm_loads_them(table, reader):
    game = Game.objects.get(table=table)
    loaded, seats = reader(game.pk)
    assert _fields(loaded) == _fields(game)
    assert _fields(loaded.table) == _fields(table)
    assert loaded.table.options == {"warehouses": True}  # JSON converted, not a string
    assert loaded.turn_started_at.tzinfo is not None
    assert {p: _fields(s) for p, s in seats.items()} == {
        s.position: _fields(s) for s in table.seats.all()
    }
    assert all(s.table is loaded.table for s in seats.values())


@pytest.mark.parametrize("reader", [locked_game, read_game], ids=["locked", "read"])
def test_a_missing_game_is_not_found(reader):
    with pytest.raises(GameError) as caught:
        reader(987654)
    assert caught.value.code == "not_found"


def _while_the_lock_is_held(game, change, read):
    """Run ``read`` in a second transaction while a first one holds the game's lock, and let
    the first make ``change`` and commit while ``read`` waits; ``read``'s result."""
    import threading

    from django.db import connection, transaction

    locked, release, got = threading.Event(), threading.Event(), {}

    def holder():
        with transaction.atomic():
            Game.objects.select_for_update().get(pk=game.pk)
            locked.set()
            release.wait(10)
            change()
        connection.close()

    def waiter():
        try:
            got["result"] = read()
        except GameError as exc:
            got["result"] = exc.code
        finally:
            connection.close()

    first = threading.Thread(target=holder)
    first.start()
    assert locked.wait(10)
    second = threading.Thread(target=waiter)
    second.start()
    second.join(0.5)
    assert second.is_alive()  # waiting for the lock
    release.set()
    first.join(10)
    second.join(10)
    return got["result"]


@pytest.mark.postgres  # SQLite has no row locks
@pytest.mark.django_db(transaction=True)
def test_a_move_sees_the_seats_as_the_lock_holder_before_it_left_them(table):
    """A move reads the seats after its lock is granted: a seat handed to a bot by the
    transaction that held the lock while the move waited is seen handed over. (Read in the
    lock's statement, joined, they would come from its snapshot, taken before the wait;
    pipelined after it they would be right but cost more CPU than the round trip saved:
    docs/benchmarks.md, stop 31.)"""
    from django.db import transaction

    game = Game.objects.get(table=table)

    def hand_over():
        Seat.objects.filter(table=table, position=1).update(abandoned=True, bot_level="easy")

    def read():
        with transaction.atomic():
            return locked_game(game.pk)[1]

    seat = _while_the_lock_is_held(game, hand_over, read)[1]
    assert seat.abandoned and seat.is_bot and seat.bot_level == "easy"


@pytest.mark.postgres  # SQLite has no row locks
@pytest.mark.django_db(transaction=True)
def test_a_move_waiting_while_an_organizer_ends_the_game_is_refused(table, cast):
    """The table is read after the lock too: a move that waited for the lock while the game
    was ended early (``table_end_early`` holds the game's lock) finds it ended, and changes
    nothing. With the table joined into the lock's statement it was applied, version and
    state moved past the scores the organizer's end had announced."""
    from games import engine
    from games.services.moves import game_end

    game = Game.objects.get(table=table)
    state = engine.from_json(game.state)
    alice = table.seats.get(user=cast["alice"]).position
    action = engine.legal_actions(state, alice)[0]

    def end():
        game_end(table=Table.objects.select_for_update().get(pk=table.pk))

    def move():
        return services.game_submit_action(
            game_id=game.pk, action=action, expected_version=game.version, user=cast["alice"]
        )

    assert _while_the_lock_is_held(game, end, move) == "game_not_running"
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.state) == (game.version, game.state)
    assert not GameEvent.objects.filter(game=game, seq__gt=game.version).exists()


def test_seats_load_in_position_order_knowing_their_table(table, cast):
    seats = seats_of(table)
    assert list(seats) == [0, 1, 2]
    for position, seat in seats.items():
        assert _fields(seat) == _fields(Seat.objects.get(table=table, position=position))
        assert seat.table is table
    assert seats[1].user == cast["bob"]  # the user loads on use
    assert seats[2].is_bot and seats[2].bot_level == "hard"


def test_an_insert_sets_the_key_and_the_auto_now_add_time(table, cast):
    game = Game.objects.get(table=table)
    event = GameEvent(
        game=game, seq=99, seat=1, user=cast["bob"], action={"type": "x", "n": [1, 2]},
        entries=[{"seq": 9, "seat": 1, "type": "t", "secret": {"tickets": ["E1"]}}],
    )  # fmt: skip
    before = timezone.now()
    rows.columns(GameEvent).insert(event)
    stored = GameEvent.objects.get(pk=event.pk)
    assert _fields(stored) == _fields(event)
    assert stored.entries[0]["secret"] == {"tickets": ["E1"]} and stored.created_at >= before
    assert not event._state.adding


def test_an_update_writes_only_the_named_fields_and_refreshes_auto_now(table):
    game = Game.objects.get(table=table)
    stale = Game.objects.get(pk=game.pk)
    game.version, game.seed, game.deadline = 7, 12345, None
    rows.columns(Game).update(game, ("version", "deadline", "updated_at"))
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.deadline) == (7, None)
    assert stored.seed == stale.seed  # not named: not written
    assert stored.updated_at > stale.updated_at


def test_a_move_writes_its_game_row_and_its_event_in_one_statement_on_postgresql(table, cast):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = Game.objects.get(table=table)
    stale = Game.objects.get(pk=game.pk)
    game.version, game.state = 5, game.state.replace('"turn":0', '"turn":0 ')
    event = GameEvent(game=game, seq=5, seat=1, user=cast["bob"], action={"type": "pass"},
                      entries=[{"seq": 3, "seat": 1, "type": "pass"}])  # fmt: skip
    with CaptureQueriesContext(connection) as queries:
        rows.update_then_insert(game, ("state", "version", "updated_at"), event)
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.state) == (5, game.state)
    assert stored.seed == stale.seed and stored.updated_at > stale.updated_at
    assert _fields(GameEvent.objects.get(pk=event.pk)) == _fields(event)
    assert not event._state.adding


@pytest.mark.parametrize("model", [Game, GameEvent])
def test_no_save_signal_listens_to_the_rows_written_without_save(model):
    # rows.Columns.insert/update send no model signals: a receiver added for these models
    # would silently miss the moves. Give it a reason to move to the services instead.
    for signal in (signals.pre_save, signals.post_save):
        assert not signal.has_listeners(model), (signal, model)


def test_the_site_gives_the_engine_orjson_for_the_state():
    from games.engine import serialization

    assert serialization._loads is orjson.loads and serialization._dumps is not None


def test_on_postgresql_the_rows_bind_their_values_on_the_server():
    """The move's statements send a state of tens of kilobytes as a parameter, not quoted
    into the SQL; the connection's other cursors keep Django's client-side binding."""
    from django.db import connection

    with rows.cursor(connection) as cursor:
        cursor.execute("SELECT CAST(%s AS TEXT)", ["it's a 'quoted' value; --"])
        assert cursor.fetchone()[0] == "it's a 'quoted' value; --"
        bound_on_server = type(cursor.cursor).__name__ == "ServerBindingCursor"
    with connection.cursor() as usual:
        client_side = type(usual.cursor).__name__ == "Cursor"
    if connection.vendor == "postgresql":
        assert bound_on_server and client_side
    else:
        assert not bound_on_server


def test_on_postgresql_the_state_is_compressed_with_lz4(table):
    """games/migrations/0005: every move rewrites the whole state, and lz4 costs PostgreSQL
    less than half the CPU of its default pglz for it. The values read back unchanged."""
    from django.db import connection

    game = Game.objects.get(table=table)
    game.state = game.state + " " * 30_000  # big enough to be compressed into TOAST
    rows.columns(Game).update(game, ("state",))
    assert Game.objects.get(pk=game.pk).state == game.state
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attcompression FROM pg_attribute "
            "WHERE attrelid = 'games_game'::regclass AND attname = 'state'"
        )
        assert cursor.fetchone()[0] == "l"
        cursor.execute(
            "SELECT pg_column_compression(state) FROM games_game WHERE id = %s", [game.pk]
        )
        assert cursor.fetchone()[0] == "lz4"


def test_on_postgresql_the_move_statements_are_prepared_and_the_rest_are_not(table):
    """Once the lock of a move has run a few times on a connection, PostgreSQL keeps it
    prepared (no parsing and planning per move: settings ``DATABASE_PREPARE_THRESHOLD``);
    the rest of the site binds on the client, and none of its statements are kept."""
    from django.conf import settings
    from django.db import connection

    game = Game.objects.get(table=table)
    threshold = settings.DATABASES["default"]["OPTIONS"].get("prepare_threshold")
    for _ in range(6):
        locked_game(game.pk)
        list(Game.objects.filter(pk=game.pk).values_list("version", flat=True))
    if connection.vendor != "postgresql":
        return
    assert threshold == 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        kept = [row[0] for row in cursor.fetchall()]
    assert any("FOR UPDATE" in statement for statement in kept), kept  # the lock
    assert any("LEFT JOIN" in statement for statement in kept), kept  # its table and seats
    assert not any('SELECT "games_game"."version"' in statement for statement in kept), kept
