"""New York (docs/rules.md §3): a small map, 15 taxis each, 44 cards, no stations/tunnels/ferries.

Terms:
- *taxi cards*: the 8 wild cards. Their key in hands, payments, the face-up row and logs is
  ``locomotive``, the generic wild key of every rule set (one key for clients); the rule set's
  ``wild_display_name`` (``"taxi"``) is what to show. ``board("new_york")["cards"]`` says so.
- *variant* ``standard``: the one ticket deck (18 ``T`` tickets): 2 dealt, keep >= 1,
  returns shuffled together and put under the deck; in play draw 2, keep >= 1 (one left:
  draw it and keep it, ``tickets`` handles "fewer than draw_count").
- Double routes: one twin only with 2 players (``single_double_max_players`` 2); never both
  for one player. The end: a player ends a turn with 2 or fewer taxis. Scoring: the map's
  table, tickets, +1 per tourist attraction touched, no longest path (``scoring``).
"""

from __future__ import annotations

from types import MappingProxyType

from ..mapdata import Board
from .base import RulesetConfig, VariantConfig

COLORS = ("pink", "blue", "green", "black", "red", "orange")


def _standard(board: Board):
    return (), tuple(t.index for t in board.tickets)


VARIANTS = MappingProxyType(
    {
        "standard": VariantConfig(
            name="standard",
            select_tickets=_standard,
            setup_long=0,
            setup_regular=2,
            setup_min_keep=1,
            setup_max_long=None,
            setup_min_regular_with_long=0,
            setup_min_regular_without_long=0,
            setup_return="bottom",
            draw_count=2,
            draw_min_keep=1,
        )
    }
)

NEW_YORK = RulesetConfig(
    name="new_york",
    map_name="new_york",
    min_players=2,
    max_players=4,
    colors=COLORS,
    wild="locomotive",
    wild_display_name="taxi",
    cards_per_color=6,
    wild_cards=8,
    trains=15,
    stations=0,
    station_costs=(),
    station_bonus=0,
    initial_hand=2,
    faceup_size=5,
    faceup_wild_limit=3,
    tunnel_reveal=0,
    end_trains=2,
    longest_path_bonus=0,
    attraction_points=1,
    single_double_max_players=2,
    warehouses_allowed=False,
    depots=0,
    depot_bonus=0,
    variants=VARIANTS,
)
