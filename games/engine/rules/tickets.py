"""Destination tickets: the set-up choice and the "draw destination tickets" action.

Terms (docs/rules.md 1.2 step 5, 1.3.3, 1.8):
- *offer*: the tickets a seat is choosing from (``state.offers[seat]``).
- *set-up choice*: every seat with an offer decides at the same time (phase ``setup``); the
  variant's keep rule applies (at least ``setup_min_keep``; Mega Europe: at most one long,
  and 2 regular if a long one is kept, else 3). Returns go out of the game (``box``) or are
  collected, shuffled together when everyone has chosen, and put under the ticket deck
  (``bottom``: Mega Europe, Big Cities). Long tickets returned always leave the game.
- *two-step set-up* (``setup_long_first``: Mega Europe, docs/rules.md 1.8; rules edition 2
  on): the seat's first offer holds only its long tickets (keep 0 or 1: ``keep_tickets``
  with ``[]`` is legal); once it keeps, its regular tickets are dealt from the top of the
  ticket deck as its second offer, whose minimum depends on the long tickets it already
  holds. Each seat goes on at its own pace; the set-up ends when every seat has made its last
  choice. In edition 1 the offer holds the long and regular tickets together: one choice
  under the same keep rule.
- *draw*: the top ``draw_count`` tickets (fewer if fewer are left); keep at least
  ``draw_min_keep``; returns go to the bottom of the ticket deck in the offered order.
- *ticket id*: see ``games.engine.mapdata`` (``"E12"``, ``"X7"``...).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from .. import phases
from ..errors import IllegalAction
from . import opening

if TYPE_CHECKING:
    from ..state import GameState


def ticket_ids(state: GameState, indexes) -> list:
    tickets = state.board.tickets
    return [tickets[i].id for i in indexes]


def _keep_problem(state: GameState, seat, offer, kept) -> tuple | None:
    """(reason code, params) if keeping ``kept`` out of ``offer`` breaks the keep rule."""
    var = state.var
    if state.phase != phases.SETUP:
        needed = min(var.draw_min_keep, len(offer))
        return ("too_few_tickets", {"needed": needed}) if len(kept) < needed else None
    tickets = state.board.tickets
    kept_long = sum(1 for i in kept if tickets[i].kind == "long")
    # long tickets kept in an earlier step count too (Mega Europe: one choice after another)
    n_long = kept_long + sum(1 for i in state.tickets[seat] if tickets[i].kind == "long")
    if len(kept) < min(var.setup_min_keep, len(offer)):
        return "too_few_tickets", {"needed": var.setup_min_keep}
    if var.setup_max_long is not None and n_long > var.setup_max_long:
        return "too_many_long", {"allowed": var.setup_max_long}
    offered_regular = sum(1 for i in offer if tickets[i].kind != "long")
    need = var.setup_min_regular_with_long if n_long else var.setup_min_regular_without_long
    need = min(need, offered_regular)
    if len(kept) - kept_long < need:
        return "too_few_tickets", {"needed": need + kept_long}
    return None


def keep_actions(state: GameState, seat: int) -> list:
    """Every allowed subset of the seat's offer, as keep_tickets actions (the empty one too
    where the rule allows it: Mega Europe's long tickets)."""
    offer = state.offers[seat]
    out = []
    for size in range(len(offer) + 1):
        for kept in combinations(offer, size):
            if _keep_problem(state, seat, offer, kept) is None:
                out.append({"type": "keep_tickets", "tickets": ticket_ids(state, kept)})
    return out


def _parse_choice(state: GameState, seat: int, chosen) -> list:
    offer = state.offers[seat]
    index = state.board.ticket_index
    picked = set()
    for tid in chosen:
        i = index.get(tid)
        if i is None or i not in offer or i in picked:
            raise IllegalAction("invalid_ticket_choice", tickets=chosen)
        picked.add(i)
    return [i for i in offer if i in picked]  # offered order


def apply_keep(state: GameState, seat: int, chosen: list) -> bool:
    """Keep tickets (set-up or in play); return True if the turn ends."""
    kept = _parse_choice(state, seat, chosen)
    offer = state.offers[seat]
    problem = _keep_problem(state, seat, offer, kept)
    if problem:
        raise IllegalAction(problem[0], **problem[1])
    return keep(state, seat, kept)


def keep(state: GameState, seat: int, kept: list) -> bool:
    """``apply_keep`` after its checks: ``kept``, ticket indexes in offered order."""
    offer = state.offers[seat]
    returned = [i for i in offer if i not in kept]
    state.tickets[seat].extend(kept)
    state.offers[seat] = None
    state.log_event(
        seat,
        "keep_tickets",
        secret={"tickets": ticket_ids(state, kept), "returned": ticket_ids(state, returned)},
        kept_count=len(kept),
        returned_count=len(returned),
    )
    if state.phase != phases.SETUP:
        state.ticket_deck[:0] = returned[::-1]  # first returned ends up at the very bottom
        return True
    _return_setup(state, returned)
    if long_tickets_first(state) and _long_step(state, offer):
        _deal_regular(state, seat)
    elif all(o is None for o in state.offers):
        opening.tickets_chosen(state)
    return False


def long_tickets_first(state: GameState) -> bool:
    """Whether the set-up deals the long tickets first, the regular ones after the long choice
    (the two-step set-up: the variant has it, and the game's rules edition plays it)."""
    return state.var.setup_long_first and state.edition_rules.long_tickets_first


def _long_step(state: GameState, offer) -> bool:
    """Whether ``offer`` is the first of two set-up steps: long tickets only."""
    tickets = state.board.tickets
    return bool(offer) and all(tickets[i].kind == "long" for i in offer)


def _deal_regular(state: GameState, seat: int) -> None:
    """Mega Europe's second set-up step: the seat's regular tickets, from the top of the
    ticket deck (docs/rules.md 1.8)."""
    k = min(state.var.setup_regular, len(state.ticket_deck))
    offer = [state.ticket_deck.pop() for _ in range(k)]
    state.offers[seat] = offer
    state.log_event(seat, "deal_tickets", secret={"tickets": ticket_ids(state, offer)}, count=k)


def _return_setup(state: GameState, returned: list) -> None:
    tickets = state.board.tickets
    for i in returned:
        if state.var.setup_return == "bottom" and tickets[i].kind != "long":
            state.setup_returned.append(i)
        else:
            state.boxed.append(i)


def apply_draw_tickets(state: GameState, seat: int) -> bool:
    if not state.ticket_deck:
        raise IllegalAction("ticket_deck_empty")
    k = min(state.var.draw_count, len(state.ticket_deck))
    offer = [state.ticket_deck.pop() for _ in range(k)]
    state.offers[seat] = offer
    state.phase = phases.TICKETS
    state.log_event(seat, "draw_tickets", secret={"tickets": ticket_ids(state, offer)}, count=k)
    return False
