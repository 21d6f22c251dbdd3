"""Arena seating: which free players sit down together now. PURE (no Django).

Terms (docs/tournaments.md "Arena"): a *free* player is an arena entrant who is neither at
a table nor paused; ``since`` is when they became free (any number: smaller means waiting
longer); ``points`` their arena points so far; they *just met* the players of their last
game (``met``: a pair just met if either of the two was in the other's last game). A
*grouping* seats some free players at tables of ``min_table`` to ``size`` players; the rest
*wait*. Its cost, compared in this order:

1. *rematches*: the pairs at one table who just met;
2. *waiting*: for each player left waiting, how many free players became free after them
   (so the ones who waited longest are seated first);
3. *small tables*: tables of ``min_table`` when it is below ``size``;
4. *spread*: for each table, how far apart its players are in the *closeness order* (arena
   points, then rating, highest first): the last one's index minus the first one's, less
   the table's size minus one (0 for neighbours).

``seat_free`` seats as many players as tables of those sizes can (``table_sizes``: so fewer
than ``min_table`` are left waiting) and returns the cheapest grouping it finds: the
closeness order cut into consecutive tables, as many full ones as possible (``_cut``), when
that has no rematch; otherwise that cut with its rematches swapped away (``_swap_away``)
and, for pools of up to ``EXACT_UP_TO`` players, an exact branch-and-bound search over every
grouping seating as many (``_Search``, any mix of table sizes).
"""

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ladder.pairing.sizes import table_sizes

EXACT_UP_TO = 12  # pools up to this many players get the exact search when needed
BUDGET = 50_000  # nodes of the exact search
SWAPS = 200  # at most this many improving swaps


@dataclass(frozen=True)
class Free:
    """A free player as the seating sees them."""

    id: int
    points: float = 0.0
    rating: float = 1500.0
    since: float = 0.0
    met: frozenset[int] = frozenset()


def arena_coin(seed: int, player: int) -> float:
    """A value in [0, 1) that settles exact ties (salted apart from the standings' coin)."""
    digest = hashlib.blake2b(f"arena:{seed}:{player}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


class _Pool:
    """The free players with the orders and costs the seating compares groupings by."""

    def __init__(self, players: Sequence[Free], seed: int, full: int):
        self.full = full
        self.by_id = {p.id: p for p in players}
        if len(self.by_id) != len(players):
            raise ValueError("a player is free only once")
        ids = sorted(self.by_id)
        self.coin = {p: arena_coin(seed, p) for p in ids}
        waits = sorted(ids, key=lambda p: (self.by_id[p].since, self.coin[p], p))
        self.wait_rank = {p: i for i, p in enumerate(waits)}
        self.order = sorted(
            ids, key=lambda p: (-self.by_id[p].points, -self.by_id[p].rating, self.coin[p], p)
        )
        self.pos = {p: i for i, p in enumerate(self.order)}
        self.just: set[tuple[int, int]] = set()
        for p in ids:
            for q in self.by_id[p].met:
                if q in self.by_id and q != p:
                    self.just.add((min(p, q), max(p, q)))

    @property
    def size(self) -> int:
        return len(self.order)

    def rematches(self, table: Sequence[int]) -> int:
        return sum(1 for a, b in combinations(table, 2) if (min(a, b), max(a, b)) in self.just)

    def table_cost(self, table: Sequence[int]) -> tuple[int, int, int, int]:
        places = [self.pos[p] for p in table]
        small = int(len(table) < self.full)
        return (self.rematches(table), 0, small, max(places) - min(places) - (len(table) - 1))

    def waiting_cost(self, waiting: Sequence[int]) -> tuple[int, int, int, int]:
        return (0, sum(self.size - 1 - self.wait_rank[p] for p in waiting), 0, 0)

    def cost(self, tables: Sequence[Sequence[int]], waiting: Sequence[int]) -> tuple:
        return _add(self.waiting_cost(waiting), *(self.table_cost(t) for t in tables))

    def seat_order(self, table: Sequence[int]) -> list[int]:
        # docs/tournaments.md "Arena": seat 0 (moving first, an edge) to whoever waited
        # longest, then to the fewest points, then the coin.
        return sorted(
            table, key=lambda p: (self.by_id[p].since, self.by_id[p].points, self.coin[p], p)
        )


def _add(*costs: tuple) -> tuple:
    return tuple(sum(parts) for parts in zip(*costs, strict=True))


def _sub(a: tuple, b: tuple) -> tuple:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def seat_free(
    players: Sequence[Free], *, size: int, min_table: int, seed: int = 0, budget: int = BUDGET
) -> list[list[int]]:
    """The tables to open now (player ids in seat order, top of the standings first)."""
    if not 2 <= size <= 5 or min_table not in {size, size - 1} or min_table < 2:
        raise ValueError(f"tables of {min_table} to {size} players are not allowed")
    if len(players) < min_table:
        return []
    pool = _Pool(players, seed, size)
    sizes, left = table_sizes(pool.size, size, min_table < size)
    tables, waiting = _cut(pool, sizes, left)
    if sum(pool.rematches(t) for t in tables):
        tables, waiting = _swap_away(pool, tables, waiting)
        if sum(pool.rematches(t) for t in tables) and pool.size <= EXACT_UP_TO:
            search = _Search(pool, size, min_table, pool.size - left, budget)
            tables, waiting = search.run(tables, waiting)
    tables = sorted(tables, key=lambda t: min(pool.pos[p] for p in t))
    return [pool.seat_order(t) for t in tables]


def _cut(pool: _Pool, sizes: list[int], left: int) -> tuple[list[list[int]], list[int]]:
    """The natural grouping: the longest waiting are seated, cut in closeness order."""
    by_wait = sorted(pool.order, key=pool.wait_rank.__getitem__)
    waiting = sorted(by_wait[pool.size - left :], key=pool.pos.__getitem__)
    seated = sorted(by_wait[: pool.size - left], key=pool.pos.__getitem__)
    tables, start = [], 0
    for k in sizes:
        tables.append(seated[start : start + k])
        start += k
    return tables, waiting


def _swap_away(pool: _Pool, tables: list[list[int]], waiting: list[int]):
    """Swap a player who just met someone at their table with one of another table (or a
    waiting player) while that lowers the cost; the cheapest swap first."""
    groups = [list(t) for t in tables] + [list(waiting)]
    last = len(groups) - 1  # the waiting players

    def cost_of(i: int, group: list[int]) -> tuple:
        return pool.waiting_cost(group) if i == last else pool.table_cost(group)

    for _ in range(SWAPS):
        best = None
        for i in range(last):
            here = groups[i]
            for u in here:
                if not any(pool.rematches([u, x]) for x in here if x != u):
                    continue
                for j, there in enumerate(groups):
                    if j == i:
                        continue
                    old = _add(cost_of(i, here), cost_of(j, there))
                    for v in there:
                        a = [v if x == u else x for x in here]
                        b = [u if x == v else x for x in there]
                        change = _sub(_add(cost_of(i, a), cost_of(j, b)), old)
                        key = (change, pool.pos[u], pool.pos[v])
                        if change < (0, 0, 0, 0) and (best is None or key < best[0]):
                            best = (key, i, j, a, b)
        if best is None:
            break
        _key, i, j, a, b = best
        groups[i], groups[j] = a, b
    return groups[:last], sorted(groups[last], key=pool.pos.__getitem__)


class _Search:
    """Branch and bound over every grouping that seats ``seated`` players at tables of
    ``small`` to ``full``: the closeness order's first unplaced player either opens a table
    with later players or waits; a partial grouping that already costs as much as the best
    found is dropped (costs only grow). At most ``budget`` nodes."""

    def __init__(self, pool: _Pool, full: int, small: int, seated: int, budget: int):
        self.pool, self.budget = pool, budget
        self.kinds = sorted({full, small}, reverse=True)
        self.left = pool.size - seated
        # The seat counts tables of these sizes can fill exactly.
        self.fillable = {0}
        for total in range(1, seated + 1):
            if any(total - k in self.fillable for k in self.kinds):
                self.fillable.add(total)
        self.seated = seated
        self.nodes = 0
        self.best: tuple = ()
        self.best_cost: tuple = ()

    def run(self, tables: list[list[int]], waiting: list[int]):
        self.best = ([list(t) for t in tables], list(waiting))
        self.best_cost = self.pool.cost(tables, waiting)
        self._extend(list(self.pool.order), self.seated, [], [], (0, 0, 0, 0))
        return self.best

    def _extend(self, rest: list[int], to_seat: int, tables: list, waiting: list, cost) -> None:
        self.nodes += 1
        if cost >= self.best_cost or self.nodes > self.budget:
            return
        if not rest:
            self.best, self.best_cost = ([list(t) for t in tables], list(waiting)), cost
            return
        first, others = rest[0], rest[1:]
        for k in self.kinds:
            if to_seat - k not in self.fillable:
                continue
            for mates in combinations(others, k - 1):
                table = [first, *mates]
                remaining = [p for p in others if p not in mates]
                step = self.pool.table_cost(table)
                self._extend(remaining, to_seat - k, [*tables, table], waiting, _add(cost, step))
        if len(waiting) < self.left:
            step = self.pool.waiting_cost([first])
            self._extend(others, to_seat, tables, [*waiting, first], _add(cost, step))
