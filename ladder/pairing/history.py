"""What earlier rounds say about a round to pair: PURE (no Django).

Terms: *history* is every earlier table in seat order (index 0 moved first); a table of one
player is a *bye*. Two players *met* once for every earlier table they shared; a pairing's
*repeats* add, over each pair of players at the same new table, the times they met before.
"""

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations


def meetings(history: Iterable[Sequence[int]]) -> dict[int, dict[int, int]]:
    """``met[a][b]``: how many earlier tables a and b shared (byes are no meetings)."""
    met: dict[int, dict[int, int]] = {}
    for table in history:
        if len(table) < 2:
            continue
        for a in table:
            row = met.setdefault(a, {})
            for b in table:
                if b != a:
                    row[b] = row.get(b, 0) + 1
    return met


def bye_counts(history: Iterable[Sequence[int]]) -> Counter:
    """How many byes each player has had."""
    return Counter(table[0] for table in history if len(table) == 1)


def count_repeats(tables: Iterable[Sequence[int]], history: Iterable[Sequence[int]]) -> int:
    """Over all tables, for each pair of players at the same table, the times they met
    before."""
    met = meetings(history)
    return sum(met.get(a, {}).get(b, 0) for table in tables for a, b in combinations(table, 2))


class SeatRecord:
    """Each player's earlier seats: how often first, and the mean normalised position."""

    def __init__(self, history: Iterable[Sequence[int]]):
        self.firsts: Counter = Counter()
        self._positions: dict[int, list[float]] = {}
        for table in history:
            if len(table) < 2:
                continue  # a bye is no seat
            self.firsts[table[0]] += 1
            last = len(table) - 1
            for index, player in enumerate(table):
                # 0 = moved first, 1 = moved last, whatever the table's size
                self._positions.setdefault(player, []).append(index / last)

    def mean_position(self, player: int) -> float:
        """Mean of index / (table size - 1) over earlier seats; 1/2 (neutral) with none."""
        positions = self._positions.get(player)
        return sum(positions) / len(positions) if positions else 0.5
