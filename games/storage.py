"""Storage of the move path: the game row read under its lock, its seats, a move written with
its event in one statement, and the parsed states this process keeps.

The hot path's SQL is written out once here (``ttr_site.rows``: a move's statements are not
compiled per call); the use cases (``games.services``) call these and nothing else touches
``Game`` rows on a move.
"""

import threading
from collections import OrderedDict
from functools import cache

from django.db import connection
from django.db.models.base import ModelState

from games import engine
from games.errors import GameError
from games.models import Game, GameEvent, Seat, Table
from ttr_site import rows

MOVE_FIELDS = ("state", "version", "deadline", "turn_started_at", "updated_at")


class ParsedStates:
    """Game states this process stored, kept parsed for the game's next move here.

    Parsing a state was about 6% of a web process's CPU under ``benchmarks/load.py``, and the
    next move of a game is often made by the process that stored the one before (a bot's
    always: ``games.bot_turns``). An entry is the stored text and the state it was written
    from, with the game row, its table and its seats as written; it is taken out when used,
    so no two moves ever share a state object, and used only for exactly the row it was
    written to:
    - after a read (``take``), when the row read holds exactly that text
      (``to_json``/``from_json`` round-trip exactly, so the state is the one parsing would
      give);
    - without a read (``take_written``: a bot's move after a move this process wrote), when
      its write finds the row still holding that version, revision and text (the write's
      compare-and-set, ``store_move``); else the move reads the row and is made again.
    """

    def __init__(self, size: int = 512):
        self.size = size
        self._entries: OrderedDict[tuple[int, int], tuple] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def take(self, game: Game):
        """The state of the read ``game`` row: the kept one if it is that row's, else parsed."""
        with self._lock:
            entry = self._entries.pop((game.pk, game.version), None)
        if entry is not None and entry[0] == game.state:
            self.hits += 1
            return entry[1]
        self.misses += 1
        return engine.from_json(game.state)

    def take_written(self, game_id: int, version: int):
        """``(game, seats, state)`` as this process wrote the game at ``version``, or None.
        Not checked against the row: a move made from it is written only if the row still
        holds the game's version, revision and state text (``store_move``'s ``unchanged``)."""
        with self._lock:
            entry = self._entries.pop((game_id, version), None)
        if entry is None or entry[2] is None:
            return None
        self.hits += 1
        _text, state, game, _table, seats = entry
        return game, seats, state

    def keep(self, game: Game, state, table: Table | None = None, seats=None) -> None:
        """Keep ``state``, the one ``game.state`` was written from, for the next move; with
        the ``table`` and ``seats`` it was written with, a bot's next move here needs no read
        (``take_written``; they are kept as copies). Call once nothing else reads or changes
        ``state`` (after the move's pushes)."""
        written = (None, None, None)
        if table is not None and seats is not None:
            written = _detached(game, table, seats)
        with self._lock:
            self._entries[(game.pk, game.version)] = (game.state, state, *written)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


parsed_states = ParsedStates()


def _detached(game: Game, table: Table, seats: dict[int, Seat]) -> tuple:
    """Copies of a move's game row, table and seats, linked to each other: the caller's own
    objects go on being read after the move (the API answers from its game; a table service
    announces its table), while a bot's move here would change the kept ones."""
    table = _copied(table)
    game = _copied(game)
    game.table = table
    kept = {}
    for position, seat in seats.items():
        kept[position] = _copied(seat)
        kept[position].table = table
    return game, table, kept


def _copied(row):
    """A model instance's copy with its own field values and state, without the related
    objects it had loaded. Its field values are shared with ``row``, but a move only
    replaces them. (``copy.copy`` goes through Django's pickling: 60 us for a game, its
    table and four seats, against 16 us this way.)"""
    copied = object.__new__(type(row))
    copied.__dict__.update(row.__dict__)
    copied._state = state = ModelState()
    state.db, state.adding = row._state.db, row._state.adding
    return copied


def read_game(game_id: int) -> tuple[Game, dict[int, Seat]]:
    """The game row with its table and its seats by position, read in one statement without
    a lock (one snapshot: consistent with each other); ``not_found`` if there is none.

    A move made from it is written only if the game row is still as read
    (``store_move(..., unchanged=...)``); so a move in time costs the database two
    statements, the read and the write, where it took five (BEGIN, the lock, the seats, the
    write, COMMIT); the connection's health check before them stays: docs/benchmarks.md,
    stop 34.
    """
    with rows.cursor(connection) as cursor:
        cursor.execute(_read_game_sql(), [game_id, game_id])
        found = cursor.fetchall()
    if not found:
        raise GameError("not_found")
    games, tables = rows.columns(Game), rows.columns(Table)
    game_end = 1 + len(games.fields)
    table_end = game_end + len(tables.fields)
    game = games.load(found[0][1:game_end])
    game.table = table = tables.load(found[0][game_end:table_end])
    return game, _seats_at(table, [row[table_end:] for row in found[1:]])


def _table_and_seats(found) -> tuple[Table, dict[int, Seat]]:
    """A table and its seats from rows of ``_table_and_seats_sql``'s columns."""
    tables = rows.columns(Table)
    width = len(tables.fields)
    table = tables.load(found[0][:width])
    # a table without seats gives one row of NULLs for them (LEFT JOIN): none to load
    return table, _seats_at(table, [row[width:] for row in found if row[width] is not None])


def _seats_at(table: Table, found) -> dict[int, Seat]:
    """The seats of ``table`` by position, from rows of their columns."""
    seats = {}
    for row in found:
        seat = rows.columns(Seat).load(row)
        seat.table = table
        seats[seat.position] = seat
    return seats


@cache
def _read_game_sql() -> str:
    """The game and its table in the first row, then a row per seat: one statement, so one
    snapshot. Each row leaves the other part's columns NULL, which cost nothing to load (with
    the game and table joined to every seat's row, loading their timestamps again for each
    seat was a tenth of a move's CPU)."""
    games, tables, seats = rows.columns(Game), rows.columns(Table), rows.columns(Seat)

    def nulls(columns) -> str:
        return ", ".join(["NULL"] * len(columns.fields))

    position = 2 + len(games.fields) + len(tables.fields) + seats.attnames.index("position")
    game, table, seat = Game._meta.db_table, Table._meta.db_table, Seat._meta.db_table
    return (
        f"SELECT 0, {games.select('g')}, {tables.select('t')}, {nulls(seats)} "
        f"FROM {game} g JOIN {table} t ON t.id = g.table_id WHERE g.id = %s "
        f"UNION ALL SELECT 1, {nulls(games)}, {nulls(tables)}, {seats.select('s')} "
        f"FROM {seat} s JOIN {game} g ON g.table_id = s.table_id WHERE g.id = %s "
        f"ORDER BY 1, {position}"
    )


def locked_game(game_id: int) -> tuple[Game, dict[int, Seat]]:
    """The game row, locked, with its table and its seats by position (``not_found`` if
    there is none).

    Two statements: the lock, then the table and the seats. The second runs once the lock is
    granted, so it reads them as the transaction that held the lock before left them: a seat
    handed to a bot, a game ended early. Joined into the lock's statement they would come from
    its snapshot, taken before the wait (PostgreSQL re-reads only the locked row), and a move
    could be applied to a game an organizer had just ended (tests/games/test_rows.py).
    """
    with rows.cursor(connection) as cursor:
        cursor.execute(_locked_game_sql(), [game_id])
        row = cursor.fetchone()
        if row is None:
            raise GameError("not_found")
        game = rows.columns(Game).load(row)
        cursor.execute(_table_and_seats_sql(), [game.table_id])
        game.table, seats = _table_and_seats(cursor.fetchall())
    return game, seats


@cache
def _locked_game_sql() -> str:
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    games = rows.columns(Game)
    return f"SELECT {games.select('g')} FROM {Game._meta.db_table} g WHERE g.id = %s{lock}"


@cache
def _table_and_seats_sql() -> str:
    tables, seats = rows.columns(Table), rows.columns(Seat)
    return (
        f"SELECT {tables.select('t')}, {seats.select('s')} FROM {Table._meta.db_table} t "
        f"LEFT JOIN {Seat._meta.db_table} s ON s.table_id = t.id "
        "WHERE t.id = %s ORDER BY s.position"
    )


def seats_of(table: Table) -> dict[int, Seat]:
    """The table's seats by position (each knows its table; a seat's user loads on use)."""
    with rows.cursor(connection) as cursor:
        cursor.execute(_seats_sql(), [table.pk])
        return _seats_at(table, cursor.fetchall())


@cache
def _seats_sql() -> str:
    return (
        f"SELECT {rows.columns(Seat).select('s')} FROM {Seat._meta.db_table} s "
        "WHERE s.table_id = %s ORDER BY s.position"
    )


def store_move(game: Game, event: GameEvent, *, unchanged: tuple | None = None) -> bool:
    """Write the game row's move fields and append the move's event (one statement).

    ``unchanged``: the ``(version, revision)`` the move was made from, when the row was read
    without a lock (``read_game``), or ``(version, revision, state)`` when it was not read
    at all (``ParsedStates.take_written``: the text this process wrote): nothing is written,
    and False returned, if the row no longer holds them: another move was made, or a seat,
    the game's end or its clocks changed since (every such change bumps ``revision``), or the
    state was rewritten. Under the row's lock: None.
    """
    where = None
    if unchanged is not None:
        where = dict(zip(("version", "revision", "state"), unchanged, strict=False))
    return rows.update_then_insert(game, MOVE_FIELDS, event, where=where)


def game_state(game: Game, *, whole_log: bool = False):
    """The engine state of ``game`` as stored; with ``whole_log``, holding its whole log again
    (the entries of its events up to its version, in order: for a full view; a move committed
    since ``game`` was read is not mixed in)."""
    state = engine.from_json(game.state)
    if whole_log and state.log_base:
        engine.attach_log(state, log_entries(game))
    return state


def log_entries(game: Game) -> list:
    """The log entries of ``game``'s events up to its version, in order (raw: secrets
    included, for ``engine.attach_log``; a view redacts them)."""
    events = GameEvent.objects.filter(game=game, seq__lte=game.version).order_by("seq")
    return [e for step in events.values_list("entries", flat=True) for e in step]
