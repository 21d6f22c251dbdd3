"""``benchmarks/expert_oracle.py``: candidates graded by hard bots playing the true game on."""

from __future__ import annotations

import json

import pytest

from benchmarks import expert_oracle as oracle
from benchmarks import expert_settle as settle
from games.engine.search import clone


def _position():
    ((view, legal, state),) = settle.positions(2, 1, every=23, states=True)
    return view, legal, state


def test_positions_with_states_are_the_same_positions_and_their_true_states():
    views = settle.positions(2, 2, every=23)
    triples = settle.positions(2, 2, every=23, states=True)
    for (view, legal), (view2, legal2, state) in zip(views, triples, strict=True):
        assert (view, legal) == (view2, legal2)
        seat = view["you"]["seat"]
        assert state.current == seat
        assert sorted(state.tickets[seat]) == sorted(
            state.board.ticket_index[t["id"]] for t in view["you"]["tickets"]
        )


def test_a_game_played_on_repeats_with_its_seed_and_leaves_the_position_alone():
    view, legal, state = _position()
    before = json.dumps(clone(state).to_dict(), sort_keys=True)
    seat = view["you"]["seat"]
    first = oracle.play_on(state, seat, legal[0], seed=5)
    assert first == oracle.play_on(state, seat, legal[0], seed=5)
    reward, win = first
    assert 0.0 < reward < 1.0
    assert win in (0.0, 1.0) or 0.0 < win < 1.0
    assert json.dumps(state.to_dict(), sort_keys=True) == before
    # another seed shuffles the decks again: over a few seeds the games do not all agree
    assert len({oracle.play_on(state, seat, legal[0], seed=s) for s in range(1, 7)}) > 1


def test_every_candidate_meets_the_same_games():
    view, legal, state = _position()
    action = legal[0]
    marks = oracle.grade(state, view["you"]["seat"], {"a": action, "b": dict(action)}, 3, 1)
    assert marks["a"] == marks["b"]


def test_the_summary_measures_choices_against_the_hard_bots_move():
    rows = [
        {"chosen": {1: ["h", "a"], 2: ["a", "a"]}, "prior": "h"},
        {"chosen": {1: ["h", "h"], 2: ["b", "h"]}, "prior": "h"},
    ]
    grades = [
        {"h": (0.5, 0.5), "a": (0.6, 1.0)},
        {"h": (0.5, 0.5), "b": (0.4, 0.0)},
    ]
    one, two, best = oracle.summary(rows, grades, [1, 2])
    assert one["gain"][0] == pytest.approx(0.025)  # (0.05 + 0) / 2
    assert (one["left"], one["better"]) == (1, 1)
    assert two["gain"][0] == pytest.approx((0.1 - 0.05) / 2)
    assert two["win_gain"][0] == pytest.approx((0.5 - 0.25) / 2)
    assert (two["left"], two["better"]) == (3, 2)
    assert best["budget"] is None and best["gain"][0] == pytest.approx(0.05)  # a, then h itself
    assert "| 2 s | +0.0250" in oracle.table([one, two, best])


def test_a_set_up_choice_is_played_on_with_the_other_seats_choosing_theirs():
    ((view, legal, state),) = settle.positions(2, 1, every=23, states=True, setup=True)
    assert state.phase == "setup" and view["you"]["seat"] == 0
    marks = oracle.grade(state, 0, {"a": legal[0], "b": legal[-1]}, 2, 1)
    for reward, win, rewards in marks.values():
        assert 0.0 < reward < 1.0 and 0.0 <= win <= 1.0 and len(rewards) == 2
    assert state.phase == "setup"  # the position itself is not played on
