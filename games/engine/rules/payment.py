"""Paying with train cards: parsing a ``cards`` dict, checking it, listing the options.

Terms:
- *cards dict*: the wire form of a payment, ``{"red": 3, "locomotive": 1}``: colour names
  (and the wild card's name) to positive ints.
- *counts*: the same payment as a hand-shaped list of ints by card index.
- *one-colour payment*: cards of at most one colour plus any number of wild cards
  (docs/rules.md 1.3.2: gray = one colour; 1.3.4 stations). Its *colour* is that colour's index,
  or the wild index when only wild cards are played.
- *payment option*: ``(colour, wilds)``: ``total - wilds`` cards of ``colour`` + ``wilds``
  wild cards; legal-action lists enumerate one action per option.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..errors import IllegalAction

if TYPE_CHECKING:
    from ..state import GameState


def parse_cards(state: GameState, raw) -> list:
    """Validate the shape of a cards dict; return counts. Raise ``malformed_action``."""
    if not isinstance(raw, dict) or not raw:
        raise IllegalAction("malformed_action", detail="'cards' must be a non-empty object")
    index = card_index(state.card_names)
    counts = [0] * len(index)
    for name, count in raw.items():
        i = index.get(name) if isinstance(name, str) else None
        if i is None:
            raise IllegalAction("malformed_action", detail=f"unknown card colour {name!r}")
        if type(count) is not int or count < 1:
            raise IllegalAction("malformed_action", detail="card counts must be positive integers")
        counts[i] = count
    return counts


def counts_of(state: GameState, raw: dict) -> tuple[list, int]:
    """(counts, colour) of a cards dict the engine itself listed (no checks: see
    ``actions.apply_trusted``); the colour as ``payment_color`` gives it."""
    index = card_index(state.card_names)
    wild = state.wild
    counts = [0] * (wild + 1)
    paid = wild
    for name, count in raw.items():
        i = index[name]
        counts[i] = count
        if i != wild:
            paid = i
    return counts, paid


@cache
def card_index(names: tuple) -> dict:
    """Colour name -> card index."""
    return {name: i for i, name in enumerate(names)}


def payment_color(state: GameState, counts) -> int:
    """The colour of a one-colour payment; raise ``mixed_colors`` otherwise."""
    wild = state.wild
    used = [i for i in range(wild) if counts[i]]
    if len(used) > 1:
        raise IllegalAction("mixed_colors")
    return used[0] if used else wild


def check_holds(state: GameState, seat: int, counts) -> None:
    """Raise ``insufficient_cards`` unless the seat's hand holds ``counts``."""
    hand = state.hands[seat]
    if any(k > hand[i] for i, k in enumerate(counts)):
        from .cards import card_dict

        raise IllegalAction("insufficient_cards", cards=card_dict(state, counts))


def pay(state: GameState, seat: int, counts) -> None:
    """Move ``counts`` from the seat's hand to the discard pile."""
    hand = state.hands[seat]
    discard = state.discard
    for i, k in enumerate(counts):
        if k:
            hand[i] -= k
            discard.extend([i] * k)


def options(hand, wild: int, total: int, min_wild: int, colors) -> list:
    """Every affordable payment option ``(colour, wilds)`` for ``total`` cards.

    ``colors``: the colour indexes allowed (one for a coloured route, all for gray). The
    all-wild option comes once, as ``(wild, total)``.
    """
    w = hand[wild]
    out: list[tuple[int, int]] = []
    if w < min_wild:
        return out
    for c in colors:
        h = hand[c]
        if h:
            lo = total - h
            if lo < min_wild:
                lo = min_wild
            hi = w if w < total else total - 1
            for k in range(lo, hi + 1):
                out.append((c, k))
    if w >= total:
        out.append((wild, total))
    return out
