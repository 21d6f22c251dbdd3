"""Builders and checks shared by the engine tests (no Django, no database).

``started()`` gives a game past the set-up ticket choice; ``arrange()`` lays out the train
cards exactly (hands, face-up row, top of the deck, discard) while keeping all 110 cards
accounted for; ``cards_total()`` counts every card wherever it is.
"""

from __future__ import annotations

import json
import random

import games.engine as E
from games.engine.rules.payment import card_index

NAMES = (*E.COLORS, "locomotive")
IDX = card_index(NAMES)
LOCO = 8


def started(seed=0, seats=4, variant="classic", first=0):
    """A game in phase ``turn`` (every seat kept all its tickets), ``first`` to play."""
    s = E.new_game(variant=variant, seats=seats, seed=seed)
    for seat in range(seats):
        offer = [s.board.tickets[i].id for i in s.offers[seat]]
        legal = E.legal_actions(s, seat)
        keep = {"type": "keep_tickets", "tickets": offer}
        if keep not in legal:  # Mega Europe: never both long tickets
            keep = max(legal, key=lambda a: len(a["tickets"]))
        E.apply_action(s, seat, keep)
    s.current = first
    return s


def counts(cards: dict) -> list:
    out = [0] * 9
    for name, k in cards.items():
        out[IDX[name]] += k
    return out


def arrange(state, hands=None, faceup=None, deck_top=(), discard=(), deck_rest=True):
    """Lay out the 110 train cards; ``deck_top[0]`` is drawn first.

    Unmentioned hands are emptied; the remaining cards form the rest of the deck below
    ``deck_top`` (or go to the discard pile if ``deck_rest`` is False).
    """
    pool = [12] * 8 + [14]
    new_hands = [[0] * 9 for _ in range(state.n)]
    for seat, cards in (hands or {}).items():
        new_hands[seat] = counts(cards)
    row = [IDX[c] if c is not None else -1 for c in (faceup or [])]
    top = [IDX[c] for c in deck_top]
    disc = [IDX[c] for c in discard]
    used = [c for h in new_hands for c, k in enumerate(h) for _ in range(k)]
    for c in used + [c for c in row if c >= 0] + top + disc:
        pool[c] -= 1
        assert pool[c] >= 0, f"too many {NAMES[c]} cards"
    rest = [c for c in range(9) for _ in range(pool[c])]
    random.Random(1).shuffle(rest)
    state.hands = new_hands
    state.faceup = row if faceup is not None else [-1] * 5
    if deck_rest:
        state.deck = rest + top[::-1]
        state.discard = disc
    else:
        state.deck = top[::-1]
        state.discard = disc + rest
    return state


def hand(state, seat) -> dict:
    return {NAMES[i]: k for i, k in enumerate(state.hands[seat]) if k}


def cards_total(state) -> int:
    in_play = 0
    if state.tunnel is not None:
        in_play = sum(state.tunnel["played"]) + len(state.tunnel["revealed"])
    return (
        sum(map(sum, state.hands))
        + sum(1 for c in state.faceup if c >= 0)
        + len(state.deck)
        + len(state.discard)
        + in_play
    )


def route_id(state, a, b, color=None):
    """The id of the route between cities a and b (of ``color`` for double routes)."""
    found = [
        r.id
        for r in state.board.routes
        if {state.board.cities[r.a].name, state.board.cities[r.b].name} == {a, b}
        and (color is None or r.color == color)
    ]
    assert len(found) == 1, found
    return found[0]


def give_routes(state, seat, ids):
    """Give routes to a seat as if claimed (cars and score included)."""
    from games.engine.rules.routes import place

    for rid in ids:
        place(state, seat, state.board.route_index[rid])


def snapshot(state) -> str:
    return E.to_json(state)


def dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True)
