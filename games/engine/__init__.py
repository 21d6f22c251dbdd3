"""ttr rules engine: pure Python (standard library only), no Django.

Rules: ``docs/rules.md`` §1 (``ruleset="europe"``, 2-5 players, variants ``classic``,
``europa_1912``, ``europe_extended``, ``mega_europe``, ``big_cities``), §2 (Warehouses &
Depots: the ``warehouses`` option of every Europe variant) and §3 (``ruleset="new_york"``,
2-4 players, variant ``standard``). Rule sets plug in via ``rulesets/``.

Public API
==========
``new_game(*, ruleset="europe", variant=None, seats=4, seed=0, options=None,
edition=RULES_EDITION) -> state``
    A new game in phase ``setup``; ``variant`` None is the ruleset's first (``classic``,
    ``standard``). ``options``: ``{"bonus_tickets": bool}`` (bonus tickets join the
    variant by their logos; raises ``InvalidSetup`` while the map has no bonus-ticket data
    for the variant, which is so today), ``{"warehouses": bool}``
    (Warehouses & Depots; Europe only). ``edition``: the rules edition (see "Rules
    editions" below). Bad arguments raise ``InvalidSetup`` (code ``invalid_setup``).
    ``new_game(ruleset="new_york", variant="standard", seats=3)``.
``legal_actions(state, seat) -> list[dict]``
    Every legal action of ``seat`` now (JSON-ready); ``[]`` when it has no decision.
``apply_action(state, seat, action) -> state``
    **Mutates ``state`` in place** and returns it. Anything not in ``legal_actions`` raises
    ``IllegalAction`` and leaves the state unchanged (copy with ``from_json(to_json(s))`` if
    you need the old one). Key order and the order of ``tickets`` and ``warehouses`` lists
    do not matter.
``step(state, seat, action) -> Step``
    ``apply_action`` and what the step did, for a host: ``clock_restarts`` (a new turn began,
    or set-up passed to the next seat), ``game_over``, ``deciding`` (the seats deciding now).
``current_seats(state) -> list[int]`` / ``is_terminal(state) -> bool``
``view_for(state, viewer, log_since=None) -> dict``
    THE redaction (docs/rules.md 1.6); ``viewer``: a seat, ``None`` (spectator) or ``"all"``;
    ``log`` holds the entries from index ``log_since`` (a push needs only the new ones;
    ``None``: all the state holds, which is the whole log unless it was detached).
    Keys: ``ruleset variant options seats phase turn first_seat current_seats players faceup
    deck_count discard_count ticket_deck_count last_round pending log`` (+ ``you`` for a
    seat, ``final`` when over). ``players[i]``: ``seat score trains_left stations_left
    hand_count ticket_count offered_count routes stations depots depots_left
    warehouse_count attractions`` (route ids, city names; ``depots``: the seat's depots on
    the map, ``depots_left``: beside its warehouse, ``warehouse_count``: cards in its
    warehouse, all 0/[] without warehouses; ``attractions``: New York tourist attractions its
    routes touch, [] in Europe); with ``"all"`` each also gets the private keys of ``you``
    and ``warehouse`` (colour -> count: warehouse colours are shown to NO seat, not even the
    owner; ``"all"`` is for finished-game replays and admin tools). ``you``: ``seat``,
    ``hand`` (card key -> count; the wild card is ``locomotive`` in every rule set, New
    York's taxi cards included), ``tickets`` (``id a b points completed``; completed with own
    routes only), ``offered_tickets`` (list or null).
    ``pending``: null or the public side of a decision: ``{"type": "tunnel", "seat",
    "route", "played", "revealed", "extra", "color", "warehouses"}``, ``{"type":
    "keep_tickets", "seat", "count"}``, ``{"type": "second_draw", "seat"}``, ``{"type":
    "initial_tickets", "seats"}``, ``{"type": "initial_depots", "seat", "order"}`` (seats
    still to place, in order). ``last_round``: ``{"active", "triggered_by", "turns_left"}``.
``log_for(state, viewer, since=None) -> list[dict]``
    Log entries from index ``since`` (``None``: all held), redacted as in ``view_for``.
``final_result(state) -> dict``
    Once terminal: ``{"reason": "last_round"|"all_passed", "players": [...]}``, players in
    seat order with ``seat score rank route_points tickets ticket_points completed_tickets
    stations_built station_bonus station_routes longest_path longest_path_bonus
    longest_path_routes attractions attraction_points depots depots_left depot_bonus``;
    ``tickets`` items ``id a b points completed``; ``station_routes`` items ``{"city",
    "route"}`` (route id or null). ``score`` = route + ticket points + station, longest-path,
    attraction and depot bonuses. Rank 1 wins; equal ranks share a place (New York: score,
    then completed tickets).
``to_json(state) -> str`` / ``from_json(s) -> state``
    Exact, deterministic round trip. Same seed + same actions => identical ``to_json``.
``detach_log(state) -> list`` / ``attach_log(state, earlier) -> state`` / ``log_length(state)``
    A state holds its log from entry ``state.log_base`` (0: all of it). ``detach_log`` takes
    the held entries out (raw, secrets included) and returns them; the state numbers new
    entries on from there, so a host can store each move's entries beside the state and
    keep the stored state small (a move's cost then does not grow with the game's length).
    ``attach_log`` puts back entries 0..log_base-1 (``ValueError`` if they are not exactly
    those); ``log_for``/``view_for`` need the entries from a given ``since`` held
    (``IllegalAction`` otherwise). ``log_length``: entries made so far (the next ``seq``).
``redact_entries(entries, viewer) -> list``
    Raw log entries (detached ones too) as ``viewer`` may see them: ``log_for``'s redaction.
``board(ruleset) -> dict``
    ``cities`` (``name display_name lat lon big_city tourist_attraction``), ``routes``
    (``id a b length color tunnel ferry_locomotives double_group``), ``tickets`` (``id a b
    points kind source big_cities_logo``), ``scoring``, ``cards`` (``colors wild
    wild_display_name per_color wild_count``: New York ``wild`` ``"locomotive"``,
    ``wild_display_name`` ``"taxi"``).
``replay(params, actions) -> state``
    ``new_game(**params)`` then each ``[seat, action]``.
``clone(state) -> state``
    An independent copy for search (``search``): playing either never changes the other;
    ``to_json(clone(s)) == to_json(s)``; far cheaper than a JSON round trip.
``count_actions(state, seat) -> int`` / ``action_at(state, seat, i) -> dict``
    ``len(legal_actions(state, seat))`` / ``legal_actions(state, seat)[i]`` (``IndexError``
    outside the list) without building the list.
``sample_action(state, seat, rng) -> dict | None``
    ``rng.choice(legal_actions(state, seat))`` without the list: the same action from the
    same ``random.Random`` state (one ``rng.randrange(n)``), uniform over the legal list;
    ``None`` (no rng use) when the seat has no decision. For random playouts.
``apply_trusted(state, seat, action) -> state``
    ``apply_action`` without re-checking the action, for playouts: only for an action the
    engine itself just listed for ``seat`` in this state (``sample_action``'s, an item of
    ``legal_actions``: any form ``apply_action`` would accept); the same state and log.
    Anything else may corrupt the state: hosts and players go through ``apply_action``.
``RULES_EDITION`` / ``rules_edition(state) -> int``
    The edition new games are dealt under / the one ``state`` is played under.
Also: ``IllegalAction``/``InvalidSetup`` (subclasses of ``EngineError``; attributes
``code``, ``message``, ``params``), ``REASON_CODES`` (code -> English template),
``COLORS`` (Europe's), ``RULESETS``, ``VARIANTS`` (``{"europe": (...), "new_york":
("standard",)}``).

Rules editions
==============
A game is played under one rules edition from its deal to its end (``editions``;
docs/rules.md "Rules editions"), so a stored game, in play or replayed from its actions,
never changes rules. ``new_game`` deals ``RULES_EDITION`` (2) unless given another; a host
replaying a stored game passes ``edition=rules_edition(stored_state)``. States saved before
editions existed load as edition 1. Edition 2 differs from edition 1 in four places: Mega
Europe's set-up in two steps (edition 1: one choice over all 7 tickets); the face-up row is
also checked after a blind draw and after every action; a changed row with 3 locomotives is
refreshed at least once (edition 1: only if a better row can come); the depot bonus goes to
every seat when nobody has a depot left (edition 1: to nobody). The rest of this docstring
describes edition 2.

Ticket ids
==========
Strings unique per map: ``"E1".."E46"`` base Europe tickets, ``"X1".."X55"`` Europa 1912
tickets, ``"O<n>"``/``"M<n>"`` bonus tickets (no data yet), ``"T1".."T18"`` New York. Route
ids are the map's ints (Europe 1..101, New York 1..41); city ids are names (``"Wien"``,
``"Times Square"``).

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
  (phase ``setup``, all seats decide at once). Mega Europe's set-up is two such choices in
  a row for each seat: first over its 2 long tickets (``"tickets": []`` is legal there),
  then over the 5 regular tickets dealt to it next (``you.offered_tickets`` changes; the
  seat stays in ``current_seats`` until its second choice).
- ``{"type": "build_station", "city": "Wien", "cards": {"blue": 2}}`` (Europe only)
- ``{"type": "pass"}``: only when nothing else is possible.

New York has no stations and no tunnels or ferries: the same actions minus
``build_station``/``pay_tunnel``/``decline_tunnel``; cards are ``pink blue green black red
orange`` and ``locomotive`` (the taxi cards).

Warehouses & Depots (option ``warehouses``; details in ``rules/depots.py``):

- Set-up, phase ``depots`` (after the ticket choice): the seat last in turn order, then the
  others counter-clockwise, each send ``{"type": "place_depot", "city": "Wien"}``.
- In phase ``turn``, before the turn's action, any number of free
  ``{"type": "place_depot", "city": "Wien"}`` (a city with no depot and no station). This is
  not the turn's action: phase (``turn``), current seat and the ``turn`` counter stay the
  same, and the turn continues. A turn is over exactly when the ``turn`` counter increases
  (or the game ends): clients and turn clocks should key on that, not on the phase being
  ``turn`` after an action.
- The first card of a draw names the warehouse that gets the deck's top card, unseen:
  ``{"type": "draw_card", "source": "deck", "warehouse": 2}``,
  ``{"type": "draw_card", "source": "faceup", "slot": 1, "warehouse": 0}`` (any seat; listed
  once per seat; required while a card can be drawn blind, refused otherwise and on the
  second card).
- A claim may take the warehouses of the depots at its route's ends, one own depot (from
  beside the warehouse) each: ``{"type": "claim_route", "route": 38, "cards": {"red": 1},
  "warehouses": [1, 2]}`` (no key: take nothing; listed once per choice; taken once the
  route is placed).
- A station on a depot city is refused (``city_has_depot``), as a depot on a station city
  (``city_has_station``).

Log entries
===========
``{"seq": i, "seat": s or null, "type": t, ...}``; engine events have ``seat`` null unless
tied to a seat. Private facts are shown only to that seat (and to ``"all"``). Types and
public keys:

- ``game_start`` (ruleset, variant, seats); ``deal`` (hand_count, ticket_count; private:
  hand, tickets); ``setup`` (first_seat, faceup); ``play_start`` (first_seat)
- ``deal_tickets`` (count; private: tickets): Mega Europe's regular set-up tickets, dealt
  to a seat once it has kept its long ones
- ``keep_tickets`` (kept_count, returned_count; private: tickets, returned)
- ``draw_card`` (source, slot, color, replacement; private for deck draws: color)
- ``reshuffle`` (count); ``faceup_refresh`` (discarded, faceup)
- ``claim_route`` (route, cards); ``tunnel_attempt`` (route, cards, revealed, extra);
  ``pay_tunnel`` (route, cards); ``decline_tunnel`` (route)
- ``draw_tickets`` (count; private: tickets); ``build_station`` (city, cards); ``pass``
- ``last_round`` (trains_left); ``game_end`` (reason, scores, ranks)
- Warehouses & Depots: ``initial_depots`` (order); ``place_depot`` (city, depots_left);
  ``warehouse_card`` (warehouse: the seat whose warehouse got the deck's top card; its
  colour is logged for nobody); ``claim_route``/``tunnel_attempt`` also carry
  ``warehouses`` when a take was chosen; ``take_warehouse`` (warehouse, count,
  depots_left; private to the taker: cards); ``warehouse_reshuffle`` (count, warehouses:
  the count taken from each).

Phases and engine decisions
===========================
Phases: ``setup`` (-> ``depots`` with warehouses) -> ``turn`` (-> ``draw2`` | ``tickets`` |
``tunnel``) -> ... -> ``over``.
Card counts must be positive ints (zero entries are malformed). Mega Europe's set-up is two
``keep_tickets`` per seat: 0 or 1 of its 2 long tickets, then, of the 5 regular tickets dealt
after that choice, at least 2 with a long one kept, else 3 (edition 1: one choice over all
7 under the same rule). Set-up returns that go under the deck (Mega
Europe, Big Cities, New York) are
shuffled together once every seat has chosen. New York: 2 tickets dealt, keep >= 1; in play
draw 2 keep >= 1 (one left: it is drawn and must be kept); with 2 players one twin of a
double route only; the last round starts at 2 or fewer taxis; +1 per tourist attraction
touched; no longest path. The deck is reshuffled from the discard when a card is
needed; empty face-up slots are refilled at the end of a turn. A row with 3 or more
locomotives that has just changed is refreshed at least once; more refreshes, and any
refresh of an unchanged row (checked after every card drawn and every turn), need a row
with fewer to be possible. Warehouses & Depots
decisions: no station on a depot city; no warehouse card when nothing can be drawn blind,
and a deck draw needs a card left after it; an empty warehouse cannot be taken; warehouse
cards come after the route is placed (tunnels: after paying, none if declined); the
warehouse reshuffle happens at once when its condition holds; free depots only before the
turn's action; the depot bonus goes to every seat tied for the most unused depots, 0
included (``rules/cards.py``, ``rules/depots.py``). Further decisions are
documented in the module that implements them (``rules/``, ``scoring``).
"""

from __future__ import annotations

# first: with TTR_NATIVE_ENGINE set, it puts the compiled modules in front of the pure ones
from . import native

# isort: split
import copy

from . import phases
from .actions import apply_action, current_seats, legal_actions
from .editions import RULES_EDITION
from .errors import REASON_CODES, EngineError, IllegalAction, InvalidSetup
from .mapdata import load_map
from .replay import replay
from .rulesets import RULESETS, VARIANTS
from .rulesets.europe import COLORS
from .search import action_at, apply_trusted, clone, count_actions, sample_action
from .serialization import from_json, to_json
from .setup import new_game
from .state import attach_log, detach_log, log_length
from .steps import Step, step
from .views import log_for, redact_entries, view_for


def is_terminal(state) -> bool:
    """Whether the game is over."""
    return state.phase == phases.OVER


def rules_edition(state) -> int:
    """The rules edition the game is played under (``RULES_EDITION`` for a game dealt now)."""
    return state.edition


def final_result(state) -> dict:
    """The final scores and ranks (a copy); raises ``EngineError`` before the end."""
    if state.phase != phases.OVER:
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
    "RULES_EDITION",
    "VARIANTS",
    "Step",
    "EngineError",
    "IllegalAction",
    "InvalidSetup",
    "action_at",
    "apply_action",
    "apply_trusted",
    "attach_log",
    "board",
    "clone",
    "count_actions",
    "current_seats",
    "detach_log",
    "final_result",
    "from_json",
    "is_terminal",
    "legal_actions",
    "log_for",
    "log_length",
    "native",
    "new_game",
    "redact_entries",
    "replay",
    "rules_edition",
    "sample_action",
    "step",
    "to_json",
    "view_for",
]
