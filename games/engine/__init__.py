"""ttr rules engine: pure Python (standard library only), no Django.

Rules: ``RULES.md`` §1 (Europe, 2-5 players, variants ``classic``, ``europa_1912``,
``europe_extended``, ``mega_europe``, ``big_cities``). Rule sets plug in via ``rulesets/``.

Public API
==========
``new_game(*, ruleset="europe", variant="classic", seats=4, seed=0, options=None) -> state``
    A new game in phase ``setup``. ``options``: ``{"bonus_tickets": bool}`` (raises
    ``InvalidSetup`` while the map has no bonus-ticket data). Bad arguments raise
    ``InvalidSetup`` (code ``invalid_setup``).
``legal_actions(state, seat) -> list[dict]``
    Every legal action of ``seat`` now (JSON-ready); ``[]`` when it has no decision.
``apply_action(state, seat, action) -> state``
    **Mutates ``state`` in place** and returns it. Anything not in ``legal_actions`` raises
    ``IllegalAction`` and leaves the state unchanged (copy with ``from_json(to_json(s))`` if
    you need the old one). Key order and ticket-list order do not matter.
``current_seats(state) -> list[int]`` / ``is_terminal(state) -> bool``
``view_for(state, viewer) -> dict``
    THE redaction (RULES.md 1.6); ``viewer``: a seat, ``None`` (spectator) or ``"all"``.
    Keys: ``ruleset variant options seats phase turn first_seat current_seats players faceup
    deck_count discard_count ticket_deck_count last_round pending log`` (+ ``you`` for a
    seat, ``final`` when over). ``players[i]``: ``seat score trains_left stations_left
    hand_count ticket_count offered_count routes stations`` (route ids, city names); with
    ``"all"`` each also gets the private keys of ``you``. ``you``: ``seat``, ``hand``
    (colour -> count, ``locomotive`` for locomotives), ``tickets`` (``id a b points
    completed``; completed with own routes only), ``offered_tickets`` (list or null).
    ``pending``: null or the public side of a decision: ``{"type": "tunnel", "seat",
    "route", "played", "revealed", "extra", "color"}``, ``{"type": "keep_tickets", "seat",
    "count"}``, ``{"type": "second_draw", "seat"}``, ``{"type": "initial_tickets",
    "seats"}``. ``last_round``: ``{"active", "triggered_by", "turns_left"}``.
``log_for(state, viewer, since=0) -> list[dict]``
    Log entries from index ``since``, redacted by the same code as ``view_for``.
``final_result(state) -> dict``
    Once terminal: ``{"reason": "last_round"|"all_passed", "players": [...]}``, players in
    seat order with ``seat score rank route_points tickets ticket_points completed_tickets
    stations_built station_bonus station_routes longest_path longest_path_bonus
    longest_path_routes``; ``tickets`` items ``id a b points completed``;
    ``station_routes`` items ``{"city", "route"}`` (route id or null). Rank 1 wins; equal
    ranks share a place.
``to_json(state) -> str`` / ``from_json(s) -> state``
    Exact, deterministic round trip. Same seed + same actions => identical ``to_json``.
``board(ruleset) -> dict``
    ``cities`` (``name display_name lat lon big_city``), ``routes`` (``id a b length color
    tunnel ferry_locomotives double_group``), ``tickets`` (``id a b points kind source
    big_cities_logo``), ``scoring``.
``replay(params, actions) -> state``
    ``new_game(**params)`` then each ``[seat, action]``.
Also: ``IllegalAction``/``InvalidSetup`` (subclasses of ``EngineError``; attributes
``code``, ``message``, ``params``), ``REASON_CODES`` (code -> English template),
``COLORS``, ``RULESETS``, ``VARIANTS``.

Ticket ids
==========
Strings unique per map: ``"E1".."E46"`` base Europe tickets, ``"X1".."X55"`` Europa 1912
tickets, ``"O<n>"``/``"M<n>"`` bonus tickets (no data yet). Route ids are the map's ints
(1..101); city ids are names (``"Wien"``).

Actions (wire format)
=====================
Turn actions (phase ``turn``; one per turn):

- ``{"type": "draw_card", "source": "deck"}``
- ``{"type": "draw_card", "source": "faceup", "slot": 2}`` (listed actions also carry
  ``"color": "red"``; if sent, it must match the slot). The second card is a separate
  decision (phase ``draw2``), where only allowed draws are listed.
- ``{"type": "claim_route", "route": 17, "cards": {"red": 3, "locomotive": 1}}``: explicit
  payment; legal_actions lists each colour x locomotive-count option. A tunnel then reveals
  cards and, if extra cards are due, waits in phase ``tunnel`` for
  ``{"type": "pay_tunnel", "cards": {"red": 1}}`` or ``{"type": "decline_tunnel"}``.
- ``{"type": "draw_tickets"}`` then (phase ``tickets``)
  ``{"type": "keep_tickets", "tickets": ["E3", "E17"]}``; also used for the set-up choice
  (phase ``setup``, all seats decide at once).
- ``{"type": "build_station", "city": "Wien", "cards": {"blue": 2}}``
- ``{"type": "pass"}``: only when nothing else is possible.

Log entries
===========
``{"seq": i, "seat": s or null, "type": t, ...}``; engine events have ``seat`` null unless
tied to a seat. Private facts are shown only to that seat (and to ``"all"``). Types and
public keys:

- ``game_start`` (ruleset, variant, seats); ``deal`` (hand_count, ticket_count; private:
  hand, tickets); ``setup`` (first_seat, faceup); ``play_start`` (first_seat)
- ``keep_tickets`` (kept_count, returned_count; private: tickets, returned)
- ``draw_card`` (source, slot, color, replacement; private for deck draws: color)
- ``reshuffle`` (count); ``faceup_refresh`` (discarded, faceup)
- ``claim_route`` (route, cards); ``tunnel_attempt`` (route, cards, revealed, extra);
  ``pay_tunnel`` (route, cards); ``decline_tunnel`` (route)
- ``draw_tickets`` (count; private: tickets); ``build_station`` (city, cards); ``pass``
- ``last_round`` (trains_left); ``game_end`` (reason, scores, ranks)

Phases and engine decisions
===========================
Phases: ``setup`` -> ``turn`` (-> ``draw2`` | ``tickets`` | ``tunnel``) -> ... -> ``over``.
Card counts must be positive ints (zero entries are malformed). Mega Europe's set-up is one
``keep_tickets`` over the 2 long + 5 regular tickets (at most 1 long; 2 regular with a long,
else 3). Set-up returns that go under the deck (Mega Europe, Big Cities) are shuffled
together once every seat has chosen. The deck is reshuffled from the discard when a card is
needed; empty face-up slots are refilled at the end of a turn. Further decisions are
documented in the module that implements them (``rules/``, ``scoring``).
"""

from __future__ import annotations

import copy

from .actions import apply_action, current_seats, legal_actions
from .errors import REASON_CODES, EngineError, IllegalAction, InvalidSetup
from .mapdata import load_map
from .replay import replay
from .rulesets import RULESETS, VARIANTS
from .rulesets.europe import COLORS
from .serialization import from_json, to_json
from .setup import new_game
from .views import log_for, view_for


def is_terminal(state) -> bool:
    """Whether the game is over."""
    return state.phase == "over"


def final_result(state) -> dict:
    """The final scores and ranks (a copy); raises ``EngineError`` before the end."""
    if state.phase != "over":
        raise IllegalAction("stale_phase", action_type="final_result", phase=state.phase)
    return copy.deepcopy(state.final)


def board(ruleset: str = "europe") -> dict:
    """The JSON-ready map of a ruleset, with its card names (``cards``)."""
    if ruleset not in RULESETS:
        raise InvalidSetup(f"unknown ruleset {ruleset!r}")
    cfg = RULESETS[ruleset]
    out = load_map(cfg.map_name).to_dict()
    out["cards"] = {
        "colors": list(cfg.colors),
        "wild": cfg.wild,
        "wild_display_name": cfg.wild_display_name,
        "per_color": cfg.cards_per_color,
        "wild_count": cfg.wild_cards,
    }
    return out


__all__ = [
    "COLORS",
    "REASON_CODES",
    "RULESETS",
    "VARIANTS",
    "EngineError",
    "IllegalAction",
    "InvalidSetup",
    "apply_action",
    "board",
    "current_seats",
    "final_result",
    "from_json",
    "is_terminal",
    "legal_actions",
    "log_for",
    "new_game",
    "replay",
    "to_json",
    "view_for",
]
