"""Rebuilding a league's ladders from its match history (issue 7: "Recalculation").

Three phases under the league's lock (one writer per league, so no result is recorded
half-way): *read* the counted matches in recording order with their players in seat order,
*compute* with the pure ``rating.Ladder`` exactly as the incremental updates did, *write*
every rating-change row and rating anew. Running it twice gives the same rows: it is
idempotent, and equal to the incremental ratings because it is the same arithmetic in the
same order. On PostgreSQL the rows go in with ``COPY``; elsewhere with bulk inserts.
"""

import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connection, transaction

from ladder import rating
from ladder.models import Rating, RatingChange
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
    with transaction.atomic():
        locked_league(league_id)
        clock = time.perf_counter()
        history = _read(league_id, progress)
        report.seconds["read"] = _lap(clock)
        clock = time.perf_counter()
        ladders, changes = _compute(history, league_id, progress)
        report.seconds["compute"] = _lap(clock)
        clock = time.perf_counter()
        _write(league_id, ladders, changes, progress)
        report.seconds["write"] = _lap(clock)
    report.matches, report.rows = len(history), len(changes)
    report.players = sum(len(ladder.players) for ladder in ladders.values())
    return report


def _lap(start: float) -> float:
    return time.perf_counter() - start


def _read(league_id: int, progress: Progress) -> list[tuple]:
    """``(match_id, seq, time_control, users, places)`` per counted match, in order."""
    history = []
    users: list = []
    places: list = []
    current = None
    with connection.cursor() as cursor:
        cursor.execute(HISTORY_SQL, [league_id])
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
    RatingChange.objects.filter(league_id=league_id).delete()
    Rating.objects.filter(league_id=league_id).delete()
    if connection.vendor == "postgresql":
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


def _copy_changes(changes: list[tuple], progress: Progress) -> None:
    sql = f"COPY ladder_ratingchange ({CHANGE_COLUMNS}) FROM STDIN"
    total = len(changes)
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for n, row in enumerate(changes, 1):
            copy.write_row(row)
            if n % 250_000 == 0:
                progress("write", n, total)
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
