"""Swiss pairing of one round into tables: PURE (no Django).

Terms: ``order`` is the standings, best first; a player's *position* is their index among
the players who are seated this round (byes removed). See ``ladder.pairing`` for the rules.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ladder.pairing.anneal import MOVES, MOVES_PER_TABLE, Annealer
from ladder.pairing.history import SeatRecord, bye_counts, meetings
from ladder.pairing.repair import group_repeats, repair
from ladder.pairing.search import Search
from ladder.pairing.seats import seat_order
from ladder.pairing.sizes import choose_byes, table_sizes
from ladder.pairing.windows import polish

WHOLE_FIELD = 32  # above this many seated players, the search works window by window


@dataclass
class Pairing:
    tables: list[list[int]]  # player ids in seat order, top of the standings first
    byes: list[int]
    repeats: int  # over all tables and pairs at a table, the times the pair met before
    displacement: int = 0  # sum of players' distances from their table's natural slot
    minimal_repeats: bool = False  # proven: no pairing of these tables has fewer repeats
    exhaustive: bool = False  # proven too: no less displacement with as few repeats
    nodes: int = 0  # candidates the search examined
    spread: float = 0.0  # mean over tables of (most - fewest current points at the table)


@dataclass
class _Round:
    """One round's inputs, prepared: who sits out, who is seated, and what they met."""

    sizes: list[int]
    byes: list[int]
    seated: list[int]
    met: list[dict[int, int]]  # by position
    coords: list[int] | None = None  # by position, see ``search``; None: the positions


def _coords(seated: Sequence[int], points: Mapping[int, float]) -> list[int]:
    """Each position's coordinate: half-points below the leader first, then the position."""
    # docs/tournaments.md "Pairing": a half-point apart weighs more than any move between
    # players on equal points, so the tables keep their players' points close first.
    top, step = max(points.get(p, 0.0) for p in seated), len(seated) + 1
    coords, last = [], -1
    for k, p in enumerate(seated):
        x = round((top - points.get(p, 0.0)) * 2) * step + k
        last = max(last + 1, x)  # never decreasing, even if points and order disagree
        coords.append(last)
    return coords


def _deal(seated: list[int], sizes: Sequence[int], points, ratings) -> list[int]:
    """The seated players with each group on equal points dealt across the tables its
    places span, strongest first: the natural cut then seats a group's strongest at
    different tables."""
    # docs/tournaments.md "Pairing": players of one rating on equal points are likely to
    # stay close in points, so they are kept apart now and left free to meet later, when
    # keeping tables close would otherwise force a repeat.
    slot = [t for t, n in enumerate(sizes) for _ in range(n)]
    dealt, start = list(seated), 0
    while start < len(seated):
        end = start
        while end < len(seated) and points.get(seated[end], 0.0) == points.get(seated[start], 0.0):
            end += 1
        group = seated[start:end]
        if ratings:
            group.sort(key=lambda p: -ratings.get(p, 0.0))  # stable: standings order on ties
        places: dict[int, list[int]] = {}
        for k in range(start, end):
            places.setdefault(slot[k], []).append(k)
        queues = list(places.values())
        turn = 0
        for player in group:
            while not queues[turn % len(queues)]:
                turn += 1
            dealt[queues[turn % len(queues)].pop(0)] = player
            turn += 1
        start = end
    return dealt


def _prepare(
    order: Sequence[int], size: int, allow_smaller: bool, history, points=None, ratings=None
) -> _Round:
    if len(set(order)) != len(order):
        raise ValueError("a player appears twice in the order")
    sizes, bye_count = table_sizes(len(order), size, allow_smaller)
    byes = choose_byes(order, bye_count, bye_counts(history))
    sitting_out = set(byes)
    seated = [p for p in order if p not in sitting_out]
    if points:
        seated = _deal(seated, sizes, points, ratings)
    position = {p: i for i, p in enumerate(seated)}
    by_player = meetings(history)
    met = [
        {position[q]: n for q, n in by_player.get(p, {}).items() if q in position} for p in seated
    ]
    coords = _coords(seated, points) if points and seated else None
    return _Round(sizes, byes, seated, met, coords)


def _finish(prepared: _Round, groups, history, seed: int, points=None, **extra) -> Pairing:
    """Player ids in seat order, and the count of repeats."""
    record = SeatRecord(history)
    tables = [seat_order([prepared.seated[i] for i in g], record, seed) for g in groups]
    repeats = sum(group_repeats(prepared.met, g) for g in groups)
    return Pairing(tables, prepared.byes, repeats, spread=_spread(tables, points), **extra)


def _spread(tables: Sequence[Sequence[int]], points: Mapping[int, float] | None) -> float:
    """Mean over tables of the most minus the fewest current points at the table."""
    if not points or not tables:
        return 0.0
    gaps = [max(points.get(p, 0.0) for p in t) - min(points.get(p, 0.0) for p in t) for t in tables]
    return sum(gaps) / len(gaps)


def pair_round(
    order: Sequence[int],
    *,
    size: int,
    allow_smaller: bool,
    history: Sequence[Sequence[int]] = (),
    seed: int = 0,
    budget: int = 200_000,
    points: Mapping[int, float] | None = None,
    ratings: Mapping[int, float] | None = None,
) -> Pairing:
    """Pair one round. ``order``: players in standings order, best first (round 1: by
    rating). ``history``: every earlier table in seat order; a table of one player is a
    bye. ``points``: each player's current tournament points, which make the tables keep
    points close and hand seat 0 round the field (docs/tournaments.md "Pairing", steps 2
    and 3); ``ratings`` deal players on equal points apart."""
    prepared = _prepare(order, size, allow_smaller, history, points, ratings)
    search = Search(prepared.sizes, prepared.met, budget, coords=prepared.coords)
    # docs/tournaments.md "Pairing": the natural cut with its repeats swapped away is a
    # cheap first answer; the search must beat it, which bounds it tightly from the start.
    start = search.natural()
    repair(start, prepared.met, search.distance)
    search.offer(start)
    if len(prepared.seated) <= WHOLE_FIELD:
        groups, proven = _whole(search, prepared.met)
    else:
        groups, proven = _by_windows(search, prepared.met, budget, prepared.coords)
    if points:
        _anneal(groups, prepared, history, points)
    return _finish(
        prepared,
        groups,
        history,
        seed,
        points,
        displacement=_displacement(groups, prepared.sizes),
        minimal_repeats=proven[0],
        exhaustive=proven[1],
        nodes=search.nodes,
    )


def _whole(search: Search, met) -> tuple[list[list[int]], tuple[bool, bool]]:
    """One search over the whole field; swaps after it if it ran out of budget."""
    search.run()
    groups = search.best
    if not search.minimal_repeats:
        repair(groups, met, search.distance)
    return groups, (search.minimal_repeats, search.exhaustive)


def _anneal(groups, prepared: _Round, history, points: Mapping[int, float]) -> None:
    """Bring the tables' points closer and seat 0 to those who had it least (``anneal``)."""
    value = [round(points.get(p, 0.0) * 2) for p in prepared.seated]
    record = SeatRecord(history)
    firsts = [record.firsts[p] for p in prepared.seated]
    Annealer(groups, prepared.met, value, firsts).run(min(MOVES, MOVES_PER_TABLE * len(groups)))


def _displacement(groups: Sequence[Sequence[int]], sizes: Sequence[int]) -> int:
    """The sum of players' distances in places from their table's natural slot."""
    total, start = 0, 0
    for group, n in zip(groups, sizes, strict=True):
        total += sum(start - i if i < start else max(0, i - start - n + 1) for i in group)
        start += n
    return total


def _by_windows(
    search: Search, met, budget: int, coords
) -> tuple[list[list[int]], tuple[bool, bool]]:
    """The search window by window (``windows``), then swaps for any repeat left."""
    groups = search.best
    search.nodes = polish(groups, search.starts, met, search.distance, budget, coords)
    repair(groups, met, search.distance)
    # Nothing is proven about the whole field, except that no repeat is always minimal.
    no_repeats = not any(group_repeats(met, g) for g in groups)
    return groups, (no_repeats, False)


def pair_naive(
    order: Sequence[int],
    *,
    size: int,
    allow_smaller: bool,
    history: Sequence[Sequence[int]] = (),
    points: Mapping[int, float] | None = None,
) -> Pairing:
    """The top-down baseline: cut the standings into consecutive tables, no repeat avoidance
    (for the benchmark)."""
    prepared = _prepare(order, size, allow_smaller, history)
    starts = [sum(prepared.sizes[:t]) for t in range(len(prepared.sizes))]
    groups = [range(s, s + n) for s, n in zip(starts, prepared.sizes, strict=True)]
    return _finish(prepared, groups, history, 0, points)
