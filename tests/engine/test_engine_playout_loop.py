"""``search.playout(state, rng)`` is the sampled loop in one call.

The sampled loop: pick the deciding seat (``rng.choice`` among several, in set-up), then
``apply_trusted(state, seat, sample_action(state, seat, rng))``, until the game is over. From
the same state and the same ``random.Random`` seed, ``playout`` ends in the very same state:
every serialised field, the log included, and the rng left in the same state (it drew the
same numbers). Stopped after ``max_steps`` decisions, it leaves the state the loop leaves
after as many, and the loop can take over from there (and from a clone).

Games: every Europe variant at 2-5 players, with and without Warehouses & Depots (played
the sampled way throughout), and New York at 2-4 players.
"""

import random

import pytest

import games.engine as E
from games.engine.search import apply_trusted, clone, playout, sample_action

CONFIGS = [
    pytest.param({"ruleset": "europe", "variant": v, "seats": n, "options": o}, id=f"{v}-{n}{t}")
    for v in E.VARIANTS["europe"]
    for n in (2, 3, 4, 5)
    for o, t in (({}, ""), ({"warehouses": True}, "-wh"))
] + [pytest.param({"ruleset": "new_york", "seats": n}, id=f"new_york-{n}") for n in (2, 3, 4)]


def sampled_loop(state, rng, max_steps=None) -> int:
    steps = 0
    while state.phase != "over" and (max_steps is None or steps < max_steps):
        seats = E.current_seats(state)
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        apply_trusted(state, seat, sample_action(state, seat, rng))
        steps += 1
    return steps


@pytest.mark.parametrize("params", CONFIGS)
def test_playout_plays_the_sampled_loops_game(params):
    for seed in range(3):
        looped, rng_looped = E.new_game(seed=seed, **params), random.Random(seed)
        played, rng_played = E.new_game(seed=seed, **params), random.Random(seed)
        steps = sampled_loop(looped, rng_looped)
        assert playout(played, rng_played) == steps
        assert E.is_terminal(played)
        assert E.to_json(played) == E.to_json(looped)  # every field, the log too
        assert rng_played.getstate() == rng_looped.getstate()


@pytest.mark.parametrize("params", CONFIGS[::5])
def test_a_stopped_playout_leaves_the_loops_state(params):
    seed = 7
    looped, rng_looped = E.new_game(seed=seed, **params), random.Random(seed)
    played, rng_played = E.new_game(seed=seed, **params), random.Random(seed)
    for chunk in (1, 5, 40, 3, 100):
        assert playout(played, rng_played, max_steps=chunk) == sampled_loop(
            looped, rng_looped, chunk
        )
        assert E.to_json(played) == E.to_json(looped)
    copy, rng_copy = clone(played), random.Random()
    rng_copy.setstate(rng_played.getstate())
    other, rng_other = clone(played), random.Random()
    rng_other.setstate(rng_played.getstate())
    playout(played, rng_played)
    sampled_loop(copy, rng_copy)  # a clone mid-game, its bookkeeping copied, plays on alike
    playout(other, rng_other)
    sampled_loop(looped, rng_looped)
    final = E.to_json(looped)
    assert E.to_json(played) == final == E.to_json(copy) == E.to_json(other)


def test_playout_takes_any_rng_with_randrange_and_choice():
    class Counting(random.Random):
        """A subclass: ``playout`` goes through its public ``randrange``."""

        calls = 0

        def randrange(self, *args, **kwargs):
            Counting.calls += 1
            return super().randrange(*args, **kwargs)

    looped = E.new_game(seed=3, seats=4)
    played = E.new_game(seed=3, seats=4)
    steps = sampled_loop(looped, random.Random(3))
    assert playout(played, Counting(3)) == steps
    assert E.to_json(played) == E.to_json(looped)
    assert Counting.calls == steps  # one randrange per decision
