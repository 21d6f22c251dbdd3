"""Rebuilding a league's ladders from its match history (issue 7: "Recalculation").

Three phases under the league's lock (one writer per league, so no result is recorded
half-way): *read* the counted matches in recording order with their players in seat order,
*compute* with the pure ``rating.Ladder`` exactly as the incremental updates did, *write*
every rating-change row and rating anew. Running it twice gives the same rows: it is
idempotent, and equal to the incremental ratings because it is the same arithmetic in the
same order. On PostgreSQL the rows go in with ``COPY``; elsewhere with bulk inserts.
"""

import gc
import time
from collections import defaultdict
from collections.abc import Callable
from contextlib import closing, contextmanager
from dataclasses import dataclass, field

from django.db import connection, transaction

from ladder import rating
from ladder.models import LADDER_INDEX, Rating, RatingChange
from ladder.services.leagues import locked_league

HISTORY_SQL = """
    SELECT m.id, m.seq, m.time_control, p.user_id, p.place
    FROM ladder_matchplayer p JOIN ladder_match m ON m.id = p.match_id
    WHERE m.league_id = %s AND NOT m.annulled
    ORDER BY m.seq, p.seat
"""
CHANGE_COLUMNS = (
    "match_id, user_id, league_id, time_control, seq, before, after, delta, games_before, "
    "place, size"
)
FETCH = 50_000
COPY_CHUNK = 100_000
BULK_ROWS = 500_000  # from here on a rebuild drops and rebuilds the ladder index
Progress = Callable[[str, int, int], None]


@dataclass
class RebuildReport:
    matches: int = 0
    rows: int = 0
    players: int = 0
    seconds: dict = field(default_factory=dict)

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())


def ladder_recalculate(*, league_id: int, progress: Progress | None = None) -> RebuildReport:
    """Rebuild every ladder of a league from its counted matches, in recording order."""
    progress = progress or (lambda phase, done, total: None)
    report = RebuildReport()
    # Millions of small, acyclic tuples: the cyclic garbage collector would only rescan them.
    collecting = gc.isenabled()
    gc.disable()
    try:
        _rebuild(league_id, progress, report)
    finally:
        if collecting:
            gc.enable()
    return report


def _rebuild(league_id: int, progress: Progress, report: RebuildReport) -> None:
    laps = report.seconds
    with transaction.atomic():
        locked_league(league_id)
        clock = time.perf_counter()
        history = _read(league_id, progress)
        laps["read"], clock = _lap(clock)
        ladders, changes = _compute(history, league_id, progress)
        laps["compute"], clock = _lap(clock)
        RatingChange.objects.filter(league_id=league_id).delete()
        Rating.objects.filter(league_id=league_id).delete()
        laps["delete"], clock = _lap(clock)
        _write(league_id, ladders, changes, progress)
        laps["insert"], clock = _lap(clock)
    laps["commit"], clock = _lap(clock)
    report.matches, report.rows = len(history), len(changes)
    report.players = sum(len(ladder.players) for ladder in ladders.values())


def _lap(start: float) -> tuple[float, float]:
    now = time.perf_counter()
    return now - start, now


def _raw_cursor():
    """The driver's own cursor: binary rows on PostgreSQL, without Django's wrapper."""
    connection.ensure_connection()
    if connection.vendor == "postgresql":
        import psycopg

        return psycopg.Cursor(connection.connection)  # Django's default: client-side binding
    return closing(connection.connection.cursor())


def _read(league_id: int, progress: Progress) -> list[tuple]:
    """``(match_id, seq, time_control, users, places)`` per counted match, in order."""
    history = []
    users: list = []
    places: list = []
    current = None
    sql = HISTORY_SQL if connection.vendor == "postgresql" else HISTORY_SQL.replace("%s", "?")
    with _raw_cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(sql, [league_id], binary=True)
        else:
            cursor.execute(sql, [league_id])
        while rows := cursor.fetchmany(FETCH):
            for match_id, seq, tc, user, place in rows:
                if match_id != current:
                    users, places, current = [], [], match_id
                    history.append((match_id, seq, tc, users, places))
                users.append(user)
                places.append(place)
            progress("read", len(history), 0)
    return history


def _compute(history, league_id: int, progress: Progress):
    """Replay the history through ``rating.Ladder``; return the ladders and change rows."""
    ladders: dict[str, rating.Ladder] = defaultdict(rating.Ladder)
    changes = []
    add = changes.append
    total = len(history)
    for n, (match_id, seq, tc, users, places) in enumerate(history, 1):
        size = len(users)
        played = ladders[tc].play(users, places)
        for (user, before, after, games), place in zip(played, places, strict=True):
            add((match_id, user, league_id, tc, seq, before, after, after - before, games,
                 place, size))  # fmt: skip
        if n % 100_000 == 0:
            progress("compute", n, total)
    progress("compute", total, total)
    return ladders, changes


def _write(league_id: int, ladders, changes: list[tuple], progress: Progress) -> None:
    if connection.vendor == "postgresql":
        if len(changes) >= BULK_ROWS:
            with _ladder_index_rebuilt():
                _copy_changes(changes, progress)
        else:
            _copy_changes(changes, progress)
    else:
        _insert_changes(changes, progress)
    last_seq: dict = {}
    for _match, user, _league, tc, seq, *_rest in changes:
        last_seq[tc, user] = seq
    Rating.objects.bulk_create(
        (
            Rating(
                league_id=league_id,
                user_id=user,
                time_control=tc,
                rating=value,
                games=games,
                wins=wins,
                last_seq=last_seq[tc, user],
            )  # fmt: skip
            for tc, ladder in ladders.items()
            for user, (value, games, wins) in ladder.players.items()
        ),
        batch_size=2000,
    )


@contextmanager
def _ladder_index_rebuilt():
    """Drop the ladder index for a bulk COPY and build it again by sorting afterwards.

    Measured on 3.6M rows: the COPY takes ~9 s without this index and 25-33 s with it (rows
    arrive in match order, the index wants them by player); a fresh build takes a few
    seconds. The price: until commit, readers of rating history (ladder form column,
    profiles) wait on the table lock, so this is kept for rebuilds of ``BULK_ROWS`` or more.
    """
    index = next(i for i in RatingChange._meta.indexes if i.name == LADDER_INDEX)
    with connection.schema_editor(atomic=False) as editor:
        editor.remove_index(RatingChange, index)
    yield
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
    with connection.schema_editor(atomic=False) as editor:
        editor.add_index(RatingChange, index)


def _copy_changes(changes: list[tuple], progress: Progress) -> None:
    """COPY in text format, lines built here: ``repr`` of a float reads back exactly."""
    sql = f"COPY ladder_ratingchange ({CHANGE_COLUMNS}) FROM STDIN"
    total = len(changes)
    line = "%d\t%d\t%d\t%s\t%d\t%r\t%r\t%r\t%d\t%d\t%d\n"
    with _raw_cursor() as cursor, cursor.copy(sql) as copy:
        for start in range(0, total, COPY_CHUNK):
            chunk = changes[start : start + COPY_CHUNK]
            copy.write("".join([line % row for row in chunk]))
            progress("write", start + len(chunk), total)
    progress("write", total, total)


def _insert_changes(changes: list[tuple], progress: Progress) -> None:
    names = [c.strip() for c in CHANGE_COLUMNS.split(",")]
    total = len(changes)
    for start in range(0, total, 5000):
        batch = changes[start : start + 5000]
        RatingChange.objects.bulk_create(
            RatingChange(**dict(zip(names, row, strict=True))) for row in batch
        )
        progress("write", min(total, start + 5000), total)
