"""Engine errors and the one list of reason codes.

Terms:
- *reason code*: a stable snake_case string naming why an action was refused. Clients and
  translations key on it; the English ``message`` is a template filled with ``params``.
- ``EngineError``: base class of everything the engine raises on purpose.
- ``IllegalAction``: the action (or its dict) is not allowed now. The state is unchanged,
  because every rule validates fully before it mutates (ARCHITECTURE example 5).
- ``InvalidSetup``: ``new_game`` was called with an unknown ruleset, variant, seat count,
  seed or option.
"""

from __future__ import annotations

# code -> English message template (str.format fields filled from IllegalAction.params).
REASON_CODES: dict[str, str] = {
    # structure of the action dict
    "malformed_action": "Malformed action: {detail}.",
    "unknown_action": "Unknown action type {action_type!r}.",
    # who may act
    "invalid_seat": "Seat {seat!r} is not a seat of this game.",
    "game_over": "The game is over.",
    "not_your_turn": "It is not seat {seat}'s decision now.",
    "stale_phase": "A {action_type} action is not possible in phase {phase}.",
    # drawing train cards (docs/rules.md 1.3.1)
    "deck_empty": "The deck and the discard pile are empty: no card can be drawn blind.",
    "invalid_slot": "Face-up slot {slot!r} does not exist.",
    "empty_slot": "Face-up slot {slot} is empty.",
    "faceup_mismatch": "Face-up slot {slot} holds {actual}, not {color}.",
    "second_locomotive": "A face-up locomotive cannot be taken as the second card.",
    # claiming routes, ferries, tunnels (docs/rules.md 1.3.2)
    "unknown_route": "There is no route {route!r}.",
    "route_taken": "Route {route} is already claimed.",
    "double_route_closed": "Route {route} is closed: its twin is used (2-3 players).",
    "double_route_own": "You already own the twin of route {route}.",
    "not_enough_trains": "Route {route} needs {needed} cars; you have {left}.",
    "wrong_card_count": "Expected {expected} cards, got {got}.",
    "mixed_colors": "Cards must be of one colour (plus locomotives).",
    "wrong_color": "Route {route} needs {needed} cards (or locomotives), not {color}.",
    "ferry_locomotives": "Route {route} is a ferry: it needs at least {needed} locomotives.",
    "insufficient_cards": "You do not hold these cards: {cards}.",
    # destination tickets (docs/rules.md 1.3.3, 1.8)
    "ticket_deck_empty": "The ticket deck is empty.",
    "invalid_ticket_choice": "Ticket choice {tickets!r} is not a set of offered tickets.",
    "too_few_tickets": "You must keep at least {needed} tickets.",
    "too_many_long": "You may keep at most {allowed} long ticket(s).",
    # stations (docs/rules.md 1.3.4)
    "unknown_city": "There is no city {city!r}.",
    "city_has_station": "{city} already has a station.",
    "no_stations_left": "You have no stations left.",
    # warehouses and depots (docs/rules.md §2)
    "no_warehouses": "This game is played without warehouses and depots.",
    "city_has_depot": "{city} already has a depot.",
    "no_depots_left": "You have no depots left beside your warehouse.",
    "not_enough_depots": "Taking {needed} warehouse(s) needs {needed} depots; you have {left}.",
    "warehouse_required": "Say which warehouse gets the top card of the deck ('warehouse').",
    "warehouse_not_allowed": "No warehouse card is due with this draw.",
    "invalid_warehouse": "Seat {seat!r} is not a warehouse you can name here.",
    "warehouse_not_reachable": "No depot of seat {seat} stands at an end of route {route}.",
    "empty_warehouse": "The warehouse of seat {seat} is empty.",
    # passing (docs/rules.md 1.4 Decision)
    "pass_not_allowed": "You can still act, so you cannot pass.",
    # new_game
    "invalid_setup": "Invalid game set-up: {detail}.",
}


class EngineError(Exception):
    """Base of every error the engine raises on purpose; carries a reason ``code``."""

    def __init__(self, code: str, **params: object) -> None:
        template = REASON_CODES[code]
        self.code = code
        self.params = params
        self.message = template.format(**params)
        super().__init__(self.message)


class IllegalAction(EngineError):
    """The action is not legal now; the state was not changed."""


class InvalidSetup(EngineError):
    """``new_game`` arguments are not a valid game."""

    def __init__(self, detail: str) -> None:
        super().__init__("invalid_setup", detail=detail)
