"""``benchmarks/expert_settle.py``: positions the expert searches, searched and counted."""

from __future__ import annotations

import json
import random

from benchmarks import expert_settle as settle
from games.engine import phases
from games.engine.bots import expert
from games.engine.bots.hard import Hard


def test_the_positions_are_turns_the_expert_searches():
    found = settle.positions(2, 3, every=23)
    assert len(found) == 3
    for view, legal in found:
        assert view["phase"] == phases.TURN
        assert len(legal) > 1
        assert expert._quick(view, legal, random.Random(0)) is None
    assert len({json.dumps(v, sort_keys=True) for v, _ in found}) == 3


def test_each_search_chooses_a_legal_action_and_a_seed_repeats_its_choice():
    found = settle.positions(2, 2, every=23)
    first = settle.settle(found, [0.1, 0.2], [1, 2], playouts=[16, 32])
    assert first == settle.settle(found, [0.1, 0.2], [1, 2], playouts=[16, 32])
    for (view, legal), row in zip(found, first, strict=True):
        keys = {json.dumps(a, sort_keys=True) for a in legal}
        assert set(row["chosen"]) == set(row["left"]) == {0.1, 0.2}
        assert all(len(c) == 2 and set(c) <= keys for c in row["chosen"].values())
        hard = json.dumps(Hard(view, legal, random.Random(0)).choose(), sort_keys=True)
        for budget, choices in row["chosen"].items():
            assert row["left"][budget] == [c != hard for c in choices]


def test_the_summary_counts_departures_agreement_and_the_top_budget():
    rows = [
        {"chosen": {1: ["h", "a"], 2: ["a", "a"]}, "left": {1: [False, True], 2: [True, True]}},
        {"chosen": {1: ["h", "h"], 2: ["h", "b"]}, "left": {1: [False, False], 2: [False, True]}},
    ]
    lines = settle.summary(rows, [1, 2])
    assert lines[0] == {"budget": 1, "positions": 2, "searches": 4, "left": 1, "agree": 1,
                        "as_top": 2}  # fmt: skip
    assert lines[1] == {"budget": 2, "positions": 2, "searches": 4, "left": 3, "agree": 1,
                        "as_top": 4}  # fmt: skip
    assert "| 1 | 1 of 4 | 1 of 2 | 2 of 4 |" in settle.table(lines)


def test_the_set_up_positions_are_each_seats_ticket_choice():
    found = settle.positions(2, 4, every=23, setup=True)
    assert [view["you"]["seat"] for view, _ in found] == [0, 1, 0, 1]
    for view, legal in found:
        assert view["phase"] == phases.SETUP
        assert len(legal) > 1 and {a["type"] for a in legal} == {"keep_tickets"}
    assert found[0][0] != found[2][0]  # the next game's deal
