"""The exact search, one window of a big field at a time: PURE (no Django).

Terms (as in ``search``): a *window* is a few consecutive tables of the current pairing,
and its players are whoever sits at them now. Re-pairing a window among its own players
and slots changes nothing else, so each window is a small problem the search settles
exactly, where one search over a whole big field would spend its budget deep in the last
tables. Windows overlap by half, so over a sweep a player can move further than one window.
"""

from collections.abc import Callable, Sequence

from ladder.pairing.repair import group_repeats
from ladder.pairing.search import Search

PLAYERS = 16  # players in a window: settled exactly in a few thousand nodes
WINDOW_BUDGET = 20_000  # at most this many nodes for one window, so one hard window
# cannot starve the rest


def _cost(groups, labels, met, distance: Callable[[int, int], int]) -> tuple[int, int]:
    """(repeats, displacement) of the window's tables."""
    repeats = sum(group_repeats(met, groups[t]) for t in labels)
    return repeats, sum(distance(i, t) for t in labels for i in groups[t])


def _improve(groups, labels: range, starts, met, budget: int, coords) -> int:
    """Re-pair one window with the exact search; return the nodes it used."""
    players = sorted(i for t in labels for i in groups[t])
    local = {p: k for k, p in enumerate(players)}
    window_met = [{local[q]: n for q, n in met[p].items() if q in local} for p in players]
    search = Search(
        [len(groups[t]) for t in labels],
        window_met,
        budget,
        window=(players, [starts[t] for t in labels]),
        coords=coords,
    )
    search.offer([[local[p] for p in groups[t]] for t in labels])
    search.run()
    for t, group in zip(labels, search.best, strict=True):
        groups[t] = [players[k] for k in group]
    return search.nodes


def polish(
    groups: list[list[int]],
    starts: Sequence[int],
    met: Sequence[dict[int, int]],
    distance: Callable[[int, int], int],
    budget: int,
    coords: Sequence[int] | None = None,
) -> int:
    """Improve the tables window by window, top first, within ``budget`` nodes; return the
    nodes used. ``coords``: each position's coordinate, as in ``search``."""
    width = max(2, PLAYERS // max(len(g) for g in groups)) if groups else 1
    used, first = 0, 0
    while used < budget:
        labels = range(first, min(first + width, len(groups)))
        if _cost(groups, labels, met, distance) != (0, 0):  # else nothing to gain
            window_budget = min(WINDOW_BUDGET, budget - used)
            used += _improve(groups, labels, starts, met, window_budget, coords)
        if labels.stop >= len(groups):
            break
        first += max(1, width // 2)
    return used
