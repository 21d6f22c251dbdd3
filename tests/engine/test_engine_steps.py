"""``engine.step``: an action applied, and what it did (a new decision clock, game over, who
decides next), so that hosts never compare the engine's fields themselves."""

import random

import pytest

import games.engine as E

GAMES = [
    ("europe", "classic", 4, {}),
    ("europe", "mega_europe", 3, {}),
    ("europe", "classic", 3, {"warehouses": True}),
    ("new_york", "standard", 2, {}),
]


@pytest.mark.parametrize(("ruleset", "variant", "seats", "options"), GAMES)
def test_a_step_says_what_it_did_through_a_whole_game(ruleset, variant, seats, options):
    rng = random.Random(11)
    state = E.new_game(ruleset=ruleset, variant=variant, seats=seats, seed=5, options=options)
    restarts = 0
    while not E.is_terminal(state):
        seat = E.current_seats(state)[0]
        turn_before = state.turn
        step = E.step(state, seat, rng.choice(E.legal_actions(state, seat)))
        assert step.deciding == tuple(E.current_seats(state))
        assert step.game_over == E.is_terminal(state)
        if step.clock_restarts:
            restarts += 1
            assert not step.game_over
            assert state.phase in ("turn", "depots")
        if state.phase == "turn" and state.turn != turn_before:
            assert step.clock_restarts  # every new turn starts a clock
    assert restarts >= state.turn


def test_the_parts_of_one_turn_share_its_clock():
    state = E.new_game(seats=2, seed=3)
    first = [E.step(state, seat, E.legal_actions(state, seat)[0]) for seat in (0, 1)]
    # Choosing tickets at set-up is simultaneous: the first seat done starts nothing.
    assert [s.clock_restarts for s in first] == [False, True]
    seat = E.current_seats(state)[0]
    blind = {"type": "draw_card", "source": "deck"}
    assert E.step(state, seat, blind) == E.Step(False, False, (seat,))  # the second card next
    second = E.step(state, seat, blind)
    assert second.clock_restarts and second.deciding == (1 - seat,)


def test_an_illegal_step_changes_nothing_and_says_nothing():
    state = E.new_game(seats=2, seed=3)
    before = E.to_json(state)
    with pytest.raises(E.IllegalAction):
        E.step(state, 0, {"type": "pass"})
    assert E.to_json(state) == before
