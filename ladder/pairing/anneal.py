"""Closer points and a fair first seat, by simulated annealing: PURE (no Django).

Terms as in ``search``: tables are lists of positions indexed by label (labels follow the
standings, so near labels hold near points); ``value[i]`` is position i's current
tournament points in half-points (an integer) and ``firsts[i]`` the times they have moved
first. A table's *spread* is its most minus its fewest points. Its *seat cost* is
``SEAT_WEIGHT * f * f`` half-points, f being the fewest firsts among its members: that
member moves first (``seats``), so a round with low seat costs hands seat 0 to those who had
it least. A table's *cost* is ``weight * repeats + spread + seat cost``, ``weight`` above
any spread and seat cost a round can have: fewer repeats always wins.

A *move* swaps one player of a table with one of a table at most ``RADIUS`` labels away.
The annealing makes ``MOVES_PER_TABLE`` moves per table (at most ``MOVES``), the
*temperature* falling linearly from ``START`` half-points to nearly 0: a move is kept if
the two tables' cost falls or stays, and one that raises it by d with probability
``exp(-d / temperature)``, which lets the tables leave a pairing no single swap improves.
The cheapest tables seen are the answer (so never worse than those given); the random
stream has a fixed seed, so the same inputs give the same tables.
"""

import math
import random
from collections.abc import Sequence

RADIUS = 16  # labels: a swap reaches 16 tables (64 players of 4) up or down
MOVES_PER_TABLE = 3750
MOVES = 100_000  # at most, in all: the biggest fields stay well under a second
START = 8  # half-points: at first a 4-point uphill move is kept about 6 times in 10
SEAT_WEIGHT = 6  # a table whose freshest member moved first once costs as much as a
# 3-point spread; twice, four times that


class Annealer:
    """One round's tables and their costs; ``run`` improves ``groups`` in place."""

    def __init__(self, groups: list[list[int]], met: Sequence[dict[int, int]],
                 value: Sequence[int], firsts: Sequence[int]):  # fmt: skip
        self.groups, self.met, self.value, self.firsts = groups, met, value, firsts
        span = max(value, default=0) - min(value, default=0)
        worst_seat = SEAT_WEIGHT * max(firsts, default=0) ** 2
        self.weight = len(groups) * (span + worst_seat + 1) + 1
        self.costs = [self.cost(g) for g in groups]

    def cost(self, group: Sequence[int]) -> int:
        """The cost of one table."""
        # The hot loop of the annealing: plain loops, no generators.
        met, value, firsts = self.met, self.value, self.firsts
        repeats = 0
        for k in range(1, len(group)):
            seen = met[group[k]]
            if seen:
                for other in group[:k]:
                    repeats += seen.get(other, 0)
        points = [value[i] for i in group]
        fresh = min([firsts[i] for i in group])
        return self.weight * repeats + max(points) - min(points) + SEAT_WEIGHT * fresh * fresh

    def run(self, moves: int) -> int:
        """Make ``moves`` moves; leave the cheapest tables seen in ``groups``; return the
        cost saved."""
        groups, costs, n = self.groups, self.costs, len(self.groups)
        if n < 2 or moves <= 0:
            return 0
        rng = random.Random(0)
        start = current = best = sum(costs)
        given = [list(g) for g in groups]
        kept = given
        draw, cooling = rng.random, START / moves
        for k in range(moves):
            temperature = START - k * cooling + 0.01
            a = int(draw() * n)
            low, high = max(0, a - RADIUS), min(n - 1, a + RADIUS)
            b = low + int(draw() * (high - low))  # any table in reach but a
            b += b >= a
            here, there = groups[a], groups[b]
            i, j = int(draw() * len(here)), int(draw() * len(there))
            here[i], there[j] = there[j], here[i]
            new_a, new_b = self.cost(here), self.cost(there)
            delta = new_a + new_b - costs[a] - costs[b]
            if delta <= 0 or draw() < math.exp(-delta / temperature):
                costs[a], costs[b] = new_a, new_b
                current += delta
                if current < best:
                    best, kept = current, [list(g) for g in groups]
            else:
                here[i], there[j] = there[j], here[i]
        groups[:] = kept
        self.costs = [self.cost(g) for g in groups]
        return start - best
