"""The expert's rollout policy (``bots.rollout``): every action it plays is legal, in every
rule set and phase it meets, its plans stay right as routes are taken, and a playout ends
the game; and the worlds it plays in guess the other seats' tickets from their routes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import games.engine as E
from games.engine.bots import expert_world, planner, rollout
from games.engine.bots.hard import HARD
from games.engine.bots.knowledge import read
from tests.engine.test_expert_bot import RULESETS, play


def checked_play_out(state, rng) -> set:
    """``rollout.play_out`` step by step, each action checked against ``legal_actions`` and
    each plan against the board; returns the phases met."""
    plans = rollout.plans_for(state)
    met = set()
    steps = 0
    while not E.is_terminal(state):
        who = E.current_seats(state)[0]
        action = rollout.choose(state, who, plans[who], rng)
        assert action in E.legal_actions(state, who), (state.phase, action)
        met.add(state.phase)
        E.apply_action(state, who, action)
        rollout.after(state, plans, who, action)
        for plan in plans:
            assert all(state.owner[r] == -1 for r in plan)
        steps += 1
        assert steps < rollout.MAX_STEPS
    return met


@pytest.mark.parametrize(("ruleset", "variant", "options", "seats"), RULESETS)
def test_the_rollout_policy_plays_legal_moves_to_the_end(ruleset, variant, options, seats):
    met = set()
    for seed in range(3):
        state = E.new_game(
            ruleset=ruleset, variant=variant, seats=seats, seed=seed, options=options
        )
        rng = random.Random(seed)
        while state.phase in ("setup", "depots"):  # the set-up by random legal choices
            seat = E.current_seats(state)[0]
            E.apply_action(state, seat, rng.choice(E.legal_actions(state, seat)))
        met |= checked_play_out(state, rng)
    assert {"turn", "draw2"} <= met


def test_a_playout_from_mid_game_ends_it_as_the_unchecked_loop_does():
    view = next(
        v for s, seat, v, _, _ in play("europe", "classic", None, 3, 11)
        if s.phase == "turn" and s.turn >= 30 and seat == 0
    )  # fmt: skip
    world = expert_world.determinize(view, random.Random(2))
    copy = expert_world.clone(world)
    checked_play_out(world, random.Random(5))
    rollout.play_out(copy, rollout.plans_for(copy), random.Random(5))
    assert E.is_terminal(copy) and E.to_json(copy) == E.to_json(world)


def test_a_plan_taken_away_is_made_again_around_it():
    state = E.new_game(seats=2, seed=4)
    while state.phase == "setup":
        seat = E.current_seats(state)[0]
        E.apply_action(state, seat, E.legal_actions(state, seat)[0])
    plans = rollout.plans_for(state)
    other = 1 - state.current
    taken = min(plans[other], key=lambda r: state.board.routes[r].length)
    route = state.board.routes[taken]
    state.hands[state.current] = [route.length] * (state.wild + 1)  # enough of any colour
    claim = next(
        a for a in E.legal_actions(state, state.current)
        if a["type"] == "claim_route" and a["route"] == route.id
    )  # fmt: skip
    E.apply_action(state, state.current, claim)
    rollout.after(state, plans, 1 - other, claim)
    assert taken not in plans[other] and plans[other] == rollout.plan_for(state, other)


@pytest.mark.parametrize(("ruleset", "variant", "options", "seats"), RULESETS)
def test_plans_read_from_the_state_are_the_plans_read_from_the_seats_view(
    ruleset, variant, options, seats
):
    """``plan_for`` reads the public board and the seat's own tickets from the state, not
    from a view built for the seat; the costs of every route at once are ``usable``'s one by
    one. Random games, stations and closed double routes included."""
    checked = 0
    for seed in range(2):
        state = E.new_game(
            ruleset=ruleset, variant=variant, seats=seats, seed=seed, options=options
        )
        rng = random.Random(seed)
        while not E.is_terminal(state):
            seat = E.current_seats(state)[0]
            if state.phase == "turn" and state.turn % 7 == 0:
                for s in range(state.n):
                    seen = read(E.view_for(state, s))
                    costs = planner.route_costs(seen, HARD.weights)
                    assert costs == [
                        None if (u := planner.usable(seen, r.index)) is None
                        else 0.0 if u else planner.weight(r, HARD.weights, seen.board.scoring)
                        for r in seen.board.routes
                    ]  # fmt: skip
                    plan = planner.fit_plan(seen, seen.tickets, costs, seen.trains[s])[0]
                    assert rollout.plan_for(state, s) == set(plan.routes)
                    checked += 1
            E.apply_action(state, seat, rng.choice(E.legal_actions(state, seat)))
    assert checked > 20


def test_the_worlds_favour_tickets_the_other_seats_routes_serve():
    """Over many worlds, the tickets another seat really holds come up more often than a
    uniform draw of its ticket count would give them."""
    hits = uniform = 0.0
    for seed in range(4):
        state, view = next(
            (s, v) for s, seat, v, _, _ in play("europe", "classic", None, 2, 20 + seed)
            if s.phase == "turn" and s.turn >= 24 and seat == 0
        )  # fmt: skip
        other = 1
        counts = Counter()
        worlds = 100
        for k in range(worlds):
            counts.update(expert_world.determinize(view, random.Random(k)).tickets[other])
        held = state.tickets[other]
        hits += sum(counts[t] for t in held) / worlds
        pool = len(state.board.tickets) - len(state.tickets[0])
        uniform += len(held) * len(held) / pool
    assert hits > 2 * uniform
