"""Warehouses & Depots (docs/rules.md §2), the ``warehouses`` option of every Europe variant.

Terms:
- *depot*: each seat has ``depots`` (5). *Beside the warehouse* (``depots_left``) until
  placed on a city (``depot_at``, ``depots_of``) or given up for warehouse cards
  (``depots_spent``: out of the game). Placed depots never move and are never given up.
- *warehouse*: each seat's face-down pile of cards (``warehouses``). Its card count is public;
  its colours are secret to everyone, the owner included (views show them to ``"all"``
  only, the replay/admin viewer). Cards go in by the warehouse card of a draw (``cards``).
- *initial depots* (phase ``depots``): once every seat has kept its tickets, each seat places
  one depot, mandatory, on any city: the seat before the first player (last in turn order)
  first, then counter-clockwise (decreasing seat numbers) down to the first player; then
  play starts. Action: ``{"type": "place_depot", "city": "Wien"}``.
- *free depots*: in phase ``turn``, before its turn's action, the current seat may place any
  number of depots from beside its warehouse (same action; docs/rules.md 2.4 Decision: the
  rulebook gives no timing, and the turn ends with its action). It is not the turn's action:
  phase, current seat and the ``turn`` counter stay; the turn goes on (a client knows a turn
  ended only when ``turn`` increases or the current seat changes). Placing is never needed,
  so it does not stop a seat that has nothing else to do from passing.
- *where*: one depot per city; never on a city with a station (``city_has_station``), and
  **Decision**: no station on a city with a depot either (``city_has_depot``): the 1912
  rulebook forbids a depot and a station in the same city, whichever comes first.
- *taking warehouses*: a claim whose route ends in a depot city may name, in its
  ``warehouses`` key, the seats whose warehouses it takes: each must own a depot at one end
  of the route, and each costs one depot from beside the claimer's warehouse; a route between
  two depot cities of two seats may take both (two depots). **Decisions**: the choice is part
  of the claim action (legal actions list every option; no key: take nothing); an empty
  warehouse cannot be taken (``empty_warehouse``); two depots of one seat at both ends still
  reach one warehouse; the cards are taken once the route is placed (so they cannot pay for
  it; a tunnel takes them after its extra payment and not at all if declined; a warehouse
  emptied meanwhile by the warehouse reshuffle is skipped and costs no depot).
- *depot bonus* (``scoring``): ``depot_bonus`` (10) to every seat with the most depots left
  beside its warehouse; tied seats each get it, also when the most is 0 (docs/rules.md 2.7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import phases
from ..errors import IllegalAction
from . import opening
from .cards import card_dict

if TYPE_CHECKING:
    from ..state import GameState


def placeable(state: GameState, ci: int) -> bool:
    return state.depot_at[ci] == -1 and state.station_at[ci] == -1


def depot_actions(state: GameState, seat: int) -> list:
    """The place_depot actions of ``seat`` (phase ``turn`` or ``depots``)."""
    if not state.wh or state.depots_left[seat] <= 0:
        return []
    cities = state.board.cities
    return [
        {"type": "place_depot", "city": cities[ci].name}
        for ci in range(len(cities))
        if placeable(state, ci)
    ]


def apply_place(state: GameState, seat: int, city: str) -> bool:
    """Place a depot; never ends the turn (in phase ``depots`` it passes the set-up on)."""
    if not state.wh:
        raise IllegalAction("no_warehouses")
    ci = state.board.city_index.get(city)
    if ci is None:
        raise IllegalAction("unknown_city", city=city)
    if state.depot_at[ci] != -1:
        raise IllegalAction("city_has_depot", city=city)
    if state.station_at[ci] != -1:
        raise IllegalAction("city_has_station", city=city)
    if state.depots_left[seat] <= 0:
        raise IllegalAction("no_depots_left")
    return place_depot(state, seat, ci)


def place_depot(state: GameState, seat: int, ci: int) -> bool:
    """``apply_place`` after its checks: a depot on city index ``ci``."""
    city = state.board.cities[ci].name
    state.depot_at[ci] = seat
    state.depots_of[seat].append(ci)
    state.depots_left[seat] -= 1
    state.log_event(seat, "place_depot", city=city, depots_left=state.depots_left[seat])
    if state.phase == phases.DEPOTS:
        opening.depot_placed(state, seat)
    return False


def take_options(state: GameState, seat: int, index: int) -> list:
    """The warehouse choices (sorted seat lists; ``[]`` first) of a claim of route ``index``."""
    left = state.depots_left[seat]
    if left <= 0:
        return [[]]
    route = state.board.routes[index]
    at = state.depot_at
    owners = sorted({at[route.a], at[route.b]} - {-1})
    owners = [w for w in owners if state.warehouses[w]]
    out = [[], *([w] for w in owners)]
    if len(owners) == 2 and left >= 2:
        out.append(owners)
    return out


def check_take(state: GameState, seat: int, index: int, chosen) -> list:
    """Validate a claim's ``warehouses`` list; return it sorted."""
    if not state.wh:
        raise IllegalAction("no_warehouses")
    route = state.board.routes[index]
    ends = (state.depot_at[route.a], state.depot_at[route.b])
    seen = set()
    for w in chosen:
        if not 0 <= w < state.n or w in seen:
            raise IllegalAction("invalid_warehouse", seat=w)
        seen.add(w)
        if w not in ends:
            raise IllegalAction("warehouse_not_reachable", seat=w, route=route.id)
        if not state.warehouses[w]:
            raise IllegalAction("empty_warehouse", seat=w)
    if len(chosen) > state.depots_left[seat]:
        raise IllegalAction("not_enough_depots", needed=len(chosen), left=state.depots_left[seat])
    return sorted(chosen)


def take(state: GameState, seat: int, chosen) -> None:
    """Move the chosen warehouses into the seat's hand, one depot given up for each."""
    hand = state.hands[seat]
    for w in chosen:
        cards = state.warehouses[w]
        if not cards:
            continue  # emptied by the warehouse reshuffle during a tunnel
        got = [0] * len(hand)
        for c in cards:
            got[c] += 1
            hand[c] += 1
        state.warehouses[w] = []
        state.depots_left[seat] -= 1
        state.depots_spent[seat] += 1
        state.log_event(
            seat,
            "take_warehouse",
            secret={"cards": card_dict(state, got)},
            warehouse=w,
            count=len(cards),
            depots_left=state.depots_left[seat],
        )
