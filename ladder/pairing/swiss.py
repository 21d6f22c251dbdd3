"""Swiss pairing of one round into tables: PURE (no Django).

Terms: ``order`` is the standings, best first; a player's *position* is their index among
the players who are seated this round (byes removed). See ``ladder.pairing`` for the rules.
"""

from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass
class _Round:
    """One round's inputs, prepared: who sits out, who is seated, and what they met."""

    sizes: list[int]
    byes: list[int]
    seated: list[int]
    met: list[dict[int, int]]  # by position


def _prepare(order: Sequence[int], size: int, allow_smaller: bool, history) -> _Round:
    if len(set(order)) != len(order):
        raise ValueError("a player appears twice in the order")
    sizes, bye_count = table_sizes(len(order), size, allow_smaller)
    byes = choose_byes(order, bye_count, bye_counts(history))
    sitting_out = set(byes)
    seated = [p for p in order if p not in sitting_out]
    position = {p: i for i, p in enumerate(seated)}
    by_player = meetings(history)
    met = [
        {position[q]: n for q, n in by_player.get(p, {}).items() if q in position} for p in seated
    ]
    return _Round(sizes, byes, seated, met)


def _finish(prepared: _Round, groups, history, seed: int, **extra) -> Pairing:
    """Player ids in seat order, and the count of repeats."""
    record = SeatRecord(history)
    tables = [seat_order([prepared.seated[i] for i in g], record, seed) for g in groups]
    repeats = sum(group_repeats(prepared.met, g) for g in groups)
    return Pairing(tables, prepared.byes, repeats, **extra)


def pair_round(
    order: Sequence[int],
    *,
    size: int,
    allow_smaller: bool,
    history: Sequence[Sequence[int]] = (),
    seed: int = 0,
    budget: int = 200_000,
) -> Pairing:
    """Pair one round. ``order``: players in standings order, best first (round 1: by
    rating). ``history``: every earlier table in seat order; a table of one player is a
    bye."""
    prepared = _prepare(order, size, allow_smaller, history)
    search = Search(prepared.sizes, prepared.met, budget)
    # docs/tournaments.md "Pairing": the natural cut with its repeats swapped away is a
    # cheap first answer; the search must beat it, which bounds it tightly from the start.
    start = search.natural()
    repair(start, prepared.met, search.distance)
    search.offer(start)
    if len(prepared.seated) <= WHOLE_FIELD:
        groups, proven = _whole(search, prepared.met)
    else:
        groups, proven = _by_windows(search, prepared.met, budget)
    displacement = sum(search.distance(i, t) for t, g in enumerate(groups) for i in g)
    return _finish(
        prepared,
        groups,
        history,
        seed,
        displacement=displacement,
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


def _by_windows(search: Search, met, budget: int) -> tuple[list[list[int]], tuple[bool, bool]]:
    """The search window by window (``windows``), then swaps for any repeat left."""
    groups = search.best
    search.nodes = polish(groups, search.starts, met, search.distance, budget)
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
) -> Pairing:
    """The top-down baseline: cut the standings into consecutive tables, no repeat avoidance
    (for the benchmark)."""
    prepared = _prepare(order, size, allow_smaller, history)
    starts = [sum(prepared.sizes[:t]) for t in range(len(prepared.sizes))]
    groups = [range(s, s + n) for s, n in zip(starts, prepared.sizes, strict=True)]
    return _finish(prepared, groups, history, seed=0)
