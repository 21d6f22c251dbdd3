"""Branch and bound over one round's tables: PURE (no Django).

Players are numbered 0 to m - 1 in standings order. A player's *position* is their place
among the round's seated players (0 = best): their number, unless the search works on a
*window* (a few consecutive tables of a big field), where ``pos`` maps one to the other.
Terms:

- *label*: a table's index (0 = top); the tables' sizes are largest first.
- *slot*: the positions table t would hold if the standings were simply cut into tables,
  ``[start_t, start_t + size_t)``.
- *coordinate*: where a position stands on the scale distances are measured on; it never
  decreases down the standings. Plain positions by default; ``swiss`` passes coordinates led
  by the players' points, so moving between players on equal points costs little.
- *displacement*: over all players, the distance from their coordinate to their table's
  slot's range of coordinates (0 inside it). The natural cut has displacement 0.
- *cost*: ``repeats * weight + displacement`` with ``weight`` above any displacement, so
  fewer repeats always wins and displacement only decides between equal repeats.
- *node*: one candidate player examined; the search stops after ``budget`` of them.

The search builds tables from the top down: the best unseated player opens the next table
of a size still to fill (tables of one size take their labels in the order of their best
players, so each partition is visited once) and picks companions below them, those who
add no repeat first. A partial pairing is abandoned as soon as its cost plus a lower bound
for the players left reaches the best complete one found. The bounds: players below or
above every slot still open are displaced for sure; a player who has met all but f of the
others left sits with at least ``size - 1 - f`` old opponents; and the table floors
(``floors``).

It runs twice: first on repeats alone (displacement counts 0), which proves the fewest
repeats with far fewer nodes than the full cost would; then on the full cost, from that
answer, with what is left of the budget.
"""

from collections.abc import Iterator, Sequence
from itertools import accumulate

from ladder.pairing.floors import floor_shares

# (size class, label, members, cost before, cost after)
Child = tuple[int, int, tuple[int, ...], int, int]


class Search:
    """One round's search; ``run`` leaves the best tables found in ``best``."""

    def __init__(
        self,
        sizes: Sequence[int],
        met: Sequence[dict[int, int]],
        budget: int,
        window: tuple[Sequence[int], Sequence[int]] | None = None,
        coords: Sequence[int] | None = None,
    ):
        """``met`` by player index; ``window``: (each player's position, each table's slot
        start) when the players and tables are a window of a bigger field; ``coords``: each
        position's coordinate (default: the position itself)."""
        m = sum(sizes)
        self.m, self.sizes, self.met, self.budget = m, list(sizes), met, budget
        self.pos, self.starts = window or (range(m), [0, *accumulate(sizes)][:-1])
        ends = [s + n - 1 for s, n in zip(self.starts, sizes, strict=True)]
        x = coords if coords is not None else range(max([m, *self.pos, *ends]) + 1)
        self.at = [x[p] for p in self.pos]  # each player's coordinate
        self.lo = [x[s] for s in self.starts]  # each slot's range of coordinates
        self.hi = [x[e] for e in ends]
        # each player is displaced by less than the span of coordinates
        span = max([0, *self.at, *self.hi]) - min([0, *self.at, *self.lo])
        self.weight = m * (span + 1) + 1
        self.classes = [
            [t for t, s in enumerate(sizes) if s == size]
            for size in sorted(set(sizes), reverse=True)
        ]
        self.opened = [0] * len(self.classes)  # tables opened per class
        self.tables_left = len(sizes)
        # A doubly linked ring of the unseated positions; m is the head and the tail.
        self.nxt = [*range(1, m + 1), 0]
        self.prv = [m, *range(m)]
        self.free = [True] * m
        self.met_free = [len(met[i]) for i in range(m)]  # unseated players met before
        self.once_free = [sum(n == 1 for n in met[i].values()) for i in range(m)]  # met once
        self.max_met = max(self.met_free, default=0)
        self.remaining, self.cost = m, 0
        self.nodes = 0
        self.shares: list[tuple[int, int, int]] = [(0, 0, 0)] * m  # see run()
        self.share_free = [0, 0, 0]
        self.has_floors = False
        self.groups: list[tuple[int, ...]] = [()] * len(sizes)
        self.spread = 1  # what a unit of displacement costs: 0 while proving repeats
        self.best = self.natural()
        self.best_cost = self.cost_of(self.best)
        self.minimal_repeats = False  # the first run finished: no pairing has fewer repeats
        self.exhaustive = False  # both runs finished: nor fewer displacement on equal repeats

    def floor_bound(self, opening: int = -1, members: Sequence[int] = ()) -> int:
        """Repeats the unseated players add at least, from their shares (``floors``); with
        ``opening`` and ``members``, as if that class's next table were seated with them."""
        share_free = self.share_free
        if members:
            share_free = [
                total - sum(self.shares[i][k] for i in members)
                for k, total in enumerate(share_free)
            ]
        open_classes = [
            k
            for k, labels in enumerate(self.classes)
            if self.opened[k] + (k == opening) < len(labels)
        ]
        if not open_classes:
            return 0
        size = self.sizes[self.classes[open_classes[0]][0]]
        if len(open_classes) == 2:
            return -(-share_free[2] // (size * (size - 1)))
        return -(-share_free[open_classes[0]] // size)

    def natural(self) -> list[list[int]]:
        """The players cut into consecutive tables (for a whole field: displacement 0)."""
        firsts = [0, *accumulate(self.sizes)]
        return [list(range(a, b)) for a, b in zip(firsts, firsts[1:], strict=False)]

    def cost_of(self, groups: Sequence[Sequence[int]]) -> int:
        """The cost of complete tables, by label."""
        moved = sum(self.distance(i, t) for t, g in enumerate(groups) for i in g)
        return self.weight * sum(self.repeats(g) for g in groups) + moved * self.spread

    def offer(self, groups: list[list[int]]) -> None:
        """Start from ``groups`` if they beat the best so far (a tighter bound prunes more)."""
        cost = self.cost_of(groups)
        if cost < self.best_cost:
            self.best, self.best_cost = groups, cost

    def repeats(self, group: Sequence[int]) -> int:
        met = self.met
        return sum(met[a].get(b, 0) for i, a in enumerate(group) for b in group[i + 1 :])

    def distance(self, i: int, label: int) -> int:
        """How far player i is from the slot of ``label``."""
        at, low = self.at[i], self.lo[label]
        if at < low:
            return low - at
        high = self.hi[label]
        return at - high if at > high else 0

    def run(self) -> None:
        """Prove the fewest repeats, then the least displacement, within the budget."""
        self.spread = 0
        self.best_cost = self.cost_of(self.best)
        if self.best_cost and self.budget > 0:  # only a search needs the floors
            sizes = [self.sizes[labels[0]] for labels in self.classes]
            self.shares, self.nodes = floor_shares(self.met, sizes)
            self.share_free = [sum(column) for column in zip(*self.shares, strict=True)]
            self.has_floors = any(any(share) for share in self.shares)
        self.minimal_repeats = self._search()
        self.spread = 1
        self.best_cost = self.cost_of(self.best)
        self.exhaustive = self.minimal_repeats and self._search()

    def _search(self) -> bool:
        """Improve ``best``; True if nothing better exists, False if out of budget."""
        floor = self.lower_bound()  # nothing can beat this: stop once it is reached
        if self.best_cost <= floor or self.tables_left < 2:
            return True
        # Depth-first with an explicit stack: a big field has hundreds of tables, deeper
        # than Python's recursion limit. moves[d] is the child applied below stack[d].
        stack = [self.children()]
        moves: list[Child] = []
        finished = False
        while not finished:
            if self.nodes >= self.budget:
                break
            if len(moves) == len(stack):
                self.undo(moves.pop())
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
                finished = not stack
                continue
            self.apply(child)
            moves.append(child)
            if self.cost + self.lower_bound() >= self.best_cost:
                continue
            if self.tables_left == 1:  # the unseated players are the last table
                finished = self.close() <= floor
            else:
                stack.append(self.children())
        for child in reversed(moves):  # leave the state as found, for the next run
            self.undo(child)
        return finished

    def close(self) -> int:
        """Seat everyone left at the last open table; keep that pairing if it is the best."""
        members, i = [], self.nxt[self.m]
        while i != self.m:
            members.append(i)
            i = self.nxt[i]
        self.nodes += len(members) - 1  # as many as picking them one by one would examine
        label = next(
            labels[n]
            for labels, n in zip(self.classes, self.opened, strict=True)
            if n < len(labels)
        )
        moved = sum(self.distance(i, label) for i in members) * self.spread
        cost = self.cost + self.weight * self.repeats(members) + moved
        if cost < self.best_cost:
            self.best = [list(g) for g in self.groups]
            self.best[label] = members
            self.best_cost = cost
        return self.best_cost

    def apply(self, child: Child) -> None:
        klass, label, members, _, cost = child
        nxt, prv, free, met = self.nxt, self.prv, self.free, self.met
        met_free, once_free, share_free = self.met_free, self.once_free, self.share_free
        for i in members:
            nxt[prv[i]], prv[nxt[i]] = nxt[i], prv[i]
            free[i] = False
            for j, n in met[i].items():
                if free[j]:
                    met_free[j] -= 1
                    if n == 1:
                        once_free[j] -= 1
            if self.has_floors:
                for k, share in enumerate(self.shares[i]):
                    share_free[k] -= share
        self.groups[label] = members
        self.opened[klass] += 1
        self.tables_left -= 1
        self.remaining -= len(members)
        self.cost = cost

    def undo(self, child: Child) -> None:
        klass, label, members, cost, _ = child
        nxt, prv, free, met = self.nxt, self.prv, self.free, self.met
        met_free, once_free, share_free = self.met_free, self.once_free, self.share_free
        for i in reversed(members):  # the ring relinks in the reverse order of unlinking
            nxt[prv[i]] = prv[nxt[i]] = i
            free[i] = True
            for j, n in met[i].items():
                if free[j]:
                    met_free[j] += 1
                    if n == 1:
                        once_free[j] += 1
            if self.has_floors:
                for k, share in enumerate(self.shares[i]):
                    share_free[k] += share
        self.groups[label] = ()
        self.opened[klass] -= 1
        self.tables_left += 1
        self.remaining += len(members)
        self.cost = cost

    def unopened(self) -> list[tuple[int, int]]:
        """(first, last) label of each size class that still has tables to open."""
        return [
            (labels[n], labels[-1])
            for labels, n in zip(self.classes, self.opened, strict=True)
            if n < len(labels)
        ]

    def lower_bound(self) -> int:
        """A cost the unseated players will add at least."""
        spans = self.unopened()
        if not spans:
            return 0
        smallest = min(self.sizes[first] for first, _ in spans)
        bound = self.weight * max(self.floor_bound(), self.repeat_bound(smallest))
        return bound + self.displacement_bound(spans) if self.spread else bound

    def displacement_bound(self, spans: list[tuple[int, int]]) -> int:
        """Displacement the unseated players above or below every open slot will add."""
        low = min(self.lo[first] for first, _ in spans)
        high = max(self.hi[last] for _, last in spans)
        m, at = self.m, self.at
        bound, i = 0, self.nxt[m]
        while i != m and at[i] < low:
            bound, i = bound + low - at[i], self.nxt[i]
        i = self.prv[m]
        while i != m and at[i] > high:
            bound, i = bound + at[i] - high, self.prv[i]
        return bound

    def repeat_bound(self, smallest: int) -> int:
        """Repeats the unseated players cannot avoid: one who has not met only f of the
        others sits with at least ``smallest - 1 - f`` old opponents, at best those met
        once (each other one counts 2 at least); each such pair is counted from both ends."""
        left = self.remaining
        if left - smallest >= self.max_met:
            return 0  # everyone has at least smallest - 1 new faces left
        m, nxt, met_free, once_free = self.m, self.nxt, self.met_free, self.once_free
        total, i = 0, nxt[m]
        while i != m:
            short = smallest - left + met_free[i]
            if short > 0:
                once = once_free[i]
                total += short if short <= once else 2 * short - once
            i = nxt[i]
        return (total + 1) // 2

    def children(self) -> Iterator[Child]:
        """Every way for the best unseated player to open a table, likeliest best first."""
        p = self.nxt[self.m]
        options = [
            (self.distance(p, labels[n]), k)
            for k, (labels, n) in enumerate(zip(self.classes, self.opened, strict=True))
            if n < len(labels)
        ]
        for gap, klass in sorted(options):
            label = self.classes[klass][self.opened[klass]]
            cost = self.cost + gap * self.spread
            if cost >= self.best_cost:
                continue
            for with_repeats in (False, True):
                for members, after in self.companions(label, p, cost, with_repeats):
                    # the floors are cheap to update: skip the table without seating it
                    if self.has_floors and (
                        after + self.weight * self.floor_bound(klass, members) >= self.best_cost
                    ):
                        continue
                    yield klass, label, members, self.cost, after

    def companions(
        self, label: int, p: int, cost: int, with_repeats: bool
    ) -> Iterator[tuple[tuple[int, ...], int]]:
        """Members for the table ``label`` that p opens, from below p, with the cost after
        them: the sets that add a repeat if ``with_repeats``, else the sets that add none."""
        # One frame with its own stack (chosen, costs) rather than a generator per member:
        # this loop is where the search spends its time.
        start, end, need = self.lo[label], self.hi[label], self.sizes[label] - 1
        met, nxt, m, weight, spread, coord = (
            self.met, self.nxt, self.m, self.weight, self.spread, self.at
        )  # fmt: skip
        # Displacement stays below weight, so a cost at or above this one has a new repeat.
        repeated = (self.cost // weight + 1) * weight
        best, limit = self.best_cost, self.budget - self.nodes
        chosen, costs = [p], [cost]
        depth, count, c = 1, 0, nxt[p]
        while count < limit:
            if c == m:  # no candidate left at this depth: back up one member
                if depth == 1:
                    break
                depth -= 1
                c = nxt[chosen.pop()]
                costs.pop()
                continue
            count += 1
            base = costs[-1]
            at = coord[c]
            gap = spread * (start - at if at < start else (at - end if at > end else 0))
            if base + gap >= best:
                # past the slot's start, every later candidate is at least as far away
                c = m if at >= start else nxt[c]
                continue
            seen, added = met[c], 0
            for x in chosen:
                added += seen.get(x, 0)
            after = base + gap + added * weight
            if (added == 0 or with_repeats) and after < best:
                if depth < need:
                    chosen.append(c)
                    costs.append(after)
                    depth += 1
                elif with_repeats == (after >= repeated):
                    self.nodes += count
                    yield (*chosen, c), after
                    count, best, limit = 0, self.best_cost, self.budget - self.nodes
            c = nxt[c]
        self.nodes += count
