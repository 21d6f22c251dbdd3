"""The phases of a game, declared once: each phase, what happens in it, and the action types it
accepts (any other type from a deciding seat raises ``stale_phase``). The rule modules move a
game from phase to phase (docs/rules.md); the opening, from the deal to the first turn, is
``rules/opening.py``.

- ``SETUP``: every seat keeps tickets from its offer, all at the same time (1.2 step 5).
- ``DEPOTS``: Warehouses & Depots: the seats place their initial depot one after another (2.1).
- ``TURN``: the current seat takes its turn's action (before it, W&D's free depots).
- ``DRAW2``: the current seat draws its second train card (1.3.1).
- ``TICKETS``: the current seat keeps some of the tickets it drew (1.3.3).
- ``TUNNEL``: the current seat pays a tunnel's extra cards or gives it up (1.3.2).
- ``OVER``: the game is scored and over; nobody decides.
"""

from __future__ import annotations

SETUP = "setup"
DEPOTS = "depots"
TURN = "turn"
DRAW2 = "draw2"
TICKETS = "tickets"
TUNNEL = "tunnel"
OVER = "over"

ACTIONS: dict[str, frozenset[str]] = {
    SETUP: frozenset({"keep_tickets"}),
    DEPOTS: frozenset({"place_depot"}),
    TURN: frozenset(
        {"draw_card", "claim_route", "draw_tickets", "build_station", "place_depot", "pass"}
    ),
    DRAW2: frozenset({"draw_card"}),
    TICKETS: frozenset({"keep_tickets"}),
    TUNNEL: frozenset({"pay_tunnel", "decline_tunnel"}),
    OVER: frozenset(),
}
