"""A swap pass that removes repeats the search left: PURE (no Django).

Terms as in ``search``: tables are lists of positions indexed by label. A *swap* exchanges
one player of a table that has a repeat with one player of another table; it is kept only
if the two tables' repeats together go down, so repeats never grow.
"""

from collections.abc import Callable, Sequence


def _against(met: Sequence[dict[int, int]], player: int, group: Sequence[int], but: int) -> int:
    """Times ``player`` met the members of ``group`` other than ``but``."""
    seen = met[player]
    return sum(seen.get(x, 0) for x in group if x != but)


def group_repeats(met: Sequence[dict[int, int]], group: Sequence[int]) -> int:
    """Repeats at one table."""
    return sum(met[a].get(b, 0) for i, a in enumerate(group) for b in group[i + 1 :])


def _best_swap(groups, met, distance, t: int, other: int) -> tuple | None:
    """The swap between tables t and other that removes most repeats (least displacement
    added on equal), as (repeats change, displacement change, u, v); None if none helps."""
    best = None
    here, there = groups[t], groups[other]
    for u in here:
        loss = _against(met, u, here, u)
        if not loss:
            continue  # moving a player without a repeat cannot lower t's repeats
        for v in there:
            change = (
                _against(met, v, here, u)
                - loss
                + _against(met, u, there, v)
                - _against(met, v, there, v)
            )
            if change >= 0:
                continue
            moved = distance(u, other) + distance(v, t) - distance(u, t) - distance(v, other)
            key = (change, moved, u, v)
            if best is None or key < best:
                best = key
    return best


def _fix(groups, met, distance: Callable[[int, int], int], t: int) -> bool:
    """Make the nearest helpful swap for table t; False if no table can help."""
    for radius in range(1, len(groups)):
        found = [
            (swap, other)
            for other in (t - radius, t + radius)
            if 0 <= other < len(groups) and (swap := _best_swap(groups, met, distance, t, other))
        ]
        if found:
            (_, _, u, v), other = min(found)
            groups[t] = [v if x == u else x for x in groups[t]]
            groups[other] = [u if x == v else x for x in groups[other]]
            return True
    return False


def repair(groups: list[list[int]], met: Sequence[dict[int, int]], distance) -> int:
    """Swap players between tables, nearest tables first, while that removes repeats; return
    the number of swaps."""
    swaps, improved = 0, True
    while improved:
        improved = False
        for t in range(len(groups)):
            while group_repeats(met, groups[t]) and _fix(groups, met, distance, t):
                swaps, improved = swaps + 1, True
    return swaps
