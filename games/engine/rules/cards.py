"""Train cards: the deck, reshuffles, the face-up row and the "draw train cards" action.

Terms (docs/rules.md 1.3.1):
- *available*: cards that can still be drawn blind = deck + discard (the discard pile is
  shuffled into a new deck when the deck runs out: done lazily, when a card is needed).
- *refresh*: when ``faceup_wild_limit`` (3) or more face-up cards are wild, all face-up
  cards are discarded and new ones turned up. The row is checked after every card drawn
  (face up or blind), at the end of every turn and after every action (so after a warehouse
  reshuffle), so a row that a refilled deck could now clear does not wait for the end of the
  turn. Rules edition 1 (``editions``) checked it only when it was dealt, after a face-up
  card was taken and at the end of a turn (``recheck_faceup`` adds the other moments).
- *better row possible*: the cards a new row could come from (deck + discard + the current
  row) can make a row with fewer wild cards than the limit.
- *endless refresh* (docs/rules.md 1.3.1 Decision): a row that has just *changed* (dealt, a
  card taken and replaced, empty slots filled) and shows the limit is refreshed at least
  once; further refreshes, and any refresh of a row that has not changed, happen only while
  a better row is possible. So when none is, the row is refreshed once and then stays as it
  is until it changes again. A safety cap (``MAX_REFRESHES``) also stops it. Edition 1
  refreshed any row only while a better row was possible.
- *empty slot*: ``-1`` in ``faceup`` when no card was left to turn up; empty slots are
  refilled at the end of each turn once cards are available again (engine decision).
- *payment*: a hand-shaped list of counts played for a route, tunnel or station.
- *warehouse card* (Warehouses & Depots, docs/rules.md §2): the first ``draw_card`` of a turn first
  moves the top card of the deck, unseen, into the warehouse of the seat named by the
  action's ``warehouse`` key (any seat, the drawer's own included). **Decision**: it is due
  whenever a card can be drawn blind (``blind_count`` > 0), and then required; with no blind
  card the draw has no ``warehouse`` key. A deck draw needs a card left after the warehouse
  card; face-up draws are always possible.
- *warehouse reshuffle* (docs/rules.md §2): when the deck is empty, the discard pile is empty and
  at least one seat has no depot left beside its warehouse, all warehouses are emptied at
  once (right after the card that emptied the deck, or after the action that made the
  condition true), shuffled, and form the new deck. So with that condition, warehouse cards
  count as blind cards (``blind_count``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import phases
from ..errors import IllegalAction
from ..rng import shuffle

if TYPE_CHECKING:
    from ..state import GameState

MAX_REFRESHES = 1000


def card_dict(state: GameState, counts) -> dict:
    """Hand-shaped counts -> ``{colour name: count}`` (non-zero only), JSON-ready."""
    names = state.card_names
    return {names[i]: k for i, k in enumerate(counts) if k}


def card_names(state: GameState, cards) -> list:
    """Card indexes -> colour names."""
    names = state.card_names
    return [names[c] for c in cards]


def draw_blind(state: GameState) -> int:
    """Take the top card of the deck (reshuffling the discard if needed); -1 if none."""
    deck = state.deck
    if not deck:
        if state.discard:
            deck.extend(state.discard)
            state.discard.clear()
            state.rng = shuffle(state.rng, deck)
            state.log_event(None, "reshuffle", count=len(deck))
        elif not empty_warehouses(state):
            return -1
    card = deck.pop()
    if not deck and state.wh:
        empty_warehouses(state)
    return card


def warehouses_feed_deck(state: GameState) -> bool:
    """Whether the warehouses become the deck once deck and discard are empty (docs/rules.md §2)."""
    return state.wh and 0 in state.depots_left


def empty_warehouses(state: GameState) -> bool:
    """The warehouse reshuffle, if its condition holds now; True if it happened."""
    if state.deck or state.discard or not warehouses_feed_deck(state):
        return False
    counts = [len(w) for w in state.warehouses]
    if not any(counts):
        return False
    deck = state.deck
    for w in state.warehouses:
        deck.extend(w)
        w.clear()
    state.rng = shuffle(state.rng, deck)
    state.log_event(None, "warehouse_reshuffle", count=len(deck), warehouses=counts)
    return True


def blind_count(state: GameState) -> int:
    """Cards that can still be drawn blind: deck + discard (+ warehouses, see docstring)."""
    n = len(state.deck) + len(state.discard)
    if state.wh and 0 in state.depots_left:
        n += sum(map(len, state.warehouses))
    return n


def _refresh_possible(state: GameState) -> bool:
    """Whether a better row is possible (see the module docstring). The warehouses are left
    out even while they feed the deck: a new row is dealt from the deck and then from the
    discard pile, which holds the old row, so it never reaches them."""
    wild = state.wild
    row = [c for c in state.faceup if c >= 0]
    pool = len(state.deck) + len(state.discard) + len(row)
    pool_wild = state.deck.count(wild) + state.discard.count(wild) + row.count(wild)
    size = min(state.cfg.faceup_size, pool)
    return pool - pool_wild >= size - (state.cfg.faceup_wild_limit - 1)


def check_refresh(state: GameState, *, changed: bool) -> None:
    """Apply the 3-locomotive refresh rule to the face-up row (docs/rules.md 1.3.1).

    ``changed``: the row has just changed, so the rule clears it (if it shows the limit)
    at least once even when no better row can come (the endless-refresh Decision: once, then
    stop); otherwise it is cleared only while a better row is possible."""
    wild = state.wild
    limit = state.cfg.faceup_wild_limit
    faceup = state.faceup
    if faceup.count(wild) < limit:  # the common case, checked after every action: cheap
        return
    forced = changed and state.edition_rules.changed_row_refreshed
    for _ in range(MAX_REFRESHES):
        if faceup.count(wild) < limit or not (forced or _refresh_possible(state)):
            return
        forced = False
        old = [c for c in faceup if c >= 0]
        state.discard.extend(old)
        for i in range(len(faceup)):
            faceup[i] = draw_blind(state)
        state.log_event(
            None, "faceup_refresh", discarded=card_names(state, old), faceup=faceup_names(state)
        )


def recheck_faceup(state: GameState) -> None:
    """Check a row that has not changed, as the cards behind it may have (after a blind draw,
    after every action: docs/rules.md 1.3.1); from rules edition 2 on."""
    if state.edition_rules.faceup_checked_always:
        check_refresh(state, changed=False)


def faceup_names(state: GameState) -> list:
    names = state.card_names
    return [names[c] if c >= 0 else None for c in state.faceup]


def refill_faceup(state: GameState) -> None:
    """Fill empty face-up slots from the deck, then apply the refresh rule."""
    faceup = state.faceup
    filled = False
    if -1 in faceup:
        for i, c in enumerate(faceup):
            if c < 0:
                faceup[i] = draw_blind(state)
                filled = filled or faceup[i] >= 0
    check_refresh(state, changed=filled)


def can_draw(state: GameState, second: bool) -> bool:
    """Whether any card may be drawn (as the first or the second card of the action)."""
    if state.wh:
        blind = blind_count(state)
        if (blind if second else _deck_after_warehouse(state, blind)) > 0:
            return True
    elif state.deck or state.discard:
        return True
    wild = state.wild
    return any(c >= 0 and not (second and c == wild) for c in state.faceup)


def _deck_after_warehouse(state: GameState, blind: int) -> int:
    """Blind cards left for the hand once the warehouse card (if due) is put away."""
    if not state.wh or not blind or warehouses_feed_deck(state):
        return blind  # no warehouse card, or it stays drawable
    return blind - 1


def draw_actions(state: GameState, second: bool) -> list:
    """The legal draw_card actions (docs/rules.md 1.3.1; §2: with a ``warehouse`` per seat)."""
    out: list[dict] = []
    if not state.wh:
        blind = 0
        if state.deck or state.discard:
            out.append({"type": "draw_card", "source": "deck"})
    else:
        blind = blind_count(state)
        if (_deck_after_warehouse(state, blind) if not second else blind) > 0:
            out.append({"type": "draw_card", "source": "deck"})
    wild = state.wild
    names = state.card_names
    for slot, c in enumerate(state.faceup):
        if c >= 0 and not (second and c == wild):
            out.append({"type": "draw_card", "source": "faceup", "slot": slot, "color": names[c]})
    if state.wh and not second and blind:
        out = [dict(a, warehouse=w) for a in out for w in range(state.n)]
    return out


def _check_warehouse(state: GameState, action: dict, second: bool, blind: int) -> int:
    """The seat whose warehouse gets the warehouse card, or -1 if none is due."""
    target = action.get("warehouse")
    due = state.wh and not second and blind > 0
    if target is None:
        if due:
            raise IllegalAction("warehouse_required")
        return -1
    if not due:
        raise IllegalAction("warehouse_not_allowed")
    if not 0 <= target < state.n:
        raise IllegalAction("invalid_warehouse", seat=target)
    return target


def _validate_draw(state: GameState, action: dict, second: bool) -> tuple[int, int]:
    """Return (face-up slot or -1 for the deck, warehouse seat or -1); raise if illegal."""
    if state.wh:
        blind = blind_count(state)
        target = _check_warehouse(state, action, second, blind)
        if not second:
            blind = _deck_after_warehouse(state, blind)
    else:
        if "warehouse" in action:
            raise IllegalAction("warehouse_not_allowed")
        blind = len(state.deck) + len(state.discard)
        target = -1
    if action["source"] == "deck":
        if blind < 1:
            raise IllegalAction("deck_empty")
        return -1, target
    slot = action["slot"]
    if not 0 <= slot < len(state.faceup):
        raise IllegalAction("invalid_slot", slot=slot)
    card = state.faceup[slot]
    if card < 0:
        raise IllegalAction("empty_slot", slot=slot)
    names = state.card_names
    if "color" in action and action["color"] != names[card]:
        raise IllegalAction("faceup_mismatch", slot=slot, actual=names[card], color=action["color"])
    if second and card == state.wild:
        raise IllegalAction("second_locomotive")
    return slot, target


def apply_draw(state: GameState, seat: int, action: dict) -> bool:
    """Draw one card; return True if the turn ends (else the second draw follows)."""
    second = state.phase == phases.DRAW2
    slot, target = _validate_draw(state, action, second)
    return draw(state, seat, slot, target, second)


def draw(state: GameState, seat: int, slot: int, target: int, second: bool) -> bool:
    """``apply_draw`` after its checks: face-up ``slot`` (-1: the deck), the warehouse card to
    seat ``target`` (-1: none due); ``second``: the action's second card."""
    names = state.card_names
    if target >= 0:
        state.log_event(seat, "warehouse_card", warehouse=target)
        state.warehouses[target].append(draw_blind(state))
    # the log entry is written out (as ``state.log_event`` would make it) and appended
    # before the card is drawn, which may log a reshuffle: this is a playout's commonest step
    log = state.log
    faceup = state.faceup
    deck = state.deck
    wild = state.wild
    if slot < 0:
        entry = {
            "seq": state.log_base + len(log),
            "seat": seat,
            "type": "draw_card",
            "source": "deck",
        }
        log.append(entry)
        card = deck.pop() if len(deck) > 1 or (deck and not state.wh) else draw_blind(state)
        entry["secret"] = {"color": names[card]}
        # the row is as it was, but the cards behind it may not be (a warehouse reshuffle
        # refilled the deck): it is checked before the second card (docs/rules.md 1.3.1)
        if faceup.count(wild) >= state.cfg.faceup_wild_limit:
            recheck_faceup(state)
    else:
        card = faceup[slot]
        entry = {
            "seq": state.log_base + len(log),
            "seat": seat,
            "type": "draw_card",
            "source": "faceup",
            "slot": slot,
            "color": names[card],
        }
        log.append(entry)
        # replaced at once (docs/rules.md 1.3.1)
        new = deck.pop() if len(deck) > 1 or (deck and not state.wh) else draw_blind(state)
        faceup[slot] = new
        entry["replacement"] = names[new] if new >= 0 else None
        if faceup.count(wild) >= state.cfg.faceup_wild_limit:  # check_refresh's cheap case
            check_refresh(state, changed=True)
    state.hands[seat][card] += 1
    # a face-up wild taken first ends the action; so does the second card, or having
    # no card left to take (the "only 1 card available" case)
    if second or (slot >= 0 and card == wild):
        return True
    if not (state.deck or state.discard or can_draw(state, True)):  # the common case first
        return True
    state.phase = phases.DRAW2
    return False
