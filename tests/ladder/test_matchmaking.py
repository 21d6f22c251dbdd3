"""The pure matchmaker: who sits together, and how the window widens (issue 7)."""

from ladder.matchmaking import MAX_WINDOW, Waiter, form_tables, window


def w(key, rating, sizes=(2, 2), waited=0.0):
    return Waiter(key, float(rating), sizes[0], sizes[1], waited)


def keys(groups):
    return [sorted(x.key for x in g) for g in groups]


def test_two_close_players_wanting_two_seats_are_matched_at_once():
    assert keys(form_tables([w("a", 1500), w("b", 1550)])) == [["a", "b"]]


def test_players_far_apart_wait_until_their_windows_widen():
    far = [w("a", 1500), w("b", 1800)]
    assert form_tables(far) == []
    patient = [w("a", 1500, waited=60), w("b", 1800, waited=45)]
    assert keys(form_tables(patient)) == [["a", "b"]]


def test_the_window_widens_with_waiting_and_stops_at_a_cap():
    assert window(0) == 100
    assert window(20) == 200
    assert window(10_000) == MAX_WINDOW


def test_everyone_must_accept_the_spread_not_just_the_long_waiter():
    # a waited long (window 600) but b just came (window 100): 300 apart is too far for b
    assert form_tables([w("a", 1500, waited=100), w("b", 1800)]) == []


def test_sizes_must_agree():
    assert form_tables([w("a", 1500, (2, 2)), w("b", 1500, (3, 3))]) == []


def test_any_of_three_or_four_takes_the_largest_table_available():
    queue = [w(k, 1500 + i, (3, 4)) for i, k in enumerate("abcd")]
    assert keys(form_tables(queue)) == [["a", "b", "c", "d"]]
    assert keys(form_tables(queue[:3])) == [["a", "b", "c"]]
    assert form_tables(queue[:2]) == []


def test_the_nearest_ratings_sit_together():
    queue = [w("a", 1500, waited=5), w("b", 1520), w("c", 1580), w("d", 1600)]
    assert keys(form_tables(queue)) == [["a", "b"], ["c", "d"]]


def test_each_player_is_in_one_group_at_most():
    queue = [w(i, 1500 + (i % 7) * 30, (2, 5), waited=i) for i in range(50)]
    groups = form_tables(queue)
    seated = [x.key for g in groups for x in g]
    assert len(seated) == len(set(seated))
    assert all(2 <= len(g) <= 5 for g in groups)
