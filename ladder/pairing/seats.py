"""Seat order at a table: PURE (no Django).

Terms: *seat 0* moves first (an edge in Ticket to Ride); a player's *firsts* are their
earlier seat-0 tables; their *mean position* is the mean of ``index / (table size - 1)``
over earlier seats (0 = first, 1 = last; 1/2 with none). Byes are not seats.
"""

import hashlib
from collections.abc import Sequence

from ladder.pairing.history import SeatRecord


def seat_coin(seed: int, player: int) -> float:
    """A value in [0, 1) that settles exact ties in seat order."""
    # Salted apart from ladder.standings.coin: winning the ranking coin must not also mean
    # always moving first.
    digest = hashlib.blake2b(f"seat:{seed}:{player}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


def seat_order(members: Sequence[int], record: SeatRecord, seed: int) -> list[int]:
    """One table's members in seat order (index 0 moves first)."""
    # docs/tournaments.md "Seat order": fewest firsts first, so seat 0 goes round the
    # field; then whoever has sat latest on average; then the coin.
    return sorted(
        members,
        key=lambda p: (record.firsts[p], -record.mean_position(p), -seat_coin(seed, p), p),
    )
