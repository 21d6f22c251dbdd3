"""The action boundary: dict shapes, who may act, legal-action lists and dispatch.

Terms:
- *shape*: the exact keys and JSON types of an action dict (see ``SHAPES``). Anything else
  (missing or extra keys, wrong types, bools where ints are due, non-positive counts)
  raises ``IllegalAction("malformed_action")``; an unknown ``type`` raises
  ``unknown_action``.
- *current seats*: the seats with a decision now: in ``setup`` every seat still choosing its
  tickets, in ``over`` none, in ``depots`` the seat placing its initial depot, else the seat
  whose turn it is (also during the second draw, the ticket choice and the tunnel payment of
  its turn).
- *optional keys* (Warehouses & Depots): ``warehouse`` (int) on ``draw_card``, ``warehouses``
  (non-empty list of ints) on ``claim_route``; whether they are due is a rule question
  (``rules.cards``, ``rules.depots``).
- *phase actions*: the action types a phase accepts (``PHASE_ACTIONS``); any other type
  from a current seat raises ``stale_phase``.

``apply_action`` validates everything before it changes anything, and mutates the state in
place. Each rule module splits its ``apply_*`` into the checks and the change (``cards.draw``,
``routes.claim``, ``stations.build``...); ``apply_trusted`` calls the changes alone, for the
playouts of a search, which apply only actions the engine itself just listed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import phases
from .errors import IllegalAction
from .rules import cards, depots, routes, stations, tickets
from .rules.cards import empty_warehouses, recheck_faceup
from .rules.payment import counts_of, parse_cards
from .rules.turns import end_turn, has_action

if TYPE_CHECKING:
    from .state import GameState

# type -> {key: JSON type} of the required keys ("type" aside); draw_card is special-cased
SHAPES: dict[str, dict[str, type]] = {
    "draw_card": {"source": str},
    "claim_route": {"route": int, "cards": dict},
    "pay_tunnel": {"cards": dict},
    "decline_tunnel": {},
    "draw_tickets": {},
    "keep_tickets": {"tickets": list},
    "build_station": {"city": str, "cards": dict},
    "place_depot": {"city": str},
    "pass": {},
}

# optional keys (Warehouses & Depots): checked for type when present
OPTIONAL: dict[str, dict[str, type]] = {
    "draw_card": {"warehouse": int},
    "claim_route": {"warehouses": list},
}

# type -> every key it may carry besides "type"
ALLOWED: dict[str, frozenset] = {
    kind: frozenset(shape) | frozenset(OPTIONAL.get(kind, ())) for kind, shape in SHAPES.items()
}

FACEUP_SHAPE = {"source": str, "slot": int}
FACEUP_ALLOWED = frozenset({"source", "slot", "color", "warehouse"})

PHASE_ACTIONS = phases.ACTIONS  # declared with the phases (phases.py)


def _malformed(detail: str) -> IllegalAction:
    return IllegalAction("malformed_action", detail=detail)


def _type_ok(value, expected: type) -> bool:
    # JSON types only: a bool is not an int (True == 1 in Python)
    return type(value) is expected or (
        expected is not int and isinstance(value, expected) and not isinstance(value, bool)
    )


def _shape_problem(action: dict, shape: dict, allowed: frozenset) -> str | None:
    """Why ``action`` does not fit ``shape`` (keys ``allowed`` besides "type"), or None."""
    for key, expected in shape.items():
        if key not in action:
            return f"missing key {key!r}"
        value = action[key]
        if type(value) is not expected and not _type_ok(value, expected):
            return f"{key!r} must be of type {expected.__name__}"
    if len(action) > len(shape) + 1:  # keys beyond "type" and the required ones
        extra = [k for k in action if k != "type" and k not in allowed]
        if extra:
            return f"unexpected keys {sorted(map(str, extra))}"
    return None


def _check_optional(kind: str, action: dict) -> None:
    """Raise if an optional key (Warehouses & Depots) present in ``action`` is malformed."""
    for key, expected in OPTIONAL.get(kind, {}).items():
        if key in action and not _type_ok(action[key], expected):
            raise _malformed(f"{key!r} must be of type {expected.__name__}")
    if "warehouses" in action and (
        not action["warehouses"] or not all(type(w) is int for w in action["warehouses"])
    ):
        raise _malformed("'warehouses' must be a non-empty list of seats")


def check_shape(action) -> str:
    """Return the action's type after checking its shape."""
    if not isinstance(action, dict):
        raise _malformed("an action must be an object")
    kind = action.get("type")
    if type(kind) is not str:
        raise _malformed("'type' must be a string")
    shape = SHAPES.get(kind)
    if shape is None:
        raise IllegalAction("unknown_action", action_type=kind)
    allowed = ALLOWED[kind]
    if kind == "draw_card" and action.get("source") == "faceup":
        shape = FACEUP_SHAPE
        allowed = FACEUP_ALLOWED
        if "color" in action and type(action["color"]) is not str:
            raise _malformed("'color' must be of type str")
    problem = _shape_problem(action, shape, allowed)
    if problem:
        raise _malformed(problem)
    if len(action) > len(shape) + 1:  # optional keys present
        _check_optional(kind, action)
    if kind == "draw_card" and action["source"] not in ("deck", "faceup"):
        raise _malformed("'source' must be 'deck' or 'faceup'")
    if kind == "keep_tickets" and not all(type(t) is str for t in action["tickets"]):
        raise _malformed("'tickets' must be a list of ticket ids")
    return kind


def current_seats(state: GameState) -> list:
    """Seats with a decision now."""
    phase = state.phase
    if phase == phases.SETUP:
        return [s for s, offer in enumerate(state.offers) if offer is not None]
    if phase == phases.OVER:
        return []
    return [state.current]


def _is_current(state: GameState, seat) -> bool:
    if type(seat) is not int or not 0 <= seat < state.n:
        return False
    if state.phase == phases.SETUP:
        return state.offers[seat] is not None
    return state.phase != phases.OVER and seat == state.current


def legal_actions(state: GameState, seat) -> list:
    """Every legal action of ``seat`` now; ``[]`` when it has no decision."""
    if not _is_current(state, seat):
        return []
    phase = state.phase
    if phase == phases.TURN:
        out = cards.draw_actions(state, False)
        if state.ticket_deck:
            out.append({"type": "draw_tickets"})
        out += routes.claim_actions(state, seat)
        out += stations.station_actions(state, seat)
        if not out:
            out.append({"type": "pass"})
        if state.wh:
            out += depots.depot_actions(state, seat)
        return out
    if phase == phases.DEPOTS:
        return depots.depot_actions(state, seat)
    if phase == phases.DRAW2:
        return cards.draw_actions(state, True)
    if phase == phases.TUNNEL:
        return routes.tunnel_actions(state, seat)
    return tickets.keep_actions(state, seat)  # setup, tickets


def _check_seat(state: GameState, seat) -> None:
    if type(seat) is not int or not 0 <= seat < state.n:
        raise IllegalAction("invalid_seat", seat=seat)
    if state.phase == phases.OVER:
        raise IllegalAction("game_over")
    if not _is_current(state, seat):
        raise IllegalAction("not_your_turn", seat=seat)


def _pass(state: GameState, seat) -> bool:
    if has_action(state, seat):
        raise IllegalAction("pass_not_allowed")
    state.log_event(seat, "pass")
    end_turn(state, seat, passed=True)
    return False  # end_turn already ran


def apply_action(state: GameState, seat, action):
    """Validate and apply ``action`` for ``seat`` in place; return the same state."""
    kind = check_shape(action)
    _check_seat(state, seat)
    if kind not in PHASE_ACTIONS[state.phase]:
        raise IllegalAction("stale_phase", action_type=kind, phase=state.phase)
    if kind == "draw_card":
        ends = cards.apply_draw(state, seat, action)
    elif kind == "claim_route":
        counts = parse_cards(state, action["cards"])
        ends = routes.apply_claim(state, seat, action["route"], counts, action.get("warehouses"))
    elif kind == "build_station":
        counts = parse_cards(state, action["cards"])
        ends = stations.apply_build(state, seat, action["city"], counts)
    elif kind == "draw_tickets":
        ends = tickets.apply_draw_tickets(state, seat)
    elif kind == "keep_tickets":
        ends = tickets.apply_keep(state, seat, action["tickets"])
    elif kind == "pay_tunnel":
        ends = routes.apply_pay_tunnel(state, seat, parse_cards(state, action["cards"]))
    elif kind == "decline_tunnel":
        ends = routes.apply_decline_tunnel(state, seat)
    elif kind == "place_depot":
        ends = depots.apply_place(state, seat, action["city"])
    else:
        ends = _pass(state, seat)
    if ends:
        end_turn(state, seat)
    if state.phase != phases.OVER:
        _settle(state)
    return state


def apply_trusted(state: GameState, seat, action):
    """``apply_action`` without its checks, for an action the engine itself produced for
    ``seat`` in this very state (an item of ``legal_actions(state, seat)``, such as
    ``search.sample_action``'s): the same change to the state, the same log entries. Given
    anything else its result is undefined (it may corrupt the state): a host's or a player's
    action always goes through ``apply_action``."""
    kind = action["type"]
    if kind == "draw_card":
        second = state.phase == phases.DRAW2
        ends = cards.draw(state, seat, action.get("slot", -1), action.get("warehouse", -1), second)
    elif kind == "claim_route":
        counts, paid = counts_of(state, action["cards"])
        board = state.board
        row = routes.route_rows(board, state.cfg.colors)[board.route_index[action["route"]]]
        takes = action.get("warehouses")
        ends = routes.claim(state, seat, row, paid, counts, sorted(takes) if takes else [])
    elif kind == "draw_tickets":
        ends = tickets.apply_draw_tickets(state, seat)
    elif kind == "keep_tickets":
        index = state.board.ticket_index
        picked = {index[t] for t in action["tickets"]}
        ends = tickets.keep(state, seat, [i for i in state.offers[seat] if i in picked])
    elif kind == "build_station":
        counts = counts_of(state, action["cards"])[0]
        ends = stations.build(state, seat, state.board.city_index[action["city"]], counts)
    elif kind == "pay_tunnel":
        ends = routes.pay_tunnel(state, seat, counts_of(state, action["cards"])[0])
    elif kind == "decline_tunnel":
        ends = routes.apply_decline_tunnel(state, seat)
    elif kind == "place_depot":
        ends = depots.place_depot(state, seat, state.board.city_index[action["city"]])
    else:  # pass
        state.log_event(seat, "pass")
        end_turn(state, seat, passed=True)
        ends = False
    if ends:
        end_turn(state, seat)
    if state.phase != phases.OVER:
        _settle(state)
    return state


def _settle(state: GameState) -> None:
    """What happens "at once" after any action: the warehouse reshuffle when a seat just ran
    out of depots (docs/rules.md 2.6), then (rules edition 2 on) the face-up check, as a row
    of locomotives the cards left could not clear may be clearable now (cards paid to the
    discard, the warehouses become the deck: 1.3.1)."""
    if state.wh:
        empty_warehouses(state)
    # recheck_faceup, its cheap common case inline: fewer wild cards face up than the limit
    if state.faceup.count(state.wild) >= state.cfg.faceup_wild_limit:
        recheck_faceup(state)
