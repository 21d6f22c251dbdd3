"""Forming ranked tables from a queue: PURE (no Django).

Terms: a *waiter* is one queued player with a rating, the table sizes they accept
(``min_size``..``max_size``, 2-5) and how long they have waited; a waiter's *window* is the
rating spread they accept at their table, which widens the longer they wait; a *group* is a
set of waiters that becomes one table.

Rules (issue 7): everyone at a table accepts its size, and the spread of the table's ratings
(highest minus lowest) fits inside the window of every player at it. The longest-waiting
player is served first and gets the largest table their window allows; the others of a
group are the players nearest to them in rating.
"""

from collections.abc import Sequence
from dataclasses import dataclass

BASE_WINDOW = 100.0  # rating spread accepted at once
WIDEN_PER_SECOND = 5.0  # +100 per 20 s waited
MAX_WINDOW = 1000.0  # after ~3 minutes anyone of the league will do


@dataclass(frozen=True, slots=True)
class Waiter:
    key: object
    rating: float
    min_size: int
    max_size: int
    waited: float  # seconds

    def accepts(self, size: int) -> bool:
        return self.min_size <= size <= self.max_size


def window(waited: float) -> float:
    """The rating spread a player accepts after ``waited`` seconds in the queue."""
    return min(MAX_WINDOW, BASE_WINDOW + WIDEN_PER_SECOND * max(0.0, waited))


def form_tables(waiters: Sequence[Waiter]) -> list[list[Waiter]]:
    """Groups to seat now; each waiter is in at most one group. Deterministic."""
    free = sorted(waiters, key=lambda w: (-w.waited, w.rating, str(w.key)))
    groups = []
    while free:
        anchor = free.pop(0)
        group = _best_group(anchor, free)
        if group is None:
            continue
        groups.append(group)
        taken = {id(w) for w in group}
        free = [w for w in free if id(w) not in taken]
    return groups


def _best_group(anchor: Waiter, others: Sequence[Waiter]) -> list[Waiter] | None:
    """The largest acceptable table for ``anchor`` among ``others``, or None."""
    for size in range(anchor.max_size, anchor.min_size - 1, -1):
        group = _group_of_size(anchor, others, size)
        if group is not None:
            return group
    return None


def _group_of_size(anchor: Waiter, others: Sequence[Waiter], size: int) -> list[Waiter] | None:
    near = sorted(
        (w for w in others if w.accepts(size)),
        key=lambda w: (abs(w.rating - anchor.rating), -w.waited),
    )
    group = [anchor]
    for candidate in near:
        if _fits(group + [candidate]):
            group.append(candidate)
            if len(group) == size:
                return group
    return None


def _fits(group: Sequence[Waiter]) -> bool:
    ratings = [w.rating for w in group]
    spread = max(ratings) - min(ratings)
    return all(spread <= window(w.waited) for w in group)
