"""Tournament points, byes and tie-breaks, by value (docs/tournaments.md; no database)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.standings import (
    BYE_POINTS,
    SCALE,
    Bye,
    Entrant,
    Seat,
    coin,
    placement_points,
    standings,
)

approx = pytest.approx


def seats_of(round_no, table, players, places, scores=None, scheme="linear"):
    """The seats of one finished table, points from the places."""
    points = placement_points(places, scheme)
    scores = scores or [0] * len(players)
    return [
        Seat(round_no, table, p, place, score, pts)
        for p, place, score, pts in zip(players, places, scores, points, strict=True)
    ]


def entrants(*ids, rating=1500.0):
    return [Entrant(i, rating) for i in ids]


def by_player(rows):
    return {row.player: row for row in rows}


@pytest.mark.parametrize(
    ("places", "points"),
    [
        ([1, 2], [12, 0]),
        ([1, 2, 3], [12, 6, 0]),
        ([1, 2, 3, 4], [12, 8, 4, 0]),
        ([1, 2, 3, 4, 5], [12, 9, 6, 3, 0]),
        ([3, 1, 2], [0, 12, 6]),  # seats in any order
    ],
)
def test_linear_points_are_the_share_of_opponents_beaten(places, points):
    assert placement_points(places) == approx(points)


@pytest.mark.parametrize(("k", "prize"), [(2, 12), (3, 18), (4, 24), (5, 30)])
def test_the_winner_takes_six_points_per_player_at_the_table(k, prize):
    places = list(range(1, k + 1))
    assert placement_points(places, "winner") == approx([prize] + [0] * (k - 1))


@pytest.mark.parametrize(
    ("places", "scheme", "points"),
    [
        ([1, 1, 3, 4], "linear", [10, 10, 4, 0]),
        ([1, 2, 2, 4], "linear", [12, 6, 6, 0]),
        ([1, 1, 1], "linear", [6, 6, 6]),
        ([1, 2, 2, 2, 5], "linear", [12, 6, 6, 6, 0]),
        ([1, 1], "linear", [6, 6]),
        ([1, 1, 3, 4], "winner", [12, 12, 0, 0]),
        ([1, 1, 1, 4, 5], "winner", [10, 10, 10, 0, 0]),
        ([1, 2, 2], "winner", [18, 0, 0]),
    ],
)
def test_players_who_share_a_place_share_the_points_of_the_places_they_cover(
    places, scheme, points
):
    assert placement_points(places, scheme) == approx(points)


@st.composite
def finishes(draw):
    """The places of one table of 2-5 from random scores (ties give shared places)."""
    scores = draw(st.lists(st.integers(0, 4), min_size=2, max_size=5))
    return [1 + sum(1 for other in scores if other > s) for s in scores]


@given(places=finishes(), scheme=st.sampled_from(["linear", "winner"]))
def test_a_table_is_worth_six_points_a_player_at_every_size(places, scheme):
    points = placement_points(places, scheme)
    assert sum(points) / len(points) == approx(SCALE / 2)
    assert all(0 <= p <= SCALE / 2 * len(places) for p in points)
    # a better place never scores less
    for a, pa in zip(places, points, strict=True):
        for b, pb in zip(places, points, strict=True):
            assert a >= b or pa >= pb


def test_a_table_needs_two_players_and_a_known_scheme():
    with pytest.raises(ValueError):
        placement_points([1])
    with pytest.raises(ValueError):
        placement_points([1, 2], "podium")


def test_a_bye_scores_the_average_result_without_a_game():
    rows = by_player(standings(entrants(1, 2, 3), seats_of(1, 1, [1, 2], [1, 2]), [Bye(1, 3)]))
    assert rows[3].points == BYE_POINTS == SCALE / 2
    assert (rows[3].games, rows[3].byes, rows[3].game_points) == (0, 1, 0)
    assert (rows[3].buchholz, rows[3].opponent_rating) == (0, 0)
    assert (rows[1].games, rows[1].byes, rows[1].wins) == (1, 0, 1)


# Two rounds, hand-computed (ratings 1: 1500, 2: 1600, 3: 1400, 4: 1700, 5: 1300, 6: 1550).
# Round 1: [1, 2, 3] places 1-2-3 (12, 6, 0); [4, 5] (12, 0); 6 a bye (6).
# Round 2: [1, 4] 4 wins (0, 12); [2, 5, 6] 6-5-2 (12, 6, 0); 3 a bye (6).
# Totals: 1: 12, 2: 6, 3: 6, 4: 24, 5: 6, 6: 18.
RATINGS = {1: 1500.0, 2: 1600.0, 3: 1400.0, 4: 1700.0, 5: 1300.0, 6: 1550.0}
EVENT = (
    seats_of(1, 1, [1, 2, 3], [1, 2, 3], [90, 80, 130])
    + seats_of(1, 2, [4, 5], [1, 2], [100, 60])
    + seats_of(2, 1, [1, 4], [2, 1], [50, 95])
    + seats_of(2, 2, [2, 5, 6], [3, 2, 1], [40, 75, 85])
)
EVENT_BYES = [Bye(1, 6), Bye(2, 3)]


def event_rows(**kwargs):
    field = [Entrant(p, r) for p, r in RATINGS.items()]
    return standings(field, EVENT, EVENT_BYES, **kwargs)


def test_points_add_up_over_tables_and_byes():
    rows = by_player(event_rows())
    assert {p: r.points for p, r in rows.items()} == {1: 12, 2: 6, 3: 6, 4: 24, 5: 6, 6: 18}


def test_buchholz_is_the_mean_over_rounds_of_the_opponents_mean_total():
    rows = by_player(event_rows())
    assert rows[1].buchholz == approx((6 + 24) / 2)  # mean(2: 6, 3: 6), then 4: 24
    assert rows[2].buchholz == approx((9 + 12) / 2)  # mean(12, 6), then mean(6, 18)
    assert rows[4].buchholz == approx((6 + 12) / 2)


def test_byes_are_left_out_of_buchholz():
    rows = by_player(event_rows())
    assert rows[3].buchholz == approx(9)  # round 1 only: mean(12, 6)
    assert rows[6].buchholz == approx(6)  # round 2 only: mean(6, 6)


def test_cut_one_buchholz_drops_the_weakest_round():
    rows = by_player(event_rows())
    assert rows[1].buchholz_cut1 == approx(24)
    assert rows[2].buchholz_cut1 == approx(12)
    # with a single round there is nothing to drop
    assert rows[3].buchholz_cut1 == rows[3].buchholz == approx(9)


def test_game_points_add_up_the_scores():
    rows = by_player(event_rows())
    assert rows[1].game_points == 90 + 50
    assert rows[6].game_points == 85


def test_opponent_rating_counts_every_opponent_met():
    rows = by_player(event_rows())
    assert rows[1].opponent_rating == approx((1600 + 1400 + 1700) / 3)
    assert rows[5].opponent_rating == approx((1700 + 1600 + 1550) / 3)
    # meeting the same opponent twice counts twice
    twice = seats_of(1, 1, [1, 2], [1, 2]) + seats_of(2, 1, [1, 2, 3], [1, 2, 3])
    rows = by_player(standings([Entrant(1, 0), Entrant(2, 1000), Entrant(3, 1600)], twice, []))
    assert rows[1].opponent_rating == approx((1000 + 1000 + 1600) / 3)


def test_ranks_follow_points_then_the_tie_breaks():
    rows = event_rows()
    # 2, 3 and 5 have 6 points; Buchholz 10.5, 9 and (24 + 12) / 2 = 18
    assert [r.player for r in rows] == [4, 6, 1, 5, 2, 3]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]


def test_tie_breaks_apply_in_the_given_order():
    # 2 and 3 both have 6 points: 2 has the better Buchholz (10.5 to 9), 3 the better game
    # points (130 to 120).
    rows = event_rows(tiebreaks=("buchholz", "game_points"))
    assert [r.player for r in rows if r.player in (2, 3)] == [2, 3]
    rows = event_rows(tiebreaks=("game_points", "buchholz"))
    assert [r.player for r in rows if r.player in (2, 3)] == [3, 2]


def test_an_unknown_tie_break_is_refused():
    with pytest.raises(ValueError, match="sonneborn"):
        event_rows(tiebreaks=("buchholz", "sonneborn"))


def test_entrants_without_games_are_ranked_with_zeros():
    rows = by_player(standings(entrants(1, 2, 3), seats_of(1, 1, [1, 2], [2, 1]), []))
    assert rows[3].rank == 3
    assert (rows[3].points, rows[3].games, rows[3].buchholz, rows[3].game_points) == (0, 0, 0, 0)


def test_the_coin_decides_exact_ties_the_same_way_every_time():
    field = entrants(*range(1, 9))
    first = standings(field, [], [], seed=7)
    assert [r.player for r in standings(field, [], [], seed=7)] == [r.player for r in first]
    assert [r.coin for r in first] == sorted((r.coin for r in first), reverse=True)
    assert {r.coin for r in first} == {coin(7, p) for p in range(1, 9)}
    other_seeds = {tuple(r.player for r in standings(field, [], [], seed=s)) for s in range(5)}
    assert len(other_seeds) > 1


def test_the_coin_is_a_value_in_the_unit_interval():
    values = [coin(seed, player) for seed in range(20) for player in range(50)]
    assert all(0 <= v < 1 for v in values)
    assert coin(3, 11) == coin(3, 11) != coin(4, 11)
    assert 0.4 < sum(values) / len(values) < 0.6


def test_tie_break_values_equal_up_to_rounding_still_tie():
    # Buchholz 0.1 + 0.2 and 0.3 differ in the last bit; the coin must decide, not the bit.
    a, b = Entrant(1, 1500.0), Entrant(2, 1500.0)
    winner = 1 if coin(0, 1) > coin(0, 2) else 2
    tables = [
        Seat(1, 1, 1, 1, 0, 1.0),
        Seat(1, 1, 3, 2, 0, 0.1 + 0.2),
        Seat(1, 2, 2, 1, 0, 1.0),
        Seat(1, 2, 4, 2, 0, 0.3),
    ]
    rows = standings([a, b], tables, [], tiebreaks=("buchholz",))
    assert rows[0].player == winner


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_ranks_are_a_strict_order_consistent_with_points(data):
    n = data.draw(st.integers(2, 12))
    field = [Entrant(i, data.draw(st.sampled_from([1400.0, 1500.0, 1600.0]))) for i in range(n)]
    seats = []
    for r in range(1, data.draw(st.integers(1, 4)) + 1):
        players = data.draw(st.permutations(range(n)))
        for t in range(n // 3):
            table = players[3 * t : 3 * t + 3]
            places = data.draw(st.lists(st.integers(1, 3), min_size=3, max_size=3))
            seats += seats_of(r, t, table, places)
    rows = standings(field, seats, [], seed=data.draw(st.integers(0, 9)))
    assert sorted(r.rank for r in rows) == list(range(1, n + 1))
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    for row in rows:
        assert row.buchholz_cut1 >= row.buchholz - 1e-9


# -- the seat rule ----------------------------------------------------------------------------


def seated(round_no, table, players, places):
    """A finished table whose seats (turn order) are the order of ``players``."""
    return [
        Seat(round_no, table, p, place, 0, pts, seat)
        for seat, (p, place, pts) in enumerate(
            zip(players, places, placement_points(places), strict=True)
        )
    ]


def test_later_seat_is_the_mean_normalised_turn_order_position():
    # Round 1: 1, 2, 3, 4 in turn order; round 2 at a table of 3: 4, 2, 1.
    seats = seated(1, 1, [1, 2, 3, 4], [1, 2, 3, 4]) + seated(2, 2, [4, 2, 1], [1, 2, 3])
    rows = by_player(standings(entrants(1, 2, 3, 4), seats, [], tiebreaks=["later_seat"]))
    assert rows[1].later_seat == approx((0 + 1) / 2)  # first of 4, then last of 3
    assert rows[2].later_seat == approx((1 / 3 + 1 / 2) / 2)
    assert rows[3].later_seat == approx(2 / 3)
    assert rows[4].later_seat == approx((1 + 0) / 2)


def test_the_seat_rule_ranks_the_later_starting_seat_first_on_equal_points():
    # 1 and 2 both win a table and lose one; 2 moved first both times, 1 moved last.
    seats = (
        seated(1, 1, [2, 1], [1, 2])
        + seated(2, 2, [2, 1], [2, 1])
        + seated(1, 3, [3, 4], [1, 2])
        + seated(2, 4, [3, 4], [2, 1])
    )
    for seed in range(20):  # whatever the coin says
        rows = standings(entrants(1, 2, 3, 4), seats, [], tiebreaks=["later_seat"], seed=seed)
        order = [row.player for row in rows]
        assert order.index(1) < order.index(2)
        assert order.index(4) < order.index(3)


def test_the_seat_rule_counts_only_tables_with_known_seats_and_is_neutral_without():
    seats = seats_of(1, 1, [1, 2], [1, 2]) + seated(2, 2, [2, 1], [1, 2])
    rows = by_player(standings(entrants(1, 2, 3), seats, [Bye(1, 3)]))
    assert rows[1].later_seat == approx(1.0)  # round 1's seats are unknown: left out
    assert rows[2].later_seat == approx(0.0)
    assert rows[3].later_seat == approx(0.5)  # no games: neither early nor late


def test_the_seat_rule_is_offered_but_not_a_default_tie_break():
    from ladder.standings import DEFAULT_TIEBREAKS, TIEBREAKS

    assert "later_seat" in TIEBREAKS
    assert "later_seat" not in DEFAULT_TIEBREAKS
    with pytest.raises(ValueError, match="unknown tie-break"):
        standings(entrants(1), [], [], tiebreaks=["earlier_seat"])
