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


def _kept(path, rows, grades, positions=None):
    positions = positions or [{"seat": 0, "turn": 3}, {"seat": 1, "turn": 9}]
    path.write_text(json.dumps({"positions": positions, "games": 2, "rows": rows,
                                "grades": grades}))  # fmt: skip
    return path


def test_a_kept_run_is_reported_again_and_set_against_another_codes_choices(tmp_path):
    """``--report`` prints a kept run's table without searching; ``--before`` adds, per
    budget, its choices' oracle reward minus the other run's, paired by position, the other
    run's choices graded from either file."""
    new_rows = [
        {"chosen": {1: ["a", "a"], 2: ["a", "h"]}, "prior": "h"},
        {"chosen": {1: ["h", "h"], 2: ["h", "h"]}, "prior": "h"},
    ]
    old_rows = [
        {"chosen": {1: ["h", "h"], 2: ["c", "c"]}, "prior": "h"},
        {"chosen": {1: ["b", "h"], 2: ["h", "h"]}, "prior": "h"},
    ]
    new = _kept(
        tmp_path / "new.json", new_rows,
        [{"h": (0.5, 0.5, []), "a": (0.7, 1.0, [])}, {"h": (0.5, 0.5, []), "b": (0.3, 0.0, [])}],
    )  # fmt: skip
    old = _kept(tmp_path / "old.json", old_rows, [{"c": (0.4, 0.0, [])}, {}])
    text = oracle.report(new, old)
    assert text.startswith(oracle.table(oracle.summary(new_rows, json.loads(new.read_text())[
        "grades"], [1.0, 2.0])))  # fmt: skip
    after = text.split("paired by position:")[1]
    lines = {line.split(" | ")[0]: line for line in after.splitlines()}
    # 1 s: position 1 0.7 - 0.5, position 2 0.5 - (0.3 + 0.5) / 2: mean (0.2 + 0.1) / 2
    assert "| +0.1500 [" in lines["| 1 s"] and lines["| 1 s"].endswith("| 2 of 2 |")
    # 2 s: position 1 (0.7 + 0.5) / 2 - 0.4, position 2 nothing: mean 0.1
    assert "| +0.1000 [" in lines["| 2 s"] and lines["| 2 s"].endswith("| 1 of 2 |")
    elsewhere = _kept(tmp_path / "elsewhere.json", old_rows, [{}, {}], [{"seat": 0, "turn": 4}])
    with pytest.raises(SystemExit, match="other positions"):
        oracle.report(new, elsewhere)
    ungraded = _kept(tmp_path / "ungraded.json", old_rows, [{}, {}])
    with pytest.raises(SystemExit, match="no grade for 2 choices"):
        oracle.report(new, ungraded)


def test_a_kept_search_chooses_again_under_another_rule_for_leaving_the_hard_bots_move(
    tmp_path,
):
    """``--rules C:E`` makes each kept search's choice again from its estimates (mean
    reward, visits, edge over the hard bot's move, its standard error) by the expert's own
    ranking: a survivor leaves the hard bot's move only with an edge over C standard errors
    above E; a candidate the halving dropped never does."""
    estimates = {
        "h": [0.50, 40, 0.0, 0.0],
        "a": [0.53, 40, 0.03, 0.02],  # 1.5 standard errors over the hard bot's move
        "b": [0.60, 10, 0.10, 0.01],  # best of all, but dropped by the halving
    }
    rows = [{"chosen": {"1.0": ["a"]}, "prior": "h", "estimates": {"1.0": [estimates]}}]
    assert oracle.rechosen(rows, 1.0, 0.0)[0]["chosen"] == {"1.0": ["a"]}
    assert oracle.rechosen(rows, 2.0, 0.0)[0]["chosen"] == {"1.0": ["h"]}
    assert oracle.rechosen(rows, 1.0, 0.02)[0]["chosen"] == {"1.0": ["h"]}
    assert oracle.rechosen(rows, 0.5, 0.015)[0]["chosen"] == {"1.0": ["a"]}
    run = _kept(tmp_path / "run.json", rows, [{"h": (0.5, 0.5, []), "a": (0.6, 1.0, [])}],
                [{"seat": 0, "turn": 3}])  # fmt: skip
    text = oracle.report(run, None, [(1.0, 0.0), (2.0, 0.0)])
    first, _, second = text.partition("CONFIDENCE=2, PRIOR_EDGE=0")
    assert "chosen again: CONFIDENCE=1, PRIOR_EDGE=0" in first
    assert first.count("| 1 s | +0.1000") == 2  # as kept, and chosen again alike
    assert "| 1 s | +0.0000" in second and "oracle's best" not in second
    old = [{**rows[0], "estimates": {"1.0": [{k: v[:2] for k, v in estimates.items()}]}}]
    with pytest.raises(SystemExit, match="kept no edges"):
        oracle.rechosen(old, 1.0, 0.0)
