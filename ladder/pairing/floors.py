"""Table floors, a lower bound on repeats for the search: PURE (no Django).

Terms (positions as in ``search``): a player's *floor* for a table size is the fewest
repeats of any table of that size with them, over the whole field. A table has at least the
largest floor of its players, so at least their mean floor; each player's *share* is that
player's part of the mean, and the players left unseated add at least the sum of their
shares. With one table size s the share is floor / s; with sizes s and s - 1 a player may
sit at either, so the share is the smaller of floor_s / s and floor_(s-1) / (s - 1). Shares
are kept as integers: ``(floor_s, floor_(s-1), min(floor_s * (s - 1), floor_(s-1) * s))``,
to be divided by s, by s - 1 and by s * (s - 1).
"""

from collections.abc import Sequence

FIELD = 32  # floors are worked out for fields up to this size; above, rarely above 0
CAP = 5_000  # candidates examined per player and size before settling for a floor of 0


def table_floor(met: Sequence[dict[int, int]], i: int, size: int, cap: int) -> tuple[int, int]:
    """The fewest repeats of any table of ``size`` with player i (0 if not settled within
    ``cap`` candidates), and the candidates examined."""
    mine = met[i]
    # Those i met least first: a cheap table turns up early and bounds the rest.
    others = sorted((j for j in range(len(met)) if j != i), key=lambda j: mine.get(j, 0))
    best, nodes = len(met) ** 2, 0

    def grow(chosen: list[int], start: int, cost: int) -> None:
        nonlocal best, nodes
        if len(chosen) == size:
            best = min(best, cost)
            return
        for k in range(start, len(others) - (size - len(chosen)) + 1):
            nodes += 1
            if best == 0 or nodes > cap:
                return
            c = others[k]
            seen = met[c]
            added = sum(seen.get(x, 0) for x in chosen)
            if cost + added < best:
                grow([*chosen, c], k + 1, cost + added)

    grow([i], 0, 0)
    return (0 if nodes > cap else best), nodes


def floor_shares(
    met: Sequence[dict[int, int]], sizes: Sequence[int]
) -> tuple[list[tuple[int, int, int]], int]:
    """Every player's shares for the round's table ``sizes`` (largest first), and the
    candidates examined; all 0 in fields above ``FIELD``."""
    if len(met) > FIELD or not sizes:
        return [(0, 0, 0)] * len(met), 0
    shares, nodes = [], 0
    for i in range(len(met)):
        floors = []
        for size in sizes:
            floor, examined = table_floor(met, i, size, CAP)
            floors.append(floor)
            nodes += examined
        big, small = floors[0], floors[-1]
        shares.append((big, small, min(big * sizes[-1], small * sizes[0])))
    return shares, nodes
