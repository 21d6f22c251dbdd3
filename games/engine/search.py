"""Cheap primitives for search and playouts: ``clone``, ``count_actions``, ``action_at``,
``sample_action``, ``apply_trusted``, ``playout`` (counting and indexing the legal list:
module ``counting``; the whole-game loop: module ``playout``).

Terms:
- *legal list*: ``legal_actions(state, seat)``, in its order. It can hold hundreds of
  actions (every payment option of every claimable route, every city for a station), and
  a random playout needs only one of them.
- *segment*: a run of the legal list built by one rule (draws, the ticket draw, claims,
  stations, the pass, depots). ``count_actions`` adds up the segments' sizes from counts
  alone (payment options are counted by a formula, not listed); ``action_at`` walks the
  segments to the one holding index ``i`` and builds that action alone, exactly as
  ``legal_actions`` would have at that index. A test checks both against the list over many
  random games of every rule set.
- ``sample_action(state, seat, rng)`` is ``rng.choice(legal_actions(state, seat))`` (the
  same action and the same single ``rng.randrange(n)`` call): uniform over the legal list.
  Its commonest decision, a turn without Warehouses & Depots, is counted and built in one
  function (``_sample_turn``); a ticket choice is picked among the kept subsets by their
  count (in play) or from the allowed subsets of the offer's shape, checked once per shape
  (set-up).
- *playout path*: ``sample_action`` then ``apply_trusted`` (``actions``), which applies an
  action the engine itself listed without checking it again: the same state, the same log,
  as ``apply_action`` (a test plays both paths side by side over many random games of every
  rule set and compares the states after every step; ``benchmarks/engine.py`` compares its
  games' final states).
- ``playout(state, rng)`` (module ``playout``): that loop of ``sample_action`` and
  ``apply_trusted`` to the end of the game in one call, the same game, its commonest
  decisions applied with ints.
- *claim count* (module ``counting``): by colour (``_claim_total``, from the per-seat
  open-route counts ``routes.open_counts``: only the colours held are visited); walked group
  by group (``_claim_count``) only to find the claim at a drawn index.
- ``clone``: an independent copy. The board, config and edition objects are immutable and
  shared; log entries are never changed once an action has returned, so the log list is
  copied but not its entries; every other mutable field is copied.
"""

from __future__ import annotations

from itertools import combinations, islice
from math import comb

from . import phases
from .actions import _is_current, apply_trusted, legal_actions
from .counting import (
    _cards,
    _claim_count,
    _claim_total,
    _pay_count,
    _station_at,
    _turn_action,
    _turn_count,
    action_at,
    count_actions,
)
from .rules.cards import blind_count
from .rules.payment import options
from .rules.stations import station_cost, station_options
from .rules.tickets import _keep_problem, ticket_ids
from .state import GameState


def clone(state: GameState) -> GameState:
    """An independent copy of ``state`` (see the module docstring)."""
    new = GameState.__new__(GameState)
    # field by field, written out (a loop over the names costs twice as much); a test checks
    # that every slot is set and no list or dict is shared (``final`` aside: written once, when
    # the game ends, and never changed after)
    new.version = state.version
    new.edition = state.edition
    new.ruleset = state.ruleset
    new.variant = state.variant
    new.n = state.n
    new.seed = state.seed
    new.rng = state.rng
    new.phase = state.phase
    new.turn = state.turn
    new.current = state.current
    new.first = state.first
    new.last_round = state.last_round
    new.turns_left = state.turns_left
    new.passes = state.passes
    new.log_base = state.log_base
    new.final = state.final
    new.deck = state.deck[:]
    new.discard = state.discard[:]
    new.faceup = state.faceup[:]
    new.ticket_deck = state.ticket_deck[:]
    new.boxed = state.boxed[:]
    new.setup_returned = state.setup_returned[:]
    new.owner = state.owner[:]
    new.station_at = state.station_at[:]
    new.trains = state.trains[:]
    new.stations_left = state.stations_left[:]
    new.scores = state.scores[:]
    new.depot_at = state.depot_at[:]
    new.depots_left = state.depots_left[:]
    new.depots_spent = state.depots_spent[:]
    new.hands = [v[:] for v in state.hands]
    new.tickets = [v[:] for v in state.tickets]
    new.offers = [None if v is None else v[:] for v in state.offers]
    new.routes_of = [v[:] for v in state.routes_of]
    new.stations_of = [v[:] for v in state.stations_of]
    new.depots_of = [v[:] for v in state.depots_of]
    new.warehouses = [v[:] for v in state.warehouses]
    new.cfg = state.cfg
    new.var = state.var
    new.board = state.board
    new.wild = state.wild
    new.card_names = state.card_names
    new.route_groups = state.route_groups
    new.single = state.single
    new.wh = state.wh
    new.options = dict(state.options)
    new.log = state.log[:]
    if state.tunnel is not None:
        t = state.tunnel
        new.tunnel = dict(
            t, played=t["played"][:], revealed=t["revealed"][:], warehouses=t["warehouses"][:]
        )
    else:
        new.tunnel = None
    new.edition_rules = state.edition_rules
    oc = state.open_cache  # still right for the copy while it is right for the original
    if oc is not None and oc[0] is state.owner and oc[1] == state.owner.count(-1):
        new.open_cache = [
            new.owner,
            oc[1],
            [None if g is None else g[:] for g in oc[2]],
            [None if c is None else c[:] for c in oc[3]],
        ]
    else:
        new.open_cache = None
    return new


_DECK_DRAW = {"type": "draw_card", "source": "deck"}


def _faceup_draw(state: GameState, i: int, second: bool) -> dict:
    """The draw of the ``i``-th face-up card that may be taken (``second``: no wild card)."""
    wild = state.wild
    for slot, c in enumerate(state.faceup):
        if c >= 0 and not (second and c == wild):
            if not i:
                color = state.card_names[c]
                return {"type": "draw_card", "source": "faceup", "slot": slot, "color": color}
            i -= 1
    raise IndexError("action index out of range")  # pragma: no cover - counted before


def _sample_turn(state: GameState, seat: int, rng) -> dict:
    """``sample_action`` in phase ``turn`` without Warehouses & Depots: ``_turn_count`` and
    ``_turn_action`` in one (the decision a playout makes most)."""
    faceup = state.faceup
    deck = 1 if state.deck or state.discard else 0
    nslots = len(faceup) - faceup.count(-1)
    tickets = 1 if state.ticket_deck else 0
    nclaim = _claim_total(state, seat)
    pays = free = 0
    if state.stations_left[seat] > 0:
        wild = state.wild
        pays = _pay_count(state.hands[seat], wild, station_cost(state, seat), 0, range(wild))
        if pays:
            free = state.station_at.count(-1)
    before = deck + nslots + tickets + nclaim + pays * free
    if not before:
        rng.randrange(1)
        return {"type": "pass"}
    i = rng.randrange(before)
    if i < deck:
        return _DECK_DRAW.copy()
    i -= deck
    if i < nslots:
        return _faceup_draw(state, i, False)
    i -= nslots
    if i < tickets:
        return {"type": "draw_tickets"}
    i -= tickets
    if i < nclaim:
        wild = state.wild
        length, ferry, color, members, npay, i = _claim_count(state, seat, i)
        r, p = divmod(i, npay)
        colors = range(wild) if color < 0 else (color,)
        c, k = options(state.hands[seat], wild, length, ferry, colors)[p]
        cards = _cards(state, c, k, length)
        return {"type": "claim_route", "route": members[r][1], "cards": cards}
    return _station_at(state, seat, station_options(state, seat), i - nclaim)


def sample_action(state: GameState, seat, rng) -> dict | None:
    """``rng.choice(legal_actions(state, seat))`` without the list: the same action, the same
    rng use (one ``rng.randrange(n)``); ``None`` (no rng use) when there is no legal action."""
    if not _is_current(state, seat):
        return None
    phase = state.phase
    if phase == phases.TURN:
        if not state.wh:
            return _sample_turn(state, seat, rng)
        counted = _turn_count(state, seat)
        return _turn_action(state, seat, counted, rng.randrange(sum(counted[3:])))
    if phase == phases.DRAW2:
        faceup = state.faceup
        wild = state.wild
        deck = 1 if state.deck or state.discard or (state.wh and blind_count(state)) else 0
        n = deck + len(faceup) - faceup.count(-1) - faceup.count(wild)
        if not n:
            return None
        i = rng.randrange(n)
        return _DECK_DRAW.copy() if i < deck else _faceup_draw(state, i - deck, True)
    if phase == phases.TICKETS or phase == phases.SETUP:
        return _keep_sample(state, seat, rng)
    actions = legal_actions(state, seat)
    return actions[rng.randrange(len(actions))] if actions else None


def _keep_sample(state: GameState, seat: int, rng) -> dict | None:
    """``sample_action`` for a ticket choice: the kept subsets of ``keep_actions``, in its
    order (by size, then ``combinations`` order), without checking each one."""
    offer = state.offers[seat]
    k = len(offer)
    if state.phase == phases.TICKETS:  # in play: every subset of at least ``needed``
        needed = min(state.var.draw_min_keep, k)
        sizes = range(needed, k + 1)
        i = rng.randrange(sum(comb(k, size) for size in sizes))
        for size in sizes:
            n = comb(k, size)
            if i < n:
                kept = next(islice(combinations(offer, size), i, None))
                return {"type": "keep_tickets", "tickets": ticket_ids(state, kept)}
            i -= n
    tickets = state.board.tickets
    key = (
        state.ruleset,
        state.variant,
        tuple(tickets[t].kind == "long" for t in offer),
        sum(1 for t in state.tickets[seat] if tickets[t].kind == "long"),
    )
    subsets = _SETUP_KEEPS.get(key)
    if subsets is None:  # the same for every offer of the same shape: checked once
        subsets = _SETUP_KEEPS[key] = [
            kept
            for size in range(k + 1)
            for kept in combinations(range(k), size)
            if _keep_problem(state, seat, offer, [offer[p] for p in kept]) is None
        ]
    if not subsets:
        return None
    kept = subsets[rng.randrange(len(subsets))]
    return {"type": "keep_tickets", "tickets": ticket_ids(state, [offer[p] for p in kept])}


# (ruleset, variant, offer's long-ticket flags, long tickets held) -> the allowed set-up
# choices as offer positions (``_keep_sample``)
_SETUP_KEEPS: dict[tuple, list] = {}


from .playout import playout  # noqa: E402 (it samples with this module's sample_action)

__all__ = ["action_at", "apply_trusted", "clone", "count_actions", "playout", "sample_action"]
