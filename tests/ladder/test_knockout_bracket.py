"""The knockout bracket's pure code (ladder/pairing/knockout.py, docs/tournaments.md
"Knockout"): the plan, the seating of a round, who goes through, and the final order."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.pairing import knockout

SHAPES = [(size, k) for size in range(2, 6) for k in range(1, size)]


@pytest.mark.parametrize(("size", "k"), SHAPES)
def test_the_bracket_is_valid_for_every_field_from_2_to_200(size, k):
    for n in range(2, 201):
        stages = knockout.plan(n, size, k)
        assert stages[0].players == n
        *rounds, final = stages
        assert final.final and final.tables == 1 and final.byes == 0
        assert 2 <= final.players <= size
        for stage, nxt in zip(stages, stages[1:], strict=False):
            assert not stage.final and stage.players > size
            assert stage.tables == stage.players // size >= 1
            assert 0 <= stage.byes < size
            assert stage.tables * size + stage.byes == stage.players
            assert stage.advancing == stage.byes + stage.tables * k == nxt.players
            assert nxt.players < stage.players  # strictly shrinking

        # Seat each planned round and play it out: every player exactly once, byes on top.
        seeds = list(range(n))
        for stage in stages:
            assert len(seeds) == stage.players
            byes, tables = knockout.seat(seeds, size, k)
            assert byes == seeds[: stage.byes]  # the highest seeds
            assert len(tables) == stage.tables
            assert all(len(t) == (stage.players if stage.final else size) for t in tables)
            seated = byes + [p for t in tables for p in t]
            assert sorted(seated) == sorted(seeds) and len(set(seated)) == len(seated)
            if stage.final:
                break
            through = list(byes)
            for table in tables:  # seat order as places: the lowest seed wins
                through += knockout.advancing({p: i + 1 for i, p in enumerate(table)}, seeds, k)
            seeds = sorted(through)
        assert stage is final


def test_a_field_too_small_or_a_bad_shape_is_refused():
    with pytest.raises(ValueError):
        knockout.plan(1, 4, 2)
    with pytest.raises(ValueError):
        knockout.plan(10, 4, 4)
    with pytest.raises(ValueError):
        knockout.plan(10, 6, 1)


def test_eleven_players_at_tables_of_four_where_two_go_through():
    stages = knockout.plan(11, 4, 2)
    assert [(s.players, s.tables, s.byes, s.advancing) for s in stages] == [
        (11, 2, 3, 7), (7, 1, 3, 5), (5, 1, 1, 3), (3, 1, 0, 0)
    ]  # fmt: skip


def test_tables_are_dealt_in_snake_order_and_the_lowest_seed_moves_first():
    byes, tables = knockout.seat(list(range(1, 15)), 4, 2)  # 14 = 3 tables + 2 byes
    assert byes == [1, 2]
    # dealt 3 4 5 | 8 7 6 | 9 10 11 | 14 13 12, each table then seated lowest seed first
    assert tables == [[14, 9, 8, 3], [13, 10, 7, 4], [12, 11, 6, 5]]


@settings(max_examples=200, deadline=None)
@given(n=st.integers(2, 200), shape=st.sampled_from(SHAPES))
def test_snake_dealing_balances_the_tables(n, shape):
    size, k = shape
    byes, tables = knockout.seat(list(range(n)), size, k)
    if len(tables) < 2:
        return
    sums = [sum(t) for t in tables]
    # Each pair of laps (down and back) adds the same to every table; a last odd lap adds
    # less than one lap's spread: the tables' seed sums differ by less than the field.
    assert max(sums) - min(sums) < len(tables)
    best = [min(t) for t in tables]
    assert best == sorted(best)  # table 1 has the best seed of the tables


def test_ties_at_the_cut_go_to_the_better_tie_break():
    order = [7, 3, 9, 1]  # the standings, best first
    assert knockout.advancing({1: 1, 3: 2, 7: 2, 9: 4}, order, 2) == [1, 7]
    assert knockout.advancing({1: 1, 3: 1, 7: 1, 9: 1}, order, 1) == [7]
    assert knockout.advancing({1: 2, 3: 1, 7: 3, 9: 3}, order, 3) == [3, 1, 7]


@settings(max_examples=200, deadline=None)
@given(places=st.lists(st.integers(1, 5), min_size=2, max_size=5), k=st.integers(1, 4))
def test_advancing_takes_the_best_places(places, k):
    players = dict(enumerate(places))
    order = random.Random(len(places)).sample(list(players), len(players))
    chosen = knockout.advancing(players, order, k)
    assert len(chosen) == min(k, len(players))
    rest = [p for p in players if p not in chosen]
    assert all(players[c] <= players[r] for c in chosen for r in rest)


def test_the_final_order_goes_by_round_reached_then_place_then_standings():
    order = [1, 2, 3, 4, 5, 6, 7]  # the standings (points and tie-breaks)
    reached = {1: 1, 2: 2, 3: 3, 4: 3, 5: 3, 6: 2, 7: 1}
    places = {1: 3, 2: 3, 3: 2, 4: 1, 5: 3, 6: 3, 7: 4}
    assert knockout.final_order(order, reached, places) == [4, 3, 5, 2, 6, 1, 7]


@settings(max_examples=200, deadline=None)
@given(
    data=st.lists(
        st.tuples(st.integers(0, 6), st.one_of(st.none(), st.integers(1, 5))),
        min_size=1,
        max_size=60,
    )
)
def test_the_final_order_is_a_permutation_of_the_entrants(data):
    order = list(range(len(data)))
    reached = {p: r for p, (r, _place) in enumerate(data) if r}
    places = {p: place for p, (_r, place) in enumerate(data)}
    ranked = knockout.final_order(order, reached, places)
    assert sorted(ranked) == order
    keys = [(-reached.get(p, 0), 1_000 if places[p] is None else places[p]) for p in ranked]
    assert keys == sorted(keys)


def test_rerank_numbers_the_rows_again():
    class Row:
        def __init__(self, player, rank):
            self.player, self.rank = player, rank

    rows = [Row(p, i) for i, p in enumerate([10, 20, 30], 1)]
    seats = [(1, 10, 3), (1, 20, 1), (1, 30, 2), (2, 20, None), (2, 30, None)]
    assert [(r.player, r.rank) for r in knockout.rerank(rows, seats)] == [(20, 1), (30, 2), (10, 3)]
