"""The pure rating maths, by value (docs/ratings.md; issue 7 "Ratings")."""

import random

import pytest

from ladder import rating
from ladder.rating import Accuracy, Ladder, effective_places, rate_table, replay

EST = 20  # games played: established (not provisional)
approx = pytest.approx


def equals(n, games=EST):
    """n players of 1500 with ``games`` rated games each."""
    return [1500.0] * n, [games] * n


def test_two_equal_players_move_by_half_k():
    ratings, games = equals(2)
    assert rate_table(ratings, games, [1, 2]) == approx([16, -16])


@pytest.mark.parametrize(
    ("places", "deltas"),
    [
        ([1, 2, 3], [16, 0, -16]),  # K/(n-1) = 16; S = 2, 1, 0; E = 1
        ([2, 3, 1], [0, -16, 16]),
        ([1, 1, 3], [8, 8, -16]),  # shared first place: a draw between the two
        ([1, 2, 2], [16, -8, -8]),
        ([1, 1, 1], [0, 0, 0]),
    ],
)
def test_three_player_tables(places, deltas):
    ratings, games = equals(3)
    assert rate_table(ratings, games, places) == approx(deltas)


def test_four_player_table_of_equals():
    ratings, games = equals(4)
    # K/(n-1) = 32/3; S = 3, 2, 1, 0; E = 1.5
    assert rate_table(ratings, games, [1, 2, 3, 4]) == approx([16, 16 / 3, -16 / 3, -16])


def test_five_player_table_of_equals():
    ratings, games = equals(5)
    assert rate_table(ratings, games, [1, 2, 3, 4, 5]) == approx([16, 8, 0, -8, -16])


def test_winning_a_table_is_worth_the_same_at_any_size():
    for n in range(2, 6):
        ratings, games = equals(n)
        assert rate_table(ratings, games, list(range(1, n + 1)))[0] == approx(16)


def test_an_upset_moves_more_than_an_expected_result():
    games = [EST, EST]
    expected_win = rate_table([1600.0, 1400.0], games, [1, 2])
    upset = rate_table([1600.0, 1400.0], games, [2, 1])
    e = 1 / (1 + 10 ** (-200 / 400))  # 0.7597
    assert expected_win == approx([32 * (1 - e), -32 * (1 - e)])
    assert upset == approx([-32 * e, 32 * e])


def test_a_provisional_player_moves_twice_as_fast():
    assert rate_table([1500.0, 1500.0], [5, EST], [1, 2]) == approx([32, -16])
    assert rate_table([1500.0, 1500.0], [19, 20], [2, 1]) == approx([-32, 16])


def test_provisional_for_the_first_twenty_games():
    assert rating.is_provisional(0) and rating.is_provisional(19)
    assert not rating.is_provisional(20)


def test_k_is_shared_over_the_opponents():
    assert rating.k_factor(EST, 2) == 32
    assert rating.k_factor(EST, 5) == 8
    assert rating.k_factor(3, 5) == 16


def test_abandoned_seats_are_placed_last_whatever_they_scored():
    assert effective_places([1, 2, 3], [True, False, False]) == [3, 1, 2]
    # two abandoned seats share last place
    assert effective_places([1, 2, 3, 4], [True, False, True, False]) == [3, 1, 3, 2]
    # shared engine ranks stay shared
    assert effective_places([1, 1, 3], [False, False, False]) == [1, 1, 3]


def test_an_abandoned_winner_loses_like_a_last_place():
    ratings, games = equals(3)
    places = effective_places([1, 2, 3], [True, False, False])
    assert rate_table(ratings, games, places) == approx([-16, 16, 0])


def test_pairwise_scores():
    assert rating.pairwise_scores([1, 2, 2, 4]) == [3, 1.5, 1.5, 0]


def test_the_ladder_counts_games_and_wins():
    ladder = Ladder()
    changes = ladder.play(["a", "b"], [1, 2])
    assert changes == [("a", 1500.0, 1532.0, 0), ("b", 1500.0, 1468.0, 0)]
    assert ladder.players == {"a": [1532.0, 1, 1], "b": [1468.0, 1, 0]}


def test_a_replay_equals_the_incremental_ladder_bit_for_bit():
    rng = random.Random(7)
    tables, ladder = [], Ladder()
    for _ in range(500):
        players = rng.sample(range(30), rng.randint(2, 5))
        places = [rng.randint(1, len(players)) for _ in players]
        tables.append((players, places))
        ladder.play(players, places)
    assert replay(tables).players == ladder.players


def test_accuracy_counts_decided_pairs_only():
    acc = Accuracy()
    # pairs: 1600 ahead of 1500 and of 1400 (right), 1500 behind 1400 (wrong)
    acc.add([1600.0, 1500.0, 1400.0], [1, 3, 2])
    acc.add([1500.0, 1500.0], [1, 2])  # equal ratings: no prediction
    acc.add([1700.0, 1300.0], [1, 1])  # a shared place: not decided
    assert (acc.decided, acc.correct, acc.equal_ratings, acc.pairs) == (3, 2, 1, 5)
    assert acc.share_correct == approx(2 / 3)
    bands = {(row["low"], row["high"]): row["pairs"] for row in acc.band_rows()}
    assert bands[100, 200] == 2 and bands[200, 300] == 1
