"""Europe (docs/rules.md §1): the deck, pieces and the five ticket variants of docs/rules.md 1.8.

Terms: *base* tickets are the original game's 46 (``E`` ids), *1912* tickets the expansion's
55 (``X`` ids); *bonus* tickets (Orient Express ``O``, with Max ``M``) join a variant, when
the ``bonus_tickets`` option is on, if they carry one of the variant's ``logos``, as the
anniversary rulebook sorts every ticket by its logos (docs/rules.md 1.8; the map data has no
bonus tickets yet, see ``mapdata``). A variant's logos: Classic and Europe Extended
``europe``, Europa 1912 ``1912``, Mega Europe both, Big Cities ``big_cities``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ..mapdata import Board
from .base import RulesetConfig, VariantConfig

COLORS = ("pink", "white", "blue", "yellow", "orange", "black", "red", "green")


def _pick(board: Board, source: str, kinds: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(t.index for t in board.tickets if t.source == source and t.kind in kinds)


def _classic(board: Board):
    return _pick(board, "base", ("long",)), _pick(board, "base", ("regular",))


def _europa_1912(board: Board):
    return _pick(board, "1912", ("long",)), _pick(board, "1912", ("regular", "big_city"))


def _extended(board: Board):
    # Europe Extended: the Classic set plus the 19 new regular 1912 tickets (docs/rules.md 1.8)
    return _pick(board, "base", ("long",)), (
        _pick(board, "base", ("regular",)) + _pick(board, "1912", ("regular",))
    )


def _mega(board: Board):
    long = _pick(board, "base", ("long",)) + _pick(board, "1912", ("long",))
    regular = _pick(board, "base", ("regular",)) + _pick(board, "1912", ("regular", "big_city"))
    return long, regular


def _big_cities(board: Board):
    # the 45 big-city tickets: 15 base tickets with the logo + 30 Europa 1912 big_city
    regular = tuple(
        t.index
        for t in board.tickets
        if t.source in ("base", "1912") and t.big_logo and t.kind != "long"
    )
    return (), regular


def _variant(name, select, **overrides) -> VariantConfig:
    values: dict[str, Any] = {
        "setup_long": 1,
        "setup_regular": 3,
        "setup_min_keep": 2,
        "setup_max_long": None,
        "setup_min_regular_with_long": 0,
        "setup_min_regular_without_long": 0,
        "setup_return": "box",
        "draw_count": 3,
        "draw_min_keep": 1,
    }
    values.update(overrides)
    return VariantConfig(name=name, select_tickets=select, **values)


VARIANTS = MappingProxyType(
    {
        "classic": _variant("classic", _classic, logos=("europe",)),
        "europa_1912": _variant("europa_1912", _europa_1912, logos=("1912",)),
        # the Classic set plus tickets of the 1912 set: bonus tickets as in Classic
        "europe_extended": _variant("europe_extended", _extended, logos=("europe",)),
        "mega_europe": _variant(
            "mega_europe",
            _mega,
            logos=("europe", "1912"),
            setup_long_first=True,  # docs/rules.md 1.8: long tickets first, then regular
            setup_long=2,
            setup_regular=5,
            setup_min_keep=0,
            setup_max_long=1,
            setup_min_regular_with_long=2,
            setup_min_regular_without_long=3,
            setup_return="bottom",
        ),
        "big_cities": _variant(
            "big_cities",
            _big_cities,
            logos=("big_cities",),
            setup_long=0,
            setup_regular=5,
            setup_return="bottom",
            draw_count=4,
        ),
    }
)

EUROPE = RulesetConfig(
    name="europe",
    map_name="europe",
    min_players=2,
    max_players=5,
    colors=COLORS,
    wild="locomotive",
    wild_display_name="locomotive",
    cards_per_color=12,
    wild_cards=14,
    trains=45,
    stations=3,
    station_costs=(1, 2, 3),
    station_bonus=4,
    initial_hand=4,
    faceup_size=5,
    faceup_wild_limit=3,
    tunnel_reveal=3,
    end_trains=2,
    longest_path_bonus=10,
    attraction_points=0,
    single_double_max_players=3,
    warehouses_allowed=True,
    depots=5,
    depot_bonus=10,
    variants=VARIANTS,
)
