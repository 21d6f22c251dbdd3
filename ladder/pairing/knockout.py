"""Knockout brackets for tables of 2 to 5: PURE (no Django), see docs/tournaments.md "Knockout".

Terms:

- *seeds*: the players still in, best first (fixed at the start by seeding rating).
- a *round* of ``m`` players: if ``m <= size`` it is the *final*, one table of all ``m``;
  otherwise ``m // size`` tables of exactly ``size`` and ``m % size`` *byes* (fewer than
  ``size``), which go to the highest seeds.
- *advancing*: the top ``k`` of each table by place go through, with the byes; ties at the
  cut go to the better tie-break (the standings order).
- *reached*: the last round a player sat in (at a table or with a bye).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Stage:
    """One planned round."""

    players: int
    tables: int
    byes: int
    advancing: int  # players in the next round; 0 after the final

    @property
    def final(self) -> bool:
        return self.advancing == 0


def _check(size: int, k: int) -> None:
    if not 2 <= size <= 5:
        raise ValueError(f"tables seat 2 to 5 players, not {size}")
    if not 1 <= k < size:
        raise ValueError(f"1 <= k < size is needed, not k={k} at tables of {size}")


def plan(n: int, size: int, k: int) -> list[Stage]:
    """The rounds of a knockout of ``n`` entrants (n >= 2) at tables of ``size`` where the
    top ``k`` of each table go through."""
    _check(size, k)
    if n < 2:
        raise ValueError(f"a knockout needs at least 2 players, not {n}")
    stages = []
    m = n
    while m > size:
        tables = m // size
        byes = m - tables * size
        nxt = byes + tables * k  # < m since k < size: every round shrinks the field
        stages.append(Stage(m, tables, byes, nxt))
        m = nxt
    stages.append(Stage(m, 1, 0, 0))  # the final: one table of all that are left (2..size)
    return stages


def seat(seeds: Sequence[int], size: int, k: int) -> tuple[list[int], list[list[int]]]:
    """One round: (byes, tables). The byes are the top seeds; the rest are dealt over the
    tables in snake order (1..T, T..1, ...) so the tables are of even strength. Each table
    is in seat order: the lowest seed moves first (seat 0, an edge in Ticket to Ride, as
    compensation), the highest seed last."""
    _check(size, k)
    m = len(seeds)
    if m < 2:
        return list(seeds), []  # a lone player (everyone else withdrew) sits out
    if m <= size:
        return [], [list(reversed(seeds))]
    count = m // size
    byes = list(seeds[: m - count * size])
    tables: list[list[int]] = [[] for _ in range(count)]
    for i, player in enumerate(seeds[len(byes) :]):
        lap, pos = divmod(i, count)
        tables[pos if lap % 2 == 0 else count - 1 - pos].append(player)
    return byes, [list(reversed(table)) for table in tables]


def advancing(places: dict[int, int], order: Sequence[int], k: int) -> list[int]:
    """The top ``k`` of one table (``places``: player -> place, 1 = best; shared places
    allowed), best first; ties go to the player earlier in ``order`` (the standings, which
    apply the tournament's tie-breaks and then the coin). A player missing from ``order``
    comes after those in it."""
    index = {p: i for i, p in enumerate(order)}
    ranked = sorted(places, key=lambda p: (places[p], index.get(p, len(index)), p))
    return ranked[:k]


def final_order(
    order: Sequence[int], reached: dict[int, int], places: dict[int, int | None]
) -> list[int]:
    """The knockout's ranking of every player in ``order`` (the standings, best first):
    by the last round reached (later is better: the final's players first), then by the
    place at that round's table (a bye is a first place; no result yet after every
    result), then by the standings."""
    index = {p: i for i, p in enumerate(order)}
    unknown = 1_000

    def key(p: int):
        place = places.get(p)
        return (-reached.get(p, 0), unknown if place is None else place, index[p])

    return sorted(order, key=key)


def last_tables(seats: Iterable[tuple[int, int, int | None]]):
    """(reached, places) from every seat as (round, player, place or None)."""
    reached: dict[int, int] = {}
    places: dict[int, int | None] = {}
    for number, player, place in seats:
        if number >= reached.get(player, 0):
            reached[player], places[player] = number, place
    return reached, places


def rerank(rows: list, seats: Iterable[tuple[int, int, int | None]]) -> list:
    """Standings ``rows`` (best first, each with ``player`` and ``rank``) put in the
    knockout's order (``final_order``) and numbered again from 1. Both the live standings
    and the stored snapshot rank a knockout with this."""
    reached, places = last_tables(seats)
    by_player = {row.player: row for row in rows}
    ordered = [by_player[p] for p in final_order(list(by_player), reached, places)]
    for rank, row in enumerate(ordered, start=1):
        row.rank = rank
    return ordered
