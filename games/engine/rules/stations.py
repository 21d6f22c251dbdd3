"""Building stations (docs/rules.md 1.3.4).

Terms:
- *station cost*: ``station_costs[k]`` cards of one colour (wild cards wild) for the seat's
  (k+1)-th station: 1, 2, 3 in Europe.
- A station goes on any city without a station (one per city, whoever owns it) and without a
  depot (Warehouses & Depots, see ``depots``), even with no route there yet; at most
  ``stations`` per seat, one per turn (it is the turn's action).
- What a station is worth is decided at the end (``scoring``): it lends one route of another
  player touching its city.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..errors import IllegalAction
from .cards import card_dict
from .payment import check_holds, options, pay, payment_color

if TYPE_CHECKING:
    from ..state import GameState


def station_cost(state: GameState, seat: int) -> int:
    built = state.cfg.stations - state.stations_left[seat]
    return state.cfg.station_costs[built]


def station_options(state: GameState, seat: int) -> list:
    """Affordable payment options ``(colour, wilds)`` for the seat's next station."""
    if state.stations_left[seat] <= 0:
        return []
    wild = state.wild
    return options(state.hands[seat], wild, station_cost(state, seat), 0, range(wild))


def can_build(state: GameState, seat: int) -> bool:
    if not station_options(state, seat):
        return False
    if state.wh:
        return any(
            s == -1 and d == -1 for s, d in zip(state.station_at, state.depot_at, strict=True)
        )
    return -1 in state.station_at


def station_actions(state: GameState, seat: int) -> list:
    pays = station_options(state, seat)
    if not pays:
        return []
    names = state.card_names
    wild = state.wild
    cost = station_cost(state, seat)
    payments = []
    for c, k in pays:
        if c == wild:
            payments.append({names[wild]: cost})
        elif k:
            payments.append({names[c]: cost - k, names[wild]: k})
        else:
            payments.append({names[c]: cost})
    names = city_names(state.board)
    depot_at = state.depot_at
    # The cities share their payment dicts: up to 450 builds, and copying them was a third
    # of a legal-actions list under load. Nothing mutates an action's "cards".
    return [
        {"type": "build_station", "city": names[ci], "cards": cards}
        for ci, owner in enumerate(state.station_at)
        if owner == -1 and depot_at[ci] == -1
        for cards in payments
    ]


@cache
def city_names(board) -> tuple:
    return tuple(c.name for c in board.cities)


def apply_build(state: GameState, seat: int, city: str, counts) -> bool:
    ci = state.board.city_index.get(city)
    if ci is None:
        raise IllegalAction("unknown_city", city=city)
    if state.station_at[ci] != -1:
        raise IllegalAction("city_has_station", city=city)
    if state.depot_at[ci] != -1:
        raise IllegalAction("city_has_depot", city=city)
    if state.stations_left[seat] <= 0:
        raise IllegalAction("no_stations_left")
    cost = station_cost(state, seat)
    if sum(counts) != cost:
        raise IllegalAction("wrong_card_count", expected=cost, got=sum(counts))
    payment_color(state, counts)
    check_holds(state, seat, counts)
    return build(state, seat, ci, counts)


def build(state: GameState, seat: int, ci: int, counts) -> bool:
    """``apply_build`` after its checks: a station on city index ``ci``."""
    pay(state, seat, counts)
    state.station_at[ci] = seat
    state.stations_left[seat] -= 1
    state.stations_of[seat].append(ci)
    city = city_names(state.board)[ci]
    state.log_event(seat, "build_station", city=city, cards=card_dict(state, counts))
    return True
