"""The playout path (``sample_action`` then ``apply_trusted``) plays the very same games as the
public one (``rng.choice(legal_actions(...))`` then ``apply_action``).

- Two copies of each game, one per path, from the same seed and the same ``random.Random``
  seed, compared after every step: every serialised field, the log entries made by the step,
  and at the end the whole ``to_json`` (the benchmark ``benchmarks/engine.py`` checks the same
  on its games).
- What the trusted apply is given is always legal: every sampled action is in the legal list
  (so the checks ``apply_trusted`` skips could never have refused it), and the public
  ``apply_action`` still refuses illegal variants of it, changing nothing.

Games: every Europe variant at 2-5 players, with and without Warehouses & Depots, and New
York at 2-4 players, played to the end by uniformly random decisions.
"""

import random

import pytest

import games.engine as E
from games.engine.search import apply_trusted, sample_action
from games.engine.state import FIELDS

CONFIGS = [
    pytest.param({"ruleset": "europe", "variant": v, "seats": n, "options": o}, id=f"{v}-{n}{t}")
    for v in E.VARIANTS["europe"]
    for n in (2, 3, 4, 5)
    for o, t in (({}, ""), ({"warehouses": True}, "-wh"))
] + [
    pytest.param({"ruleset": "new_york", "seats": n}, id=f"new_york-{n}-{seed}")
    for n in (2, 3, 4)
    for seed in (0, 1)
]

STATE_FIELDS = [f for f in FIELDS if f != "log"]


def pick_seat(state, rng):
    seats = E.current_seats(state)
    return seats[0] if len(seats) == 1 else rng.choice(seats)


def assert_same(public, fast, logged: int) -> int:
    """The two states are equal field by field, the log from entry ``logged`` on too; return
    the log's length."""
    for name in STATE_FIELDS:
        assert getattr(fast, name) == getattr(public, name), name
    assert fast.log[logged:] == public.log[logged:]
    assert len(fast.log) == len(public.log)
    return len(public.log)


def illegal_variants(state, action):
    """Actions near ``action`` that are not legal now (a route taken, a card too many...)."""
    out = [dict(action, type="pass")] if action["type"] != "pass" else []
    if "cards" in action:
        cards = dict(action["cards"])
        name = next(iter(cards))
        out.append(dict(action, cards={**cards, name: cards[name] + 50}))
    if action["type"] == "claim_route":
        taken = [state.board.routes[i].id for i, o in enumerate(state.owner) if o != -1]
        if taken:
            out.append(dict(action, route=taken[0]))
    if action["type"] == "draw_card":
        out.append(dict(action, slot=99, source="faceup"))
    return out


@pytest.mark.parametrize("params", CONFIGS)
def test_the_playout_path_plays_the_same_game(params):
    seed = sum(map(ord, str(params))) + 11
    listed, sampled = random.Random(seed), random.Random(seed)
    probe = random.Random(seed + 1)
    public = E.new_game(seed=seed, **params)
    fast = E.new_game(seed=seed, **params)
    logged = assert_same(public, fast, 0)
    steps = 0
    while not E.is_terminal(public):
        seat = pick_seat(public, listed)
        assert pick_seat(fast, sampled) == seat
        legal = E.legal_actions(public, seat)
        action = sample_action(fast, seat, sampled)
        assert action == listed.choice(legal)
        assert action in legal  # all apply_trusted is ever given
        if probe.random() < 0.2:
            before = E.to_json(public)
            for bad in illegal_variants(public, action):
                if bad not in legal:
                    with pytest.raises(E.IllegalAction):
                        E.apply_action(public, seat, bad)
            assert E.to_json(public) == before  # refused, nothing changed
        E.apply_action(public, seat, action)
        apply_trusted(fast, seat, action)
        logged = assert_same(public, fast, logged)
        steps += 1
    assert steps > 20
    assert E.is_terminal(fast)
    assert E.to_json(fast) == E.to_json(public)
    assert E.final_result(fast) == E.final_result(public)


def test_trusted_apply_takes_any_legal_form_of_an_action():
    """Key order, a face-up draw without its ``color``, tickets and warehouses in another
    order: ``apply_action`` accepts them, and ``apply_trusted`` does the same with them."""
    rng = random.Random(3)
    for seed in range(6):
        params = {"ruleset": "europe", "variant": "classic", "seats": 3}
        if seed % 2:
            params["options"] = {"warehouses": True}
        public = E.new_game(seed=seed, **params)
        fast = E.new_game(seed=seed, **params)
        while not E.is_terminal(public):
            seat = pick_seat(public, rng)
            action = rng.choice(E.legal_actions(public, seat))
            other = dict(reversed(list(action.items())))
            if "tickets" in other:
                other["tickets"] = other["tickets"][::-1]
            if "warehouses" in other:
                other["warehouses"] = other["warehouses"][::-1]
            if other.get("source") == "faceup":
                del other["color"]
            E.apply_action(public, seat, other)
            apply_trusted(fast, seat, other)
        assert E.to_json(fast) == E.to_json(public)
