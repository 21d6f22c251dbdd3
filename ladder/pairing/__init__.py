"""Swiss pairing for tables of 2 to 5 players: PURE (no Django), see ``docs/tournaments.md``.

Terms:

- *order*: the standings before the round, best first (round 1: by rating).
- *history*: every earlier table in seat order; a table of one player is a *bye*.
- *repeats*: over all new tables, for each pair of players at one table, the times they
  met before.
- *natural slot*: the places a table would take if the standings were simply cut into
  consecutive tables, full-size tables first; *displacement* sums every player's distance
  from their table's slot.

A round is paired in four steps (docs/tournaments.md, "Byes" and "Pairing"): table
sizes and byes (``sizes``); tables that minimise repeats, then displacement (``search``,
bounded by ``floors``, started from and finished by the swaps of ``repair``), measured in
points first when the players' points are known; with points, an annealing that keeps the
repeats and brings each table's points closer and seat 0 to those who had it least
(``anneal``); the seat order at each table (``seats``). ``swiss`` puts them together.
"""

from ladder.pairing.history import count_repeats
from ladder.pairing.sizes import table_sizes
from ladder.pairing.swiss import Pairing, pair_naive, pair_round

__all__ = ["Pairing", "count_repeats", "pair_naive", "pair_round", "table_sizes"]
