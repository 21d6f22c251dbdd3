"""The engine's reason codes in the player's language.

The engine is pure and speaks English (``games.engine.REASON_CODES``); players are told why
an action was refused in their own language. ``REASON_MESSAGES`` holds a translatable text
for every engine code (a test keeps the two lists equal), and ``reason_message`` fills it
with the refusal's parameters, naming card colours in the same language.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

REASON_MESSAGES = {
    "malformed_action": gettext_lazy("That action could not be understood: {detail}."),
    "unknown_action": gettext_lazy("There is no action called {action_type}."),
    "invalid_seat": gettext_lazy("Seat {seat} is not a seat of this game."),
    "game_over": gettext_lazy("The game is over."),
    "not_your_turn": gettext_lazy("It is not your decision now."),
    "stale_phase": gettext_lazy("That is not possible at this point of the turn."),
    "deck_empty": gettext_lazy(
        "The deck and the discard pile are empty: no card can be drawn blind."
    ),
    "invalid_slot": gettext_lazy("There is no face-up card in that place."),
    "empty_slot": gettext_lazy("That face-up place is empty."),
    "faceup_mismatch": gettext_lazy("That face-up card is {actual} now, not {color}."),
    "second_locomotive": gettext_lazy("A face-up locomotive cannot be your second card."),
    "unknown_route": gettext_lazy("There is no such route."),
    "route_taken": gettext_lazy("That route is already claimed."),
    "double_route_closed": gettext_lazy(
        "That route is closed: with 2 or 3 players only one of a double route is used."
    ),
    "double_route_own": gettext_lazy("You already own the other route of this pair."),
    "not_enough_trains": gettext_lazy("This route needs {needed} trains; you have {left}."),
    "wrong_card_count": gettext_lazy("This needs {expected} cards, not {got}."),
    "mixed_colors": gettext_lazy("Pay with cards of one colour (and locomotives)."),
    "wrong_color": gettext_lazy("This route takes {needed} cards (or locomotives), not {color}."),
    "ferry_locomotives": gettext_lazy("This ferry needs at least {needed} locomotives."),
    "insufficient_cards": gettext_lazy("You do not hold these cards: {cards}."),
    "ticket_deck_empty": gettext_lazy("There are no tickets left to draw."),
    "invalid_ticket_choice": gettext_lazy("Choose among the tickets you were offered."),
    "too_few_tickets": gettext_lazy("Keep at least {needed} tickets."),
    "too_many_long": gettext_lazy("Keep at most {allowed} long tickets."),
    "unknown_city": gettext_lazy("There is no city {city}."),
    "city_has_station": gettext_lazy("{city} already has a station."),
    "no_stations_left": gettext_lazy("You have no stations left."),
    "no_warehouses": gettext_lazy("This game is played without warehouses and depots."),
    "city_has_depot": gettext_lazy("{city} already has a depot."),
    "no_depots_left": gettext_lazy("You have no depots left beside your warehouse."),
    "not_enough_depots": gettext_lazy(
        "Taking {needed} warehouses needs {needed} depots; you have {left}."
    ),
    "warehouse_required": gettext_lazy("Choose the warehouse that gets the deck's top card."),
    "warehouse_not_allowed": gettext_lazy("No warehouse card is due with this draw."),
    "invalid_warehouse": gettext_lazy("You cannot choose that warehouse here."),
    "warehouse_not_reachable": gettext_lazy("That warehouse has no depot at an end of this route."),
    "empty_warehouse": gettext_lazy("That warehouse is empty."),
    "pass_not_allowed": gettext_lazy("You can still act, so you cannot pass."),
    "invalid_setup": gettext_lazy("These game settings are not valid: {detail}."),
}

# Card colours as players call them (Europe's eight, New York's six, the wild card).
COLOR_NAMES = {
    "red": gettext_lazy("red"),
    "blue": gettext_lazy("blue"),
    "green": gettext_lazy("green"),
    "yellow": gettext_lazy("yellow"),
    "black": gettext_lazy("black"),
    "white": gettext_lazy("white"),
    "orange": gettext_lazy("orange"),
    "pink": gettext_lazy("pink"),
    "gray": gettext_lazy("gray"),
    "locomotive": gettext_lazy("locomotive"),
}


def color_name(color) -> str:
    return str(COLOR_NAMES.get(color, color))


def reason_message(code: str, params: dict) -> str:
    """The refusal ``code`` with its ``params``, in the active language."""
    template = REASON_MESSAGES.get(code)
    if template is None:
        return str(code)
    values = {name: _readable(name, value) for name, value in params.items()}
    try:
        return str(template).format(**values)
    except (KeyError, IndexError, ValueError):
        return str(template)  # a translation that names a missing field still reads well


def _readable(name: str, value) -> str:
    if name in ("color", "actual", "needed") and isinstance(value, str):
        return color_name(value)
    if isinstance(value, dict):  # cards: {"red": 3, "locomotive": 1}
        return ", ".join(f"{n} × {color_name(c)}" for c, n in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return _("none") if value is None else str(value)
