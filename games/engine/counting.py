"""The legal list counted and indexed without building it: ``count_actions``, ``action_at``,
and the counts ``search.sample_action`` and ``playout`` draw from (see ``search``'s terms:
*legal list*, *segment*, *claim count*).

The functions here mirror the order in which the rule modules build the legal list (draws,
the ticket draw, claims, stations, the pass, depots); payment options are counted by a
formula (``_pay_count``, ``_gray_count``), claims by colour (``_claim_total``) and walked group
by group only to find the claim at a drawn index (``_claim_count``). A test checks every count
and every indexed action against the list over many random games of every rule set
(``tests/engine/test_engine_search.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import phases
from .actions import _is_current, legal_actions
from .rules.cards import _deck_after_warehouse, blind_count
from .rules.depots import placeable, take_options
from .rules.payment import options
from .rules.routes import open_counts, open_groups
from .rules.stations import city_names, station_cost, station_options

if TYPE_CHECKING:
    from .state import GameState


def _pay_count(hand, wild: int, total: int, min_wild: int, colors) -> int:
    """``len(options(hand, wild, total, min_wild, colors))`` without listing them."""
    w = hand[wild]
    if w < min_wild:
        return 0
    hi = w if w < total else total - 1
    n = 0
    for c in colors:
        h = hand[c]
        if h:
            lo = total - h
            if lo < min_wild:
                lo = min_wild
            if hi >= lo:
                n += hi - lo + 1
    if w >= total:
        n += 1
    return n


def _gray_count(colored, w: int, length: int, ferry: int) -> int:
    """``_pay_count`` for a gray route (any colour), the wild cards ``w`` >= ``ferry``."""
    hi = w if w < length else length - 1
    n = 1 if w >= length else 0
    for h in colored:
        if h:
            lo = length - h
            if lo < ferry:
                lo = ferry
            if hi >= lo:
                n += hi - lo + 1
    return n


def _claim_rows(state: GameState, seat: int) -> list:
    """``(length, ferry, colour, open routes, payments count)`` per group the seat can claim
    a route of now, in ``claim_actions`` order (mirrors ``routes._claims``)."""
    hand = state.hands[seat]
    wild = state.wild
    w = hand[wild]
    colored = hand[:wild]
    most = max(colored) + w
    trains = state.trains[seat]
    maxlen = trains if trains < most else most
    out = []
    for (length, ferry, color, _), members in zip(
        state.route_groups, open_groups(state, seat), strict=True
    ):
        if length > maxlen:
            break
        if not members or ferry > w:
            continue
        if color >= 0:
            h = hand[color]
            if h + w < length:
                continue
            # _pay_count for one colour, inlined (the hottest counting loop)
            hi = w if w < length else length - 1
            npay = 1 if w >= length else 0
            if h:
                lo = length - h
                if lo < ferry:
                    lo = ferry
                if hi >= lo:
                    npay += hi - lo + 1
        else:
            npay = _gray_count(colored, w, length, ferry)
        if npay:
            out.append((length, ferry, color, members, npay))
    return out


def _cards(state: GameState, c: int, k: int, total: int) -> dict:
    """The cards dict of payment option ``(c, k)`` for ``total`` cards."""
    names = state.card_names
    wild = state.wild
    if c == wild:
        return {names[wild]: total}
    if k:
        return {names[c]: total - k, names[wild]: k}
    return {names[c]: total}


def _draws(state: GameState, second: bool) -> tuple[int, list, int]:
    """(1 if the deck may be drawn from else 0, the face-up slots that may be taken, warehouse
    choices per draw: 1 when none is due), mirroring ``cards.draw_actions``."""
    if not state.wh:
        blind = 0
        deck = 1 if state.deck or state.discard else 0
    else:
        blind = blind_count(state)
        deck = 1 if (_deck_after_warehouse(state, blind) if not second else blind) > 0 else 0
    faceup = state.faceup
    if second:
        wild = state.wild
        slots = [slot for slot, c in enumerate(faceup) if c >= 0 and c != wild]
    else:
        slots = [slot for slot, c in enumerate(faceup) if c >= 0]
    per = state.n if state.wh and not second and blind else 1
    return deck, slots, per


def _draw_at(state: GameState, deck: int, slots: list, j: int) -> dict:
    """Draw action ``j`` (the deck first, then the slots) without a ``warehouse`` key."""
    if j < deck:
        return {"type": "draw_card", "source": "deck"}
    slot = slots[j - deck]
    color = state.card_names[state.faceup[slot]]
    return {"type": "draw_card", "source": "faceup", "slot": slot, "color": color}


_NO_INDEX = 1 << 62


def _claim_count(state: GameState, seat: int, i: int = _NO_INDEX, groups: list | None = None):
    """The number of claim actions of the seat now, without warehouse takes (the sum over
    ``_claim_rows`` of payments x open routes, counted inline); given an index ``i`` below
    that number, the group holding claim ``i`` instead: ``(length, ferry, colour, open
    routes, payments count, i within the group)``. ``groups``: the seat's ``open_groups``,
    if the caller has them."""
    hand = state.hands[seat]
    wild = state.wild
    w = hand[wild]
    colored = hand[:wild]
    most = max(colored) + w
    trains = state.trains[seat]
    maxlen = trains if trains < most else most
    total = 0
    if groups is None:
        groups = open_groups(state, seat)
    for (length, ferry, color, _), members in zip(state.route_groups, groups, strict=True):
        if length > maxlen:
            break
        if not members or ferry > w:
            continue
        if color >= 0:  # _pay_count inlined: wild cards from max(length - h, ferry) to hi
            hi = w if w < length else length - 1
            lo = length - hand[color]
            if lo < ferry:
                lo = ferry
            n = (1 if w >= length else 0) + (hi - lo + 1 if hi >= lo and lo < length else 0)
        else:
            n = _gray_count(colored, w, length, ferry)
        if n:
            total += n * len(members)
            if total > i:
                return length, ferry, color, members, n, i - total + n * len(members)
    return total


def _count_tables(state: GameState) -> tuple:
    """The static side of ``_claim_total`` for the state's board: per colour, its groups
    ``(g, length, ferry)`` (``g``: the position in ``route_groups``), by length; the gray
    groups alike; and per length ``L``, how many groups are ``L`` long or shorter (groups
    go by length)."""
    groups = state.route_groups
    tables = _TABLES.get(id(groups))  # route_groups are made once per board and kept
    if tables is None:
        by_color: list[list] = [[] for _ in range(state.wild)]
        gray: list[tuple] = []
        for g, (length, ferry, color, _) in enumerate(groups):
            (gray if color < 0 else by_color[color]).append((g, length, ferry))
        longest = groups[-1][0]
        upto = tuple(sum(1 for group in groups if group[0] <= n) for n in range(longest + 1))
        tables = _TABLES[id(groups)] = (tuple(map(tuple, by_color)), tuple(gray), upto)
    return tables


_TABLES: dict[int, tuple] = {}


def _claim_total(state: GameState, seat: int, m: list | None = None) -> int:
    """``_claim_count(state, seat)`` (the number of claim actions, no warehouse takes) by
    colour rather than by group, from the open routes' counts (``open_counts``).

    A claim's payments are ``length - k`` cards of one colour plus ``k`` wild cards, from
    ``max(length - h, ferry)`` to ``min(w, length - 1)`` wild cards (``h`` cards of that
    colour held, ``w`` wild ones), plus the all-wild payment when ``w >= length``. So the
    all-wild payments are one per open route of length ``min(w, cars)`` or less (a ferry
    never needs more wild cards than its length), and only the colours held add others:
    the groups of a colour the seat holds none of are never visited. ``m``: the seat's
    ``open_counts``, if the caller has them."""
    hand = state.hands[seat]
    wild = state.wild
    w = hand[wild]
    cars = state.trains[seat]
    if m is None:
        m = open_counts(state, seat)
    by_color, gray, upto = _count_tables(state)
    top = w if w < cars else cars
    total = sum(m[: upto[top if top < len(upto) else -1]]) if top else 0
    held = []  # the counts of the colours held
    for c in range(wild):
        h = hand[c]
        if h:
            held.append(h)
            reach = h + w if h + w < cars else cars
            for g, length, ferry in by_color[c]:
                if length > reach:
                    break
                lo = length - h
                if lo < ferry:
                    lo = ferry
                hi = w if w < length else length - 1
                if hi >= lo:
                    total += (hi - lo + 1) * m[g]
    return total + _gray_total(held, w, cars, gray, m) if held else total


def _gray_total(held: list, w: int, cars: int, gray: tuple, m: list) -> int:
    """The one-colour payments (all-wild aside) of the open gray routes, any colour held."""
    total = 0
    most = max(held) + w
    reach = most if most < cars else cars
    for g, length, ferry in gray:
        if length > reach:
            break
        k = m[g]
        if k and ferry <= w:
            hi = w if w < length else length - 1
            n = 0
            for h in held:
                lo = length - h
                if lo < ferry:
                    lo = ferry
                if hi >= lo:
                    n += hi - lo + 1
            total += n * k
    return total


class _Turn:
    """The segments of a ``turn`` phase legal list (counted, built on demand)."""

    __slots__ = ("deck", "slots", "per", "tickets", "takes", "nclaim")

    def __init__(self, state, seat: int) -> None:
        self.deck, self.slots, self.per = _draws(state, False)
        self.tickets = 1 if state.ticket_deck else 0
        # with warehouses to take, each payment comes once per take choice
        self.takes = state.wh and state.depots_left[seat] > 0 and any(state.warehouses)
        if self.takes:
            self.nclaim = sum(
                npay * len(take_options(state, seat, index))
                for _, _, _, members, npay in _claim_rows(state, seat)
                for index, _ in members
            )
        else:
            self.nclaim = _claim_total(state, seat)


def _stations(state: GameState, seat: int) -> tuple[int, int]:
    """(payment options of the seat's next station, cities where one can go)."""
    if state.stations_left[seat] <= 0:
        return 0, 0
    hand = state.hands[seat]
    wild = state.wild
    pays = _pay_count(hand, wild, station_cost(state, seat), 0, range(wild))
    if not pays:
        return 0, 0
    if not state.wh:  # no depots: every city without a station
        return pays, state.station_at.count(-1)
    depot_at = state.depot_at
    free = sum(1 for ci, owner in enumerate(state.station_at) if owner == -1 and depot_at[ci] == -1)
    return pays, free


def _depot_count(state: GameState, seat: int) -> int:
    if not state.wh or state.depots_left[seat] <= 0:
        return 0
    return sum(1 for ci in range(len(state.board.cities)) if placeable(state, ci))


def _turn_count(state: GameState, seat: int) -> tuple:
    """(segments, station payments, station cities, actions before the pass, pass (0/1),
    depots): the sizes of a ``turn`` phase legal list, in its order."""
    t = _Turn(state, seat)
    pays, free = _stations(state, seat)
    before = (t.deck + len(t.slots)) * t.per + t.tickets + t.nclaim + pays * free
    return t, pays, free, before, 0 if before else 1, _depot_count(state, seat)


def count_actions(state: GameState, seat) -> int:
    """``len(legal_actions(state, seat))``, without building the list."""
    if not _is_current(state, seat):
        return 0
    phase = state.phase
    if phase == phases.TURN:
        _, _, _, before, passes, depots = _turn_count(state, seat)
        return before + passes + depots
    if phase == phases.DRAW2:
        deck, slots, _ = _draws(state, True)
        return deck + len(slots)
    return len(legal_actions(state, seat))  # short lists: tunnel, tickets, depots


def action_at(state: GameState, seat, i) -> dict:
    """``legal_actions(state, seat)[i]`` for ``0 <= i < count_actions(state, seat)``, built
    alone; ``IndexError`` otherwise (``i`` is not typed: anything not an int, ``True``
    included, is refused here, compiled or not)."""
    if type(i) is not int or i < 0 or not _is_current(state, seat):
        raise IndexError("action index out of range")
    phase = state.phase
    if phase == phases.TURN:
        counted = _turn_count(state, seat)
        if i >= counted[3] + counted[4] + counted[5]:
            raise IndexError("action index out of range")
        return _turn_action(state, seat, counted, i)
    if phase == phases.DRAW2:
        deck, slots, _ = _draws(state, True)
        if i >= deck + len(slots):
            raise IndexError("action index out of range")
        return _draw_at(state, deck, slots, i)
    return legal_actions(state, seat)[i]


def _turn_action(state: GameState, seat: int, counted: tuple, i: int) -> dict:
    """Action ``i`` (in range) of a ``turn`` phase legal list counted by ``_turn_count``."""
    t, pays, free, before, passes, _ = counted
    per = t.per
    ndraw = (t.deck + len(t.slots)) * per
    if i < ndraw:
        action = _draw_at(state, t.deck, t.slots, i // per)
        if per > 1:
            action["warehouse"] = i % per
        return action
    i -= ndraw
    if i < t.tickets:
        return {"type": "draw_tickets"}
    i -= t.tickets
    if i < t.nclaim:
        return _claim_at(state, seat, t, i)
    i -= t.nclaim
    if i < pays * free:
        return _station_at(state, seat, station_options(state, seat), i)
    i -= pays * free
    if i < passes:
        return {"type": "pass"}
    i -= passes
    cities = state.board.cities
    for ci in range(len(cities)):
        if placeable(state, ci):
            if i == 0:
                return {"type": "place_depot", "city": cities[ci].name}
            i -= 1
    raise IndexError("action index out of range")  # pragma: no cover - counted above


def _claim_at(state: GameState, seat: int, t: _Turn, i: int) -> dict:
    wild = state.wild
    hand = state.hands[seat]
    if not t.takes:  # the group by the count's formula, then the action in it
        length, ferry, color, members, npay, i = _claim_count(state, seat, i)
        r, p = divmod(i, npay)
        colors = range(wild) if color < 0 else (color,)
        c, k = options(hand, wild, length, ferry, colors)[p]
        cards = _cards(state, c, k, length)
        return {"type": "claim_route", "route": members[r][1], "cards": cards}
    for length, ferry, color, members, npay in _claim_rows(state, seat):
        for index, rid in members:
            takes = take_options(state, seat, index)
            size = npay * len(takes)
            if i >= size:
                i -= size
                continue
            p, chosen = divmod(i, len(takes))
            colors = range(wild) if color < 0 else (color,)
            c, k = options(hand, wild, length, ferry, colors)[p]
            action = {"type": "claim_route", "route": rid, "cards": _cards(state, c, k, length)}
            if takes[chosen]:
                action["warehouses"] = takes[chosen]
            return action
    raise IndexError("action index out of range")  # pragma: no cover - counted above


def _station_at(state: GameState, seat: int, pays: list, i: int) -> dict:
    city, p = divmod(i, len(pays))
    depot_at = state.depot_at
    names = city_names(state.board)
    for ci, owner in enumerate(state.station_at):
        if owner == -1 and depot_at[ci] == -1:
            if city == 0:
                c, k = pays[p]
                cost = station_cost(state, seat)
                return {
                    "type": "build_station",
                    "city": names[ci],
                    "cards": _cards(state, c, k, cost),
                }
            city -= 1
    raise IndexError("action index out of range")  # pragma: no cover - counted above
