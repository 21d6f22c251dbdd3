"""``benchmarks/expert_bias.py``: the rollout policy against hard bots playing the same moves on,
and the search's estimates against the oracle's grades."""

from __future__ import annotations

import json
import random

import pytest

from benchmarks import expert_bias as bias
from benchmarks import expert_oracle as oracle
from benchmarks import expert_settle as settle
from games.engine import phases
from games.engine.bots import expert
from games.engine.bots.hard import Hard
from games.engine.search import clone


@pytest.fixture(scope="module")
def setup_position():
    ((view, legal, state),) = settle.positions(2, 1, 1, states=True, setup=True)
    return view, legal, state


def test_a_move_played_on_by_the_rollout_policy_ends_the_game_and_leaves_the_position_alone(
    setup_position,
):
    view, legal, state = setup_position
    before = json.dumps(clone(state).to_dict(), sort_keys=True)
    seat = view["you"]["seat"]
    finals = [oracle.play_to_end(state, seat, legal[0], 3, policy) for policy in bias.POLICIES]
    for final in finals:
        assert final.phase == phases.OVER
        # the other seat's set-up choice was made in both, by the hard bot
        assert all(final.tickets[s] for s in range(final.n))
        reward, routes, tickets, failed, best_other, turns, bonus = bias.outcome(final, seat)
        assert 0 <= failed <= len(final.tickets[seat]) and turns == final.turn
        assert bonus in (0, final.cfg.longest_path_bonus)
        assert failed or tickets > 0  # no ticket failed: their points count, none negative
    assert json.dumps(state.to_dict(), sort_keys=True) == before
    assert bias.outcome(finals[0], seat) != bias.outcome(finals[1], seat)


def test_each_kind_of_move_is_played_on_by_both_policies_in_the_same_number_of_games(
    setup_position,
):
    view, legal, state = setup_position
    longs = {t.id for t in state.board.tickets if t.kind == "long"}
    actions = expert.searched(Hard(view, legal, random.Random(0)), view, legal)[:3]
    results = bias.policies([(view, legal, state)], [{str(i): a for i, a in enumerate(actions)}], 2)
    kinds = {bias.kind(a, longs) for a in actions}
    assert {k for k, _ in results} == kinds
    for name in kinds:
        assert len(results[(name, "rollout")]) == len(results[(name, "hard")]) > 0
    table = bias.policy_table(results)
    assert all(name in table for name in kinds)


def test_kinds_of_moves():
    longs = {"L1"}
    assert bias.kind({"type": "keep_tickets", "tickets": ["a", "L1"]}, longs) == (
        "2 kept, with the long"
    )
    assert bias.kind({"type": "keep_tickets", "tickets": ["a", "b", "c"]}, longs) == (
        "3 kept, no long"
    )
    assert bias.kind({"type": "draw_card", "source": "deck"}, longs) == "draw_card"


def test_deviations_are_about_each_positions_mean_and_skip_thin_estimates(setup_position):
    _view, _legal, state = setup_position
    long_id = next(t.id for t in state.board.tickets if t.kind == "long")
    keeps = {
        "x": {"type": "keep_tickets", "tickets": ["a", long_id]},
        "y": {"type": "keep_tickets", "tickets": ["a", "b"]},
        "z": {"type": "keep_tickets", "tickets": ["a", "b", "c"]},
    }
    row = {
        "searched": keeps,
        # two seeds' estimates pooled by visits: x (0.6*10 + 0.8*30) / 40 = 0.75; z too thin
        "estimates": {"2.0": [{"x": [0.6, 10], "y": [0.5, 20], "z": [0.9, 3]},
                              {"x": [0.8, 30], "y": [0.5, 20]}]},
    }  # fmt: skip
    grades = {"x": [0.55, 0.5], "y": [0.45, 0.5], "z": [0.9, 1.0]}
    devs = bias.deviations([(None, None, state)], [row], [grades], "2.0", least=20)
    assert sorted(devs) == sorted([
        ("2 kept, with the long", pytest.approx(0.125), pytest.approx(0.05)),
        ("2 kept, no long", pytest.approx(-0.125), pytest.approx(-0.05)),
    ])  # fmt: skip
    assert bias.pearson([d[1] for d in devs], [d[2] for d in devs]) == pytest.approx(1.0)
    assert "search's bias" in bias.deviation_table(devs)
