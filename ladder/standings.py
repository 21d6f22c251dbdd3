"""Swiss tournament points and standings: PURE (no Django), see ``docs/tournaments.md``.

Terms:

- *table*: the players of one game in one round, 2 to 5 of them; *k* is its size.
- *place*: a player's finishing position at a table, 1 = best; equal places are shared
  (``[1, 1, 3, 4]``: two players share first, nobody is second).
- *position*: the 0-based slot in a table's finishing order; a place shared by c players
  covers c consecutive positions.
- *tournament points* (``points``): what a table gives each player by ``placement_points``;
  every scheme gives a table ``SCALE / 2`` per player on average, whatever its size.
- *bye*: a round without a table; worth ``BYE_POINTS``, the average result.
- *game points*: the engine's final score at a table, summed over the tournament.
- *opponents*: the other players at a table; a round's *opposition* is the mean current
  total of that table's opponents.
- *Buchholz*: the mean opposition over the rounds a player played (byes left out); *cut-1
  Buchholz* leaves out the weakest round too.
- *seat*: a player's place in a table's turn order, 0 = moved first; their *later seat*
  is the mean over the tables they played of ``seat / (table size - 1)`` (0 = always
  first, 1 = always last; 1/2 without games).
- *coin*: a deterministic pseudo-random value per (seed, player); it breaks exact ties last.
"""

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 12  # a table's best result in the linear scheme
BYE_POINTS = 6.0  # a bye scores the average result (SCALE / 2) under every scheme
SCHEMES = ("linear", "winner")
TIEBREAKS = ("buchholz", "buchholz_cut1", "game_points", "opponent_rating", "later_seat")
DEFAULT_TIEBREAKS = TIEBREAKS[:4]  # then the coin
# Tie-break values are means of floats; equal ones reached by different sums may differ in
# the last bits, which must not decide a ranking.
_DIGITS = 9


def position_points(k: int, scheme: str = "linear") -> list[float]:
    """Tournament points of each finishing position (0 = first) at a table of ``k``."""
    if k < 2:
        raise ValueError(f"a table has at least 2 players, not {k}")
    if scheme == "linear":
        # docs/tournaments.md "Placement points": the share of opponents beaten, times SCALE.
        return [SCALE * (k - 1 - j) / (k - 1) for j in range(k)]
    if scheme == "winner":
        # docs/tournaments.md "Placement points": the winner takes the table's SCALE / 2 * k.
        return [SCALE / 2 * k] + [0.0] * (k - 1)
    raise ValueError(f"unknown scheme {scheme!r}; expected one of {SCHEMES}")


def placement_points(places: Sequence[int], scheme: str = "linear") -> list[float]:
    """Tournament points of each player of one table, from their places (1 = best; equal
    places are shared, e.g. [1, 1, 3, 4])."""
    by_position = position_points(len(places), scheme)
    points = []
    for place in places:
        # A shared place covers the positions after everyone placed better; its players
        # split those positions' points equally (so the table's total never changes).
        first = sum(1 for other in places if other < place)
        count = sum(1 for other in places if other == place)
        points.append(sum(by_position[first : first + count]) / count)
    return points


def coin(seed: int, player: int) -> float:
    """Deterministic value in [0, 1) for the final tie-break (and usable by callers to break
    rating ties)."""
    # A hash, not random.Random: no state to share and the same value on every platform.
    digest = hashlib.blake2b(f"{seed}:{player}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


@dataclass(frozen=True)
class Entrant:
    id: int
    rating: float


@dataclass(frozen=True)
class Seat:
    """One player's result at one finished table."""

    round: int
    table: int  # any id unique within the round
    player: int
    place: int  # 1 = best at that table (shared places allowed)
    score: int  # game points (the engine's final score)
    points: float  # tournament points (from placement_points)
    seat: int | None = None  # place in the turn order, 0 = moved first (None: unknown)


@dataclass(frozen=True)
class Bye:
    round: int
    player: int


@dataclass
class Row:
    player: int
    rank: int  # 1..n, strict (the coin flip decides exact ties)
    points: float
    games: int
    byes: int
    buchholz: float
    buchholz_cut1: float
    game_points: int
    opponent_rating: float
    coin: float
    wins: int = 0  # tables finished first (shared first places included)
    later_seat: float = 0.5  # mean seat / (table size - 1) over tables played


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _tables(seats: Sequence[Seat]) -> dict[tuple[int, int], list[Seat]]:
    """The seats of each (round, table), rounds in order."""
    tables: dict[tuple[int, int], list[Seat]] = defaultdict(list)
    for seat in sorted(seats, key=lambda s: (s.round, s.table, s.player)):
        tables[seat.round, seat.table].append(seat)
    return tables


def _totals(seats: Sequence[Seat], byes: Sequence[Bye]) -> dict[int, float]:
    """Every player's current tournament points (entrants or not)."""
    totals: dict[int, float] = defaultdict(float)
    for seat in seats:
        totals[seat.player] += seat.points
    for bye in byes:
        totals[bye.player] += BYE_POINTS  # docs/tournaments.md "Byes": the average result
    return totals


def _opposition(seats: Sequence[Seat]) -> dict[int, list[list[int]]]:
    """For each player, the opponents of each table they played, rounds in order."""
    faced: dict[int, list[list[int]]] = defaultdict(list)
    for table in _tables(seats).values():
        for seat in table:
            faced[seat.player].append([s.player for s in table if s is not seat])
    return faced


def _buchholz(opposition: list[list[int]], totals: dict[int, float]) -> tuple[float, float]:
    """(Buchholz, cut-1 Buchholz) from the opponents of each round played."""
    # docs/tournaments.md "Tie-breaks": a mean per round, then over rounds, not a sum: table
    # sizes and byes vary, and a sum would reward big tables or punish a bye.
    per_round = sorted(_mean([totals[p] for p in opponents]) for opponents in opposition)
    cut = per_round[1:] if len(per_round) >= 2 else per_round
    return _mean(per_round), _mean(cut)


def _opponent_rating(opposition: list[list[int]], ratings: dict[int, float]) -> float:
    """Mean rating of every opponent faced, each meeting counted once."""
    # An opponent who is not an entrant (withdrawn and dropped by the caller) has no rating
    # to count; leave them out rather than count them as 0.
    faced = [ratings[p] for opponents in opposition for p in opponents if p in ratings]
    return _mean(faced)


def _later_seat(seats: Sequence[Seat]) -> dict[int, float]:
    """Each player's mean ``seat / (table size - 1)`` over the tables they played whose
    seats are known."""
    # docs/tournaments.md "Tie-breaks": the seat rule of in-person championships, where a
    # later starting seat wins a tie (moving first is an edge). Normalised by the table's
    # size so a last seat counts 1 at a table of 3 as at a table of 5.
    positions: dict[int, list[float]] = defaultdict(list)
    for table in _tables(seats).values():
        if len(table) < 2 or any(s.seat is None for s in table):
            continue
        for seat in table:
            positions[seat.player].append(seat.seat / (len(table) - 1))  # type: ignore[operator]
    return {player: _mean(values) for player, values in positions.items()}


def _row(
    player: int,
    mine: list[Seat],
    byes: int,
    opposition: list[list[int]],
    totals: dict[int, float],
    ratings: dict[int, float],
    seed: int,
) -> Row:
    """One entrant's unranked row."""
    buchholz, cut1 = _buchholz(opposition, totals)
    return Row(
        player=player,
        rank=0,
        points=totals[player],
        games=len(mine),
        byes=byes,
        buchholz=buchholz,
        buchholz_cut1=cut1,
        game_points=sum(s.score for s in mine),
        opponent_rating=_opponent_rating(opposition, ratings),
        coin=coin(seed, player),
        wins=sum(1 for s in mine if s.place == 1),
    )


def _key(row: Row, tiebreaks: Sequence[str]) -> tuple:
    """Sort key, best first: points, each tie-break, the coin (all descending); the player
    id only keeps the order total should two coins ever be equal."""
    values = [row.points, *(getattr(row, name) for name in tiebreaks), row.coin]
    return (*(-round(v, _DIGITS) for v in values), row.player)


def standings(
    entrants: Sequence[Entrant],
    seats: Sequence[Seat],
    byes: Sequence[Bye],
    *,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    seed: int = 0,
) -> list[Row]:
    """Every entrant (also those without games) ranked: points, then the tie-breaks in the
    given order, then a coin flip from the seed."""
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}; expected one of {TIEBREAKS}")
    totals = _totals(seats, byes)
    ratings = {e.id: e.rating for e in entrants}
    faced = _opposition(seats)
    mine: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        mine[seat.player].append(seat)
    bye_count: dict[int, int] = defaultdict(int)
    for bye in byes:
        bye_count[bye.player] += 1
    rows = [
        _row(e.id, mine[e.id], bye_count[e.id], faced[e.id], totals, ratings, seed)
        for e in entrants
    ]
    later = _later_seat(seats)
    for row in rows:
        row.later_seat = later.get(row.player, 0.5)
    rows.sort(key=lambda row: _key(row, tiebreaks))
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
    return rows
