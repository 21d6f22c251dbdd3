"""Stations (docs/rules.md 1.3.4), the last round, passing and the end of the game (1.4)."""

import pytest
from engine_testkit import arrange, cards_total, give_routes, hand, route_id, snapshot, started

import games.engine as E


def build(s, seat, city, cards):
    return E.apply_action(s, seat, {"type": "build_station", "city": city, "cards": cards})


def station_payments(s, seat, city):
    return [
        a["cards"]
        for a in E.legal_actions(s, seat)
        if a["type"] == "build_station" and a["city"] == city
    ]


def test_station_costs_one_two_three_cards_of_one_colour_locomotives_wild():
    s = started(seats=2)
    arrange(s, hands={0: {"red": 3, "blue": 1, "locomotive": 2}})
    assert sorted(station_payments(s, 0, "Wien"), key=str) == sorted(
        [{"red": 1}, {"blue": 1}, {"locomotive": 1}], key=str
    )
    build(s, 0, "Wien", {"blue": 1})
    assert s.stations_left[0] == 2 and s.current == 1
    s.current = 0
    assert {"red": 1, "locomotive": 1} in station_payments(s, 0, "Berlin")
    assert {"red": 1} not in station_payments(s, 0, "Berlin")
    before = snapshot(s)
    for cards, code in [
        ({"red": 1}, "wrong_card_count"),
        ({"red": 1, "blue": 1}, "mixed_colors"),
        ({"green": 2}, "insufficient_cards"),
    ]:
        with pytest.raises(E.IllegalAction) as e:
            build(s, 0, "Berlin", cards)
        assert e.value.code == code and snapshot(s) == before
    build(s, 0, "Berlin", {"red": 1, "locomotive": 1})
    s.current = 0
    build(s, 0, "Roma", {"red": 2, "locomotive": 1})
    assert s.stations_left[0] == 0 and hand(s, 0) == {}
    assert E.view_for(s, None)["players"][0]["stations"] == ["Wien", "Berlin", "Roma"]
    s.current = 0
    arrange(s, hands={0: {"red": 5}})
    assert station_payments(s, 0, "Paris") == []
    with pytest.raises(E.IllegalAction) as e:
        build(s, 0, "Paris", {"red": 3})
    assert e.value.code == "no_stations_left"
    assert cards_total(s) == 110


def test_one_station_per_city_for_any_player_even_without_routes():
    s = started(seats=3)
    arrange(s, hands={0: {"red": 1}, 1: {"red": 1}})
    build(s, 0, "Edinburgh", {"red": 1})
    assert station_payments(s, 1, "Edinburgh") == []
    with pytest.raises(E.IllegalAction) as e:
        build(s, 1, "Edinburgh", {"red": 1})
    assert e.value.code == "city_has_station"
    with pytest.raises(E.IllegalAction) as e:
        build(s, 1, "Atlantis", {"red": 1})
    assert e.value.code == "unknown_city"


def test_last_round_everyone_including_the_trigger_plays_once_more():
    s = started(seats=3)
    arrange(s, hands={0: {"red": 3}, 1: {"red": 1}, 2: {"red": 1}})
    s.trains[0] = 4
    rid = route_id(s, "Kyiv", "Wilno")  # gray 2
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"red": 2}})
    assert s.trains[0] == 2 and s.last_round == 0 and s.turns_left == 3
    view = E.view_for(s, None)
    assert view["last_round"] == {"active": True, "triggered_by": 0, "turns_left": 3}
    for seat in (1, 2, 0):
        assert E.current_seats(s) == [seat] and not E.is_terminal(s)
        E.apply_action(s, seat, {"type": "draw_card", "source": "deck"})
        E.apply_action(s, seat, {"type": "draw_card", "source": "deck"})
    assert E.is_terminal(s) and E.current_seats(s) == []
    assert all(E.legal_actions(s, seat) == [] for seat in range(3))
    assert E.final_result(s)["reason"] == "last_round"
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "pass"})
    assert e.value.code == "game_over"


def test_pass_only_when_nothing_else_and_a_round_of_passes_ends_the_game():
    s = started(seats=2)
    everything = {"pink": 12, "white": 12, "blue": 12, "yellow": 12, "orange": 12,
                  "black": 12, "red": 12, "green": 12, "locomotive": 14}  # fmt: skip
    arrange(s, hands={1: everything}, faceup=[None] * 5, deck_rest=False)
    s.discard = []
    s.boxed += s.ticket_deck
    s.ticket_deck = []
    s.stations_left[0] = 0
    assert E.legal_actions(s, 0) == [{"type": "pass"}]
    E.apply_action(s, 0, {"type": "pass"})
    assert s.passes == 1 and s.current == 1
    assert {"type": "pass"} not in E.legal_actions(s, 1)
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 1, {"type": "pass"})
    assert e.value.code == "pass_not_allowed"
    s.stations_left[1] = 0
    s.trains[1] = 0
    assert E.legal_actions(s, 1) == [{"type": "pass"}]
    E.apply_action(s, 1, {"type": "pass"})
    assert E.is_terminal(s) and E.final_result(s)["reason"] == "all_passed"


def test_a_pass_streak_is_broken_by_any_other_turn():
    s = started(seats=2)
    arrange(s, hands={1: {"red": 1}}, faceup=[None] * 5, deck_rest=False)
    s.hands[1] = [12, 12, 12, 12, 12, 12, 12, 12, 14]
    s.discard, s.ticket_deck, s.stations_left = [], [], [0, 3]
    E.apply_action(s, 0, {"type": "pass"})
    build(s, 1, "Wien", {"red": 1})
    assert s.passes == 0 and s.discard == [] and s.faceup[0] == 6  # refilled at end of turn
    assert not E.is_terminal(s)


def test_final_scores_add_up_with_tickets_stations_and_longest_path():
    s = started(seats=2)
    s.tickets = [[s.board.ticket_index["E1"]], []]  # Amsterdam-Pamplona 7
    ab = route_id(s, "Amsterdam", "Bruxelles")
    bp = route_id(s, "Bruxelles", "Paris", "red")
    give_routes(s, 0, [ab, bp, route_id(s, "Pamplona", "Paris", "blue")])
    s.stations_left = [3, 2]
    s.stations_of[1] = [s.board.city_index["Roma"]]
    from games.engine.rules.turns import finish

    finish(s, "last_round")
    a, b = E.final_result(s)["players"]
    assert a["route_points"] == 1 + 2 + 7 and a["tickets"][0]["completed"] is True
    assert a["longest_path"] == 7 and a["longest_path_bonus"] == 10
    assert a["score"] == 10 + 7 + 12 + 10 and a["rank"] == 1
    assert b["score"] == 0 + 0 + 8 and b["rank"] == 2 and b["station_bonus"] == 8
    assert s.scores == [a["score"], b["score"]]
    assert E.view_for(s, None)["final"]["players"][0]["score"] == a["score"]
