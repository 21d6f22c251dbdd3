"""Table sizes and byes for one round: PURE (no Django).

Terms: a round has tables of the tournament's *size* and, when *smaller* tables are
allowed, of ``size - 1`` (never below 2: for size 2 "smaller" does not apply). A player who
cannot be seated gets a *bye*.
"""

from collections.abc import Mapping, Sequence


def smallest_table(size: int, allow_smaller: bool) -> int:
    """The smallest table allowed."""
    if size < 2:
        raise ValueError(f"a table has at least 2 players, not {size}")
    return size - 1 if allow_smaller and size > 2 else size


def _full_tables(seated: int, size: int, small: int) -> int | None:
    """The most full tables with which ``seated`` players fill every table, or None."""
    for full in range(seated // size, -1, -1):
        if (seated - full * size) % small == 0:
            return full
    return None


def table_sizes(n: int, size: int, allow_smaller: bool) -> tuple[list[int], int]:
    """The table sizes for n players (largest first) and the number of byes."""
    small = smallest_table(size, allow_smaller)
    # docs/tournaments.md "Byes": seat as many players as possible, then use as many full
    # tables as possible; only a leftover too small for any table goes without one.
    for seated in range(n, -1, -1):
        full = _full_tables(seated, size, small)
        if full is not None:
            return [size] * full + [small] * ((seated - full * size) // small), n - seated
    raise AssertionError("unreachable: no players always fit")


def choose_byes(order: Sequence[int], count: int, byes_before: Mapping[int, int]) -> list[int]:
    """The players who get this round's byes, in standings order."""
    # docs/tournaments.md "Byes": fewest earlier byes first, then the lowest-ranked.
    rank = {player: i for i, player in enumerate(order)}
    chosen = sorted(order, key=lambda p: (byes_before.get(p, 0), -rank[p]))[:count]
    return sorted(chosen, key=rank.__getitem__)
