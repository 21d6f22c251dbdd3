"""The live standings' diff (``ladder.standings_diff``): applying a diff to the old rows gives
the new rows, and one table's result stays a small diff however far its players move."""

import json
import random

import pytest

from ladder.standings_diff import apply, diff, stable_ids


def rows(n, seed=0):
    rng = random.Random(seed)
    table = [
        {"player": 1000 + i, "name": f"P{i}", "points": rng.choice([0, 4, 6, 8, 12]) * 1.0}
        for i in range(n)
    ]
    table.sort(key=lambda r: -r["points"])
    for place, row in enumerate(table, start=1):
        row |= {"place": place, "games": 3, "buchholz": 5.5, "status": "active"}
    return table


def ranked(table):
    table = sorted(table, key=lambda r: (-r["points"], r["player"]))
    return [row | {"place": place} for place, row in enumerate(table, start=1)]


def roundtrip(before, after, rank="place"):
    change = json.loads(json.dumps(diff(before, after, key="player", rank=rank)))
    assert apply(before, change, key="player", rank=rank) == after
    return change


def test_it_keeps_the_longest_run_in_order():
    assert stable_ids([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]) == {1, 2, 3, 4, 5}
    assert stable_ids([1, 2, 3, 4, 5], [5, 1, 2, 3, 4]) == {1, 2, 3, 4}
    assert stable_ids([1, 2, 3], [9, 2, 1]) in ({2}, {1})
    assert stable_ids([], [1]) == set()


def test_an_unchanged_table_gives_an_empty_diff():
    before = rows(50)
    assert roundtrip(before, [dict(r) for r in before]) == {}


def test_one_tables_result_moving_players_far_is_a_small_diff():
    before = ranked(rows(2000))
    after = [dict(r) for r in before]
    # The last four players win big; their opponents' Buchholz changes.
    for row in after[-4:]:
        row["points"] += 40
        row["games"] += 1
    for row in after[100:112]:
        row["buchholz"] = 6.25
    after = ranked(after)
    change = roundtrip(before, after)
    assert {row_id for row_id, _ in change["mv"]} == {r["player"] for r in before[-4:]}
    assert len(json.dumps(change)) < 1500


@pytest.mark.parametrize("seed", range(40))
def test_any_change_round_trips(seed):
    rng = random.Random(seed)
    before = rows(rng.randint(0, 60), seed)
    after = [dict(r) for r in before if rng.random() > 0.1]
    for row in after:
        if rng.random() < 0.3:
            row["points"] = rng.choice([0, 4, 6, 8, 12, 16]) * 1.0
        if rng.random() < 0.1:
            row["status"] = "withdrawn"
    after += [
        {
            "player": 5000 + i,
            "name": f"N{i}",
            "points": 0.0,
            "games": 0,
            "buchholz": 0.0,
            "status": "active",
            "place": 0,
        }
        for i in range(rng.randint(0, 3))
    ]
    rng.shuffle(after)
    after = ranked(after)
    roundtrip(before, after)
    # Places that are not positions (shared places) round-trip too, and without a rank field.
    shared = [r | {"place": (i // 3) + 1} for i, r in enumerate(after)]
    roundtrip(before, shared)
    roundtrip(before, after, rank=None)


def test_a_row_that_loses_a_field_is_refused():
    before = rows(3)
    after = [dict(r) for r in before]
    del after[0]["buchholz"]
    with pytest.raises(ValueError):
        diff(before, after, key="player", rank="place")
