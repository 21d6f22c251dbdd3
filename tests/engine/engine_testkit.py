"""Builders and checks shared by the engine tests (no Django, no database).

``started()`` gives a game past the set-up ticket choice (and, with warehouses, past the
initial depots); ``arrange()`` lays out the train cards exactly (hands, face-up row, top of
the deck, discard, warehouses) while keeping every card of the ruleset's deck accounted
for; ``cards_total()`` counts every card wherever it is.
"""

from __future__ import annotations

import json
import random

import games.engine as E
from games.engine.rules.payment import card_index

NAMES = (*E.COLORS, "locomotive")
IDX = card_index(NAMES)
LOCO = 8


def started(
    seed=0, seats=4, variant="classic", first=0, *, ruleset="europe", options=None, depots=None,
    edition=E.RULES_EDITION,
):  # fmt: skip
    """A game in phase ``turn`` (every seat kept all its tickets), ``first`` to play.

    With warehouses, every seat also placed its initial depot: on ``depots[seat]`` (city
    names) or else on the first free city of the map. ``edition``: the rules edition.
    """
    s = E.new_game(
        ruleset=ruleset, variant=variant, seats=seats, seed=seed, options=options, edition=edition
    )
    while s.phase == "setup":  # Mega Europe: two choices per seat, long tickets first
        for seat in E.current_seats(s):
            offer = [s.board.tickets[i].id for i in s.offers[seat]]
            legal = E.legal_actions(s, seat)
            keep = {"type": "keep_tickets", "tickets": offer}
            if keep not in legal:  # Mega Europe: never both long tickets
                keep = max(legal, key=lambda a: len(a["tickets"]))
            E.apply_action(s, seat, keep)
    while s.phase == "depots":
        seat = s.current
        city = (depots or {}).get(seat) or E.legal_actions(s, seat)[0]["city"]
        E.apply_action(s, seat, {"type": "place_depot", "city": city})
    s.current = first
    return s


def counts(cards: dict, state=None) -> list:
    names = NAMES if state is None else state.card_names
    index = card_index(names)
    out = [0] * len(names)
    for name, k in cards.items():
        out[index[name]] += k
    return out


def deck_size(state) -> int:
    cfg = state.cfg
    return cfg.n_colors * cfg.cards_per_color + cfg.wild_cards


def arrange(
    state, hands=None, faceup=None, deck_top=(), discard=(), deck_rest=True, warehouses=None
):
    """Lay out every train card of the ruleset; ``deck_top[0]`` is drawn first.

    Unmentioned hands and warehouses are emptied; the remaining cards form the rest of the
    deck below ``deck_top`` (or go to the discard pile if ``deck_rest`` is False).
    """
    cfg = state.cfg
    names = state.card_names
    index = card_index(names)
    k = len(names)
    pool = [cfg.cards_per_color] * cfg.n_colors + [cfg.wild_cards]
    new_hands = [[0] * k for _ in range(state.n)]
    for seat, cards in (hands or {}).items():
        new_hands[seat] = counts(cards, state)
    new_wh = [[] for _ in range(state.n)]
    for seat, cards in (warehouses or {}).items():
        new_wh[seat] = [index[c] for c in cards]
    row = [index[c] if c is not None else -1 for c in (faceup or [])]
    top = [index[c] for c in deck_top]
    disc = [index[c] for c in discard]
    used = [c for h in new_hands for c, n in enumerate(h) for _ in range(n)]
    used += [c for w in new_wh for c in w]
    for c in used + [c for c in row if c >= 0] + top + disc:
        pool[c] -= 1
        assert pool[c] >= 0, f"too many {names[c]} cards"
    rest = [c for c in range(k) for _ in range(pool[c])]
    random.Random(1).shuffle(rest)
    state.hands = new_hands
    state.warehouses = new_wh
    state.faceup = row if faceup is not None else [-1] * cfg.faceup_size
    if deck_rest:
        state.deck = rest + top[::-1]
        state.discard = disc
    else:
        state.deck = top[::-1]
        state.discard = disc + rest
    return state


def hand(state, seat) -> dict:
    names = state.card_names
    return {names[i]: k for i, k in enumerate(state.hands[seat]) if k}


def cards_total(state) -> int:
    in_play = 0
    if state.tunnel is not None:
        in_play = sum(state.tunnel["played"]) + len(state.tunnel["revealed"])
    return (
        sum(map(sum, state.hands))
        + sum(1 for c in state.faceup if c >= 0)
        + len(state.deck)
        + len(state.discard)
        + sum(map(len, state.warehouses))
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
