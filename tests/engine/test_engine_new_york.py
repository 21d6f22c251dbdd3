"""New York (docs/rules.md §3): map totals, set-up, cards, tickets, routes, the end and scoring."""

import json
from collections import Counter
from pathlib import Path

import pytest
from engine_testkit import arrange, give_routes, hand, route_id, started

import games.engine as E
from games.engine.mapdata import load_map
from games.engine.rules.turns import finish

SHARED = Path("/work/shared/data/new_york.json")
NY_COLORS = ("pink", "blue", "green", "black", "red", "orange")


def ny(seats=3, seed=0, first=0):
    return started(seed=seed, seats=seats, variant="standard", first=first, ruleset="new_york")


def test_new_york_totals():
    b = load_map("new_york")
    assert len(b.cities) == 15
    assert len(b.attractions) == 9
    assert len(b.routes) == 41
    assert len({r.double_group for r in b.routes if r.double_group is not None}) == 11
    assert sum(r.length for r in b.routes) == 84
    assert len(b.tickets) == 18
    assert [t.id for t in b.tickets] == [f"T{i}" for i in range(1, 19)]
    assert not any(r.tunnel or r.ferry_locomotives for r in b.routes)
    assert dict(b.scoring) == {1: 1, 2: 2, 3: 4, 4: 7}


def test_the_map_copy_matches_the_shared_data():
    if not SHARED.exists():
        pytest.skip("no shared data folder here")
    copy = Path(__file__).resolve().parents[2] / "games" / "engine" / "maps" / "new_york.json"
    assert json.loads(copy.read_text()) == json.loads(SHARED.read_text())


def test_board_marks_tourist_attractions_and_keeps_the_route_keys():
    d = E.board("new_york")
    marked = {c["name"] for c in d["cities"] if c["tourist_attraction"]}
    assert marked == {
        "Brooklyn", "Central Park", "Chelsea", "Chinatown", "Empire State Building",
        "Greenwich Village", "Times Square", "United Nations", "Wall Street",
    }  # fmt: skip
    assert all(c["big_city"] is False for c in d["cities"])
    assert set(d["routes"][0]) == {
        "id", "a", "b", "length", "color", "tunnel", "ferry_locomotives", "double_group",
    }  # fmt: skip
    assert all(r["tunnel"] is False and r["ferry_locomotives"] == 0 for r in d["routes"])
    assert d["routes"][0]["double_group"] == 1 and d["routes"][2]["double_group"] is None
    assert d["cards"] == {"colors": list(NY_COLORS), "wild": "locomotive",
                          "wild_display_name": "taxi", "per_color": 6, "wild_count": 8}  # fmt: skip
    assert E.board("europe")["cards"]["wild_display_name"] == "locomotive"
    assert json.loads(json.dumps(d)) == d


def test_variants_and_setup_arguments():
    assert E.VARIANTS["new_york"] == ("standard",)
    assert E.new_game(ruleset="new_york").variant == "standard"
    for bad in (
        {"seats": 1},
        {"seats": 5},
        {"variant": "classic"},
        {"options": {"warehouses": True}},
        {"options": {"bonus_tickets": True}},
    ):
        with pytest.raises(E.InvalidSetup):
            E.new_game(ruleset="new_york", **bad)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_deals_two_cards_and_two_tickets(seats):
    s = E.new_game(ruleset="new_york", seats=seats, seed=seats)
    cards = Counter(s.deck + [c for c in s.faceup if c >= 0] + s.discard)
    for h in s.hands:
        assert sum(h) == 2
        cards.update(dict(enumerate(h)))
    assert dict(cards) == {**dict.fromkeys(range(6), 6), 6: 8}  # 44 cards, 8 taxis
    assert len(s.faceup) == 5 and s.faceup.count(6) < 3
    assert all(len(o) == 2 for o in s.offers) and len(s.ticket_deck) == 18 - 2 * seats
    view = E.view_for(s, 0)
    assert set(view["you"]["hand"]) == {*NY_COLORS, "locomotive"}
    assert all(p["trains_left"] == 15 and p["stations_left"] == 0 for p in view["players"])


def test_setup_keep_at_least_one_returns_go_under_the_deck():
    s = E.new_game(ruleset="new_york", seats=2, seed=4)
    offer0 = [s.board.tickets[i].id for i in s.offers[0]]
    legal = E.legal_actions(s, 0)
    assert sorted(len(a["tickets"]) for a in legal) == [1, 1, 2]
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "keep_tickets", "tickets": []})
    assert e.value.code == "too_few_tickets"
    E.apply_action(s, 0, {"type": "keep_tickets", "tickets": offer0[:1]})
    offer1 = [s.board.tickets[i].id for i in s.offers[1]]
    E.apply_action(s, 1, {"type": "keep_tickets", "tickets": offer1})
    assert s.phase == "turn"
    bottom = {s.board.tickets[i].id for i in s.ticket_deck[:1]}
    assert bottom == {offer0[1]} and len(s.ticket_deck) == 15


def test_draw_two_tickets_keep_at_least_one():
    s = ny()
    E.apply_action(s, 0, {"type": "draw_tickets"})
    offer = [s.board.tickets[i].id for i in s.offers[0]]
    assert len(offer) == 2
    legal = E.legal_actions(s, 0)
    assert sorted(len(a["tickets"]) for a in legal) == [1, 1, 2]
    E.apply_action(s, 0, {"type": "keep_tickets", "tickets": [offer[1]]})
    assert s.board.tickets[s.ticket_deck[0]].id == offer[0]  # returned under the deck


def test_with_one_ticket_left_it_is_drawn_and_kept():
    s = ny()
    s.boxed += s.ticket_deck[1:]
    s.ticket_deck = s.ticket_deck[:1]
    only = s.board.tickets[s.ticket_deck[0]].id
    E.apply_action(s, 0, {"type": "draw_tickets"})
    assert E.view_for(s, 0)["pending"] == {"type": "keep_tickets", "seat": 0, "count": 1}
    assert E.legal_actions(s, 0) == [{"type": "keep_tickets", "tickets": [only]}]
    E.apply_action(s, 0, {"type": "keep_tickets", "tickets": [only]})
    assert s.ticket_deck == [] and {"type": "draw_tickets"} not in E.legal_actions(s, 1)


def test_blue_three_route_payments_from_the_rulebook():
    # "Du kannst eine blaue Strecke mit drei Feldern nutzen": 3 blue, 2 blue + 1 taxi,
    # 1 blue + 2 taxis or 3 taxis (never another colour)
    s = ny()
    rid = route_id(s, "Brooklyn", "Wall Street", "blue")
    arrange(s, hands={0: {"blue": 3, "red": 3, "locomotive": 3}})
    pays = [a["cards"] for a in E.legal_actions(s, 0) if a.get("route") == rid]
    assert sorted(pays, key=json.dumps) == sorted(
        [{"blue": 3}, {"blue": 2, "locomotive": 1}, {"blue": 1, "locomotive": 2},
         {"locomotive": 3}], key=json.dumps)  # fmt: skip
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"red": 3}})
    assert e.value.code == "wrong_color"
    E.apply_action(
        s, 0, {"type": "claim_route", "route": rid, "cards": {"blue": 1, "locomotive": 2}}
    )
    assert (
        s.trains[0] == 12
        and s.scores[0] == 4
        and hand(s, 0) == {"blue": 2, "red": 3, "locomotive": 1}
    )


def test_gray_routes_take_any_one_colour():
    s = ny()
    rid = route_id(s, "Soho", "Wall Street")
    arrange(s, hands={0: {"orange": 1, "green": 1, "locomotive": 1}})
    pays = [a["cards"] for a in E.legal_actions(s, 0) if a.get("route") == rid]
    assert {"orange": 1, "green": 1} not in pays
    assert {"orange": 1, "locomotive": 1} in pays and {"green": 1, "locomotive": 1} in pays
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "claim_route", "route": rid,
                              "cards": {"orange": 1, "green": 1}})  # fmt: skip
    assert e.value.code == "mixed_colors"


def test_enough_taxis_are_needed():
    s = ny()
    rid = route_id(s, "Chelsea", "Soho")  # 4 spaces
    arrange(s, hands={0: {"pink": 4}})
    s.trains[0] = 3
    assert not any(a.get("route") == rid for a in E.legal_actions(s, 0))
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"pink": 4}})
    assert e.value.code == "not_enough_trains"


def test_no_stations_tunnels_or_ferries():
    s = ny()
    arrange(s, hands={0: {"pink": 5, "locomotive": 5}})
    kinds = {a["type"] for a in E.legal_actions(s, 0)}
    assert kinds == {"draw_card", "draw_tickets", "claim_route"}
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "build_station", "city": "Soho", "cards": {"pink": 1}})
    assert e.value.code == "no_stations_left"


def test_double_routes_two_players_only_one_twin():
    s = ny(seats=2)
    orange, red = (
        route_id(s, "Brooklyn", "Chinatown", "orange"),
        route_id(s, "Brooklyn", "Chinatown", "red"),
    )
    arrange(s, hands={0: {"orange": 3}, 1: {"red": 3}})
    E.apply_action(s, 0, {"type": "claim_route", "route": orange, "cards": {"orange": 3}})
    assert not any(a.get("route") == red for a in E.legal_actions(s, 1))
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 1, {"type": "claim_route", "route": red, "cards": {"red": 3}})
    assert e.value.code == "double_route_closed"


@pytest.mark.parametrize("seats", [3, 4])
def test_double_routes_three_or_four_players_not_both_for_one(seats):
    s = ny(seats=seats)
    orange, red = (
        route_id(s, "Brooklyn", "Chinatown", "orange"),
        route_id(s, "Brooklyn", "Chinatown", "red"),
    )
    arrange(s, hands={0: {"orange": 3, "red": 3}, 1: {"red": 3}})
    E.apply_action(s, 0, {"type": "claim_route", "route": orange, "cards": {"orange": 3}})
    s.current = 0
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "claim_route", "route": red, "cards": {"red": 3}})
    assert e.value.code == "double_route_own"
    s.current = 1
    E.apply_action(s, 1, {"type": "claim_route", "route": red, "cards": {"red": 3}})
    assert s.owner[s.board.route_index[red]] == 1


def test_three_face_up_taxis_are_replaced_and_a_taxi_ends_the_draw():
    s = ny()
    arrange(
        s,
        faceup=["locomotive", "locomotive", "pink", "blue", "green"],
        deck_top=["locomotive", "red", "red", "red", "red", "red"],
    )
    E.apply_action(s, 0, {"type": "draw_card", "source": "faceup", "slot": 2})
    # the replacement taxi made three: all five were discarded and replaced
    assert s.faceup == [4] * 5 and s.phase == "draw2"
    assert any(e["type"] == "faceup_refresh" for e in s.log)
    s2 = ny()
    arrange(s2, faceup=["locomotive", "pink", "blue", "green", "red"])
    E.apply_action(s2, 0, {"type": "draw_card", "source": "faceup", "slot": 0})
    assert s2.phase == "turn" and s2.current == 1  # a face-up taxi is the whole draw
    s3 = ny()
    arrange(s3, faceup=["pink", "locomotive", "blue", "green", "red"])
    E.apply_action(s3, 0, {"type": "draw_card", "source": "faceup", "slot": 0})
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s3, 0, {"type": "draw_card", "source": "faceup", "slot": 1})
    assert e.value.code == "second_locomotive"


def test_the_end_comes_at_two_or_fewer_taxis():
    s = ny(seats=3, first=1)
    rid = route_id(s, "Chelsea", "Soho")
    arrange(s, hands={1: {"pink": 4}})
    s.trains[1] = 6
    E.apply_action(s, 1, {"type": "claim_route", "route": rid, "cards": {"pink": 4}})
    assert s.last_round == 1 and s.turns_left == 3
    for seat in (2, 0, 1):  # everyone, the trigger included, plays once more
        assert not E.is_terminal(s) and s.current == seat
        E.apply_action(s, seat, {"type": "draw_tickets"})
        keep = E.legal_actions(s, seat)[0]
        E.apply_action(s, seat, keep)
    assert E.is_terminal(s) and E.final_result(s)["reason"] == "last_round"


def test_three_taxis_left_is_not_the_end():
    s = ny(seats=2)
    arrange(s, hands={0: {"pink": 4}})
    s.trains[0] = 7
    E.apply_action(s, 0, {"type": "claim_route", "route": route_id(s, "Chelsea", "Soho"),
                          "cards": {"pink": 4}})  # fmt: skip
    assert s.trains[0] == 3 and s.last_round == -1


def test_scoring_routes_tickets_and_tourist_attractions():
    s = ny(seats=2)
    s.tickets = [[s.board.ticket_index["T15"]], [s.board.ticket_index["T10"]]]
    # seat 0: Lower East Side - Chinatown (1) - Wall Street (1) completes T15 (2 points),
    # touches Chinatown and Wall Street; Chelsea - Soho (4): Chelsea
    give_routes(s, 0, [route_id(s, "Chinatown", "Lower East Side"),
                       route_id(s, "Chinatown", "Wall Street", "green"),
                       route_id(s, "Chelsea", "Soho")])  # fmt: skip
    # seat 1: East Village - Lower East Side (1): no attraction; T10 failed (-4)
    give_routes(s, 1, [route_id(s, "East Village", "Lower East Side")])
    finish(s, "last_round")
    p0, p1 = E.final_result(s)["players"]
    assert p0["route_points"] == 1 + 1 + 7 and p0["ticket_points"] == 2
    assert p0["attractions"] == ["Chelsea", "Chinatown", "Wall Street"]
    assert p0["attraction_points"] == 3
    assert p0["longest_path"] == 0 and p0["longest_path_bonus"] == 0
    assert p0["longest_path_routes"] == [] and p0["station_bonus"] == 0
    assert p0["score"] == 9 + 2 + 3
    assert p1["score"] == 1 - 4 and p1["attractions"] == [] and p1["attraction_points"] == 0
    assert [p0["rank"], p1["rank"]] == [1, 2]
    assert E.view_for(s, None)["players"][0]["attractions"] == p0["attractions"]


def test_an_attraction_counts_once_however_many_routes_touch_it():
    s = ny(seats=2)
    s.tickets = [[], []]
    give_routes(s, 0, [route_id(s, "Brooklyn", "Chinatown", "red"),
                       route_id(s, "Brooklyn", "Wall Street", "blue")])  # fmt: skip
    finish(s, "last_round")
    p0 = E.final_result(s)["players"][0]
    assert p0["attractions"] == ["Chinatown", "Wall Street", "Brooklyn"]  # map order
    assert p0["attraction_points"] == 3 and p0["score"] == 4 + 4 + 3


def test_ties_more_completed_tickets_then_shared_places():
    s = ny(seats=3)
    t = s.board.ticket_index
    # seat 0: 1+1+7 route points, Chinatown Wall Street Chelsea, T15 done, T12 failed: 11
    give_routes(s, 0, [19, 21, 16])
    # seat 1: 2+2+1+2, Central Park Times Square Empire State Chelsea, T13 T4 done, T1 failed
    give_routes(s, 1, [6, 37, 28, 10])
    # seat 2: 4+2+2, Chelsea Greenwich Village Wall Street, T8 done, T14 failed: 11
    give_routes(s, 2, [13, 35, 40])
    s.tickets = [[t["T15"], t["T12"]], [t["T13"], t["T4"], t["T1"]], [t["T8"], t["T14"]]]
    finish(s, "last_round")
    ps = E.final_result(s)["players"]
    assert [p["score"] for p in ps] == [11, 11, 11]
    assert [p["completed_tickets"] for p in ps] == [1, 2, 1]
    assert [p["rank"] for p in ps] == [2, 1, 2]
