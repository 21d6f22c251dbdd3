"""Arena seating (``ladder.pairing.arena``), pure: properties over random pools of free
players, checked against a brute force over every grouping (docs/tournaments.md "Arena")."""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.pairing.arena import Free, seat_free


def most_seated(n: int, size: int, small: int) -> int:
    """The most of n players that tables of ``small`` to ``size`` can seat (worked out
    here, independently of ``table_sizes``)."""
    return max(m for m in range(n + 1) if any(
        (m - a * size) >= 0 and (m - a * size) % small == 0 for a in range(m // size + 1)
    ))  # fmt: skip


def groupings(ids: list[int], kinds: set[int], seated: int):
    """Every way to seat ``seated`` of ``ids`` at tables of the sizes in ``kinds``."""
    if not ids:
        if seated == 0:
            yield []
        return
    first, rest = ids[0], ids[1:]
    if len(rest) >= seated:  # ``first`` waits
        yield from groupings(rest, kinds, seated)
    for k in kinds:
        if k <= seated:
            for mates in combinations(rest, k - 1):
                left = [p for p in rest if p not in mates]
                for more in groupings(left, kinds, seated - k):
                    yield [[first, *mates], *more]


def just_met(players) -> set[frozenset]:
    ids = {p.id for p in players}
    return {frozenset((p.id, q)) for p in players for q in p.met if q in ids and q != p.id}


def rematches(tables, pairs) -> int:
    return sum(1 for t in tables for a, b in combinations(t, 2) if frozenset((a, b)) in pairs)


@st.composite
def pools(draw, max_players=9):
    n = draw(st.integers(0, max_players))
    size = draw(st.integers(2, 5))
    small = size - 1 if draw(st.booleans()) and size > 2 else size
    ids = list(range(1, n + 1))
    players = [
        Free(
            p,
            points=draw(st.sampled_from([0.0, 6.0, 12.0, 24.0])),
            rating=draw(st.integers(1200, 1800)),
            since=draw(st.integers(0, 4)),
            met=frozenset(draw(st.lists(st.sampled_from(ids), max_size=3))) if ids else frozenset(),
        )
        for p in ids
    ]
    return players, size, small, draw(st.integers(0, 1000))


@settings(max_examples=300, deadline=None)
@given(pools())
def test_each_free_player_sits_at_most_once_at_a_table_of_an_allowed_size(pool):
    players, size, small, seed = pool
    tables = seat_free(players, size=size, min_table=small, seed=seed)
    seated = [p for t in tables for p in t]
    assert len(seated) == len(set(seated))
    assert set(seated) <= {p.id for p in players}
    assert all(small <= len(t) <= size for t in tables)


@settings(max_examples=300, deadline=None)
@given(pools(max_players=30))
def test_no_one_waits_while_a_table_could_start(pool):
    players, size, small, seed = pool
    tables = seat_free(players, size=size, min_table=small, seed=seed)
    seated = sum(len(t) for t in tables)
    assert seated == most_seated(len(players), size, small)
    assert len(players) - seated < small  # the players left could not fill a table


@settings(max_examples=250, deadline=None)
@given(pools(max_players=8))
def test_players_who_just_met_sit_apart_whenever_another_grouping_allows(pool):
    players, size, small, seed = pool
    tables = seat_free(players, size=size, min_table=small, seed=seed)
    pairs = just_met(players)
    seated = most_seated(len(players), size, small)
    fewest = min(
        rematches(g, pairs) for g in groupings([p.id for p in players], {size, small}, seated)
    )
    assert rematches(tables, pairs) == fewest


@settings(max_examples=200, deadline=None)
@given(pools(max_players=14))
def test_the_seating_is_deterministic_whatever_the_input_order(pool):
    players, size, small, seed = pool
    first = seat_free(players, size=size, min_table=small, seed=seed)
    shuffled = random.Random(seed).sample(players, len(players))
    assert seat_free(shuffled, size=size, min_table=small, seed=seed) == first


@settings(max_examples=200, deadline=None)
@given(pools(max_players=14))
def test_those_who_waited_longest_are_seated_first_when_no_rematch_is_at_stake(pool):
    players, size, small, seed = pool
    players = [Free(p.id, p.points, p.rating, since=p.id) for p in players]  # all differ
    tables = seat_free(players, size=size, min_table=small, seed=seed)
    seated = {p for t in tables for p in t}
    waiting = [p.id for p in players if p.id not in seated]
    assert all(w > s for w in waiting for s in seated)  # a later ``since`` waits
    for table in tables:  # and the longest waiting at each table moves first
        assert table[0] == min(table)


def test_tables_gather_players_near_in_points_then_rating():
    points = [24, 24, 24, 24, 12, 12, 12, 12, 0, 0, 0, 0]
    players = [Free(i, points=pt, rating=1500 + i) for i, pt in enumerate(points)]
    tables = seat_free(players, size=4, min_table=3, seed=7)
    assert [sorted(t) for t in tables] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    # On equal points the ratings decide: the four strongest sit together.
    players = [Free(i, rating=1000 + 100 * i) for i in range(8)]
    tables = seat_free(players, size=4, min_table=4, seed=7)
    assert [sorted(t) for t in tables] == [[4, 5, 6, 7], [0, 1, 2, 3]]


def test_two_tables_that_just_finished_together_are_mixed():
    first, second = frozenset({1, 2, 3, 4}), frozenset({5, 6, 7, 8})
    players = [Free(p, met=first if p <= 4 else second) for p in range(1, 9)]
    tables = seat_free(players, size=4, min_table=4, seed=3)
    assert len(tables) == 2
    assert all(len(set(t) & first) == 2 for t in tables)


def test_a_big_pool_after_ten_tables_has_no_rematch():
    players = []
    for table in range(10):
        members = frozenset(range(table * 4, table * 4 + 4))
        players += [Free(p, points=float(p % 3) * 12, met=members) for p in members]
    tables = seat_free(players, size=4, min_table=3, seed=11)
    assert sum(len(t) for t in tables) == 40
    assert rematches(tables, just_met(players)) == 0


def test_players_who_just_met_play_again_when_they_are_the_only_ones_free():
    players = [Free(1, met=frozenset({2})), Free(2, met=frozenset({1}))]
    assert seat_free(players, size=2, min_table=2) == [[1, 2]]
    assert seat_free(players[:1], size=2, min_table=2) == []


@pytest.mark.parametrize("size, small", [(6, 5), (1, 1), (4, 2), (3, 1)])
def test_table_sizes_that_are_not_allowed_are_refused(size, small):
    with pytest.raises(ValueError):
        seat_free([Free(1), Free(2)], size=size, min_table=small)


def test_a_player_is_free_only_once():
    with pytest.raises(ValueError):
        seat_free([Free(1), Free(1)], size=2, min_table=2)
