"""Per-ruleset and per-variant configuration: the numbers and switches the rules read.

Terms:
- ``RulesetConfig``: one rule set (docs/rules.md §1 Europe; later §3 New York): the map, the train
  card deck (colours, cards per colour, wild cards), pieces per player, turn and end-game
  numbers, the scoring table's bonuses, and which features exist (stations, tunnels, ferries,
  longest path). Rules code reads these instead of hard-coding Europe.
- ``VariantConfig``: a ticket variant (docs/rules.md 1.8): which tickets form the long and regular
  decks, the set-up deal and keep rule (in one step, or long tickets first), where set-up
  returns go, the draw size in play, and the logos (``europe``, ``1912``, ``big_cities``)
  by which bonus tickets join it.
- *wild*: the wild card of the deck (Europe: ``locomotive``). In a hand it is the last
  colour index, ``len(colors)``.

- *warehouses*: Warehouses & Depots (docs/rules.md §2), the ``warehouses`` option; ``depots`` per
  player and the ``depot_bonus`` for the most unused ones; allowed only where
  ``warehouses_allowed`` (every Europe variant, not New York). Rules: ``rules/depots.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..mapdata import Board

# (long ticket indexes, regular ticket indexes) of a board for a variant
TicketSelector = Callable[[Board], tuple[tuple[int, ...], tuple[int, ...]]]


@dataclass(frozen=True, slots=True)
class VariantConfig:
    name: str
    select_tickets: TicketSelector
    setup_long: int  # long tickets dealt to each player at set-up
    setup_regular: int  # regular tickets dealt to each player at set-up
    setup_min_keep: int  # at least this many kept in total
    setup_max_long: int | None  # at most this many long tickets kept (None: no cap)
    setup_min_regular_with_long: int  # Mega Europe: regular kept if a long one is kept
    setup_min_regular_without_long: int  # Mega Europe: regular kept if no long one is kept
    setup_return: str  # "box": out of the game; "bottom": shuffled under the ticket deck
    draw_count: int  # tickets drawn in play
    draw_min_keep: int  # kept at least, in play
    # Mega Europe: the long tickets are dealt and kept first, then the regular ones (dealt
    # from the ticket deck once the seat has kept its long ones)
    setup_long_first: bool = False
    # the ticket logos the variant uses: bonus tickets carrying one of them join it
    logos: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RulesetConfig:
    name: str
    map_name: str
    min_players: int
    max_players: int
    colors: tuple[str, ...]
    wild: str  # the wild card's key in hands, payments and the face-up row
    wild_display_name: str  # what the rulebook calls it ("locomotive", "taxi")
    cards_per_color: int
    wild_cards: int
    trains: int
    stations: int
    station_costs: tuple[int, ...]
    station_bonus: int
    initial_hand: int
    faceup_size: int
    faceup_wild_limit: int  # this many wild cards face up trigger a refresh
    tunnel_reveal: int
    end_trains: int  # the last round starts when a player ends a turn with <= this many
    longest_path_bonus: int  # 0: no longest-path bonus
    attraction_points: int  # New York: points per touched tourist attraction
    single_double_max_players: int  # with this many players or fewer, one twin only
    warehouses_allowed: bool  # the Warehouses & Depots option may be used (docs/rules.md §2)
    depots: int  # depots per player with the option
    depot_bonus: int  # points for the most depots left beside the warehouse
    variants: Mapping[str, VariantConfig]

    @property
    def n_colors(self) -> int:
        return len(self.colors)

    @property
    def card_names(self) -> tuple[str, ...]:
        """Colour names by card index, the wild card last."""
        return (*self.colors, self.wild)
