"""The search primitives (``games.engine.search``) and the open-route bookkeeping.

- ``sample_action(state, seat, rng)`` is ``rng.choice(legal_actions(state, seat))``: the same
  action from the same rng state, so a game played with either is the same game; it is
  always legal; ``count_actions``/``action_at`` agree with the list.
- ``clone`` gives an independent copy: playing either never changes the other, and a clone
  plays on exactly like a ``from_json(to_json(s))`` copy.
- ``rules.routes.open_groups`` and ``open_counts`` (kept up to date by ``place``) equal a
  fresh computation after every step, for every seat; so does the claim count by colour
  (``_claim_total``) the count by group (``_claim_count``).

Games: every Europe variant at 2-5 players, with and without Warehouses & Depots, and New
York at 2-4 players, played to the end by uniformly random decisions.
"""

import random

import pytest

import games.engine as E
from games.engine.counting import _claim_count, _claim_total
from games.engine.rules.routes import compute_open_groups, open_counts, open_groups
from games.engine.search import action_at, clone, count_actions, sample_action
from games.engine.state import DERIVED, FIELDS

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


def pick_seat(state, rng):
    seats = E.current_seats(state)
    return seats[0] if len(seats) == 1 else rng.choice(seats)


def check_open_groups(state):
    for seat in range(state.n):
        fresh = compute_open_groups(state, seat)
        assert open_groups(state, seat) == fresh
        assert open_counts(state, seat) == [len(members) for members in fresh]
        assert _claim_total(state, seat) == _claim_count(state, seat)


@pytest.mark.parametrize("params", CONFIGS)
def test_sample_action_is_a_uniform_choice_from_the_legal_list(params):
    seed = sum(map(ord, str(params)))
    listed, sampled = random.Random(seed), random.Random(seed)
    probe = random.Random(seed + 1)
    state = E.new_game(seed=seed, **params)
    steps = 0
    while not E.is_terminal(state):
        seat = pick_seat(state, listed)
        assert pick_seat(state, sampled) == seat
        for other in range(state.n):
            if other not in E.current_seats(state):
                assert count_actions(state, other) == 0
                assert sample_action(state, other, sampled) is None
        legal = E.legal_actions(state, seat)
        n = len(legal)
        assert count_actions(state, seat) == n
        for i in {0, n - 1, n // 2, probe.randrange(n), probe.randrange(n)}:
            assert action_at(state, seat, i) == legal[i]
        with pytest.raises(IndexError):
            action_at(state, seat, n)
        chosen = sample_action(state, seat, sampled)
        assert chosen == listed.choice(legal)
        assert chosen in legal
        E.apply_action(state, seat, chosen)  # legal: never raises
        check_open_groups(state)
        steps += 1
    assert steps > 20
    assert E.final_result(state)["players"]


@pytest.mark.parametrize("params", CONFIGS[::5])
def test_clone_is_independent(params):
    seed = 7
    rng = random.Random(seed)
    state = E.new_game(seed=seed, **params)
    copies = 0
    while not E.is_terminal(state):
        seat = pick_seat(state, rng)
        if rng.random() < 0.1 or state.phase == "tunnel":
            before = E.to_json(state)
            twin = clone(state)
            assert E.to_json(twin) == before
            # the clone plays on exactly like a JSON copy, and leaves the original alone
            via_json = E.from_json(before)
            play_seed = rng.randrange(1 << 30)
            for copy in (twin, via_json):
                r = random.Random(play_seed)
                for _ in range(40):
                    if E.is_terminal(copy):
                        break
                    s = pick_seat(copy, r)
                    E.apply_action(copy, s, sample_action(copy, s, r))
                check_open_groups(copy)
            assert E.to_json(twin) == E.to_json(via_json)
            assert E.to_json(state) == before
            # and the original plays on without touching a fresh clone
            fresh = clone(state)
            snapshot = E.to_json(fresh)
            E.apply_action(state, seat, sample_action(state, seat, rng))
            assert E.to_json(fresh) == snapshot
            check_open_groups(state)
            copies += 1
            continue
        E.apply_action(state, seat, sample_action(state, seat, rng))
    assert copies >= 2


def test_clone_sets_every_slot_and_shares_no_mutable_field():
    state = E.new_game(seed=2, seats=4, options={"warehouses": True})
    rng = random.Random(2)
    for _ in range(150):
        seat = pick_seat(state, rng)
        E.apply_action(state, seat, sample_action(state, seat, rng))
    twin = clone(state)
    for name in (*FIELDS, *DERIVED):  # every slot (a compiled class has no __slots__)
        value = getattr(twin, name)  # set (AttributeError otherwise)
        if isinstance(value, list | dict) and name not in ("final", "open_cache"):
            assert value is not getattr(state, name), name
            if name == "log":  # entries never change once an action has returned: shared
                continue
            for a, b in zip(value, getattr(state, name), strict=True):
                assert not (isinstance(a, list | dict) and a is b), name


def test_a_state_put_together_field_by_field_is_not_misread():
    """The bookkeeping is trusted only for the ``owner`` list it was made for."""
    state = E.new_game(seed=3, seats=4)
    rng = random.Random(3)
    while state.phase != "turn":
        seat = pick_seat(state, rng)
        E.apply_action(state, seat, sample_action(state, seat, rng))
    open_groups(state, 0)  # fill the cache
    owner = [-1] * len(state.owner)
    owner[0] = 1  # a route claimed behind the cache's back, in a new list
    state.owner = owner
    check_open_groups(state)
    state.owner[1] = 2  # and in place
    check_open_groups(state)
    assert count_actions(state, state.current) == len(E.legal_actions(state, state.current))


def test_the_serialised_form_holds_no_bookkeeping():
    state = E.new_game(seed=5, seats=3)
    rng = random.Random(5)
    for _ in range(60):
        seat = pick_seat(state, rng)
        E.apply_action(state, seat, sample_action(state, seat, rng))
    text = E.to_json(state)
    loaded = E.from_json(text)
    assert loaded.open_cache is None and E.to_json(loaded) == text
    assert E.legal_actions(loaded, loaded.current) == E.legal_actions(state, state.current)


def test_bad_indexes_and_seats():
    state = E.new_game(seed=1, seats=2)
    seat = E.current_seats(state)[0]
    n = count_actions(state, seat)
    assert n == len(E.legal_actions(state, seat)) > 0
    for bad in (-1, n, True, "0"):
        with pytest.raises(IndexError):
            action_at(state, seat, bad)
    for bad in (5, -1, "0", None):
        assert count_actions(state, bad) == 0
        assert sample_action(state, bad, random.Random(1)) is None
        with pytest.raises(IndexError):
            action_at(state, bad, 0)
