"""Warehouses & Depots (docs/rules.md §2): set-up depots, warehouse cards, free depots, taking
warehouses with a claim, the warehouse reshuffle, the depot bonus, views and round trips."""

import json

import pytest
from engine_testkit import arrange, cards_total, hand, route_id, snapshot, started

import games.engine as E
from games.engine.rules.turns import finish

WH = {"warehouses": True}
DEPOTS = {0: "Roma", 1: "Wien", 2: "Budapest", 3: "Zagrab"}
WIEN_BUDAPEST = 38  # red, length 1 (its twin 39 is white)


def wh(seats=4, seed=0, first=0, variant="classic", depots=None):
    return started(seed=seed, seats=seats, variant=variant, first=first, options=WH,
                   depots=DEPOTS if depots is None else depots)  # fmt: skip


def kept(seed=0, seats=4, variant="classic"):
    """A warehouse game right after the ticket choice (phase ``depots``)."""
    s = E.new_game(variant=variant, seats=seats, seed=seed, options=WH)
    for seat in range(seats):
        E.apply_action(s, seat, max(E.legal_actions(s, seat), key=lambda a: len(a["tickets"])))
    return s


def err(s, seat, action):
    before = snapshot(s)
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, seat, action)
    assert snapshot(s) == before
    return e.value.code


# -- set-up -------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", E.VARIANTS["europe"])
def test_every_europe_variant_takes_the_option(variant):
    s = E.new_game(variant=variant, seats=3, options=WH)
    assert s.depots_left == [5, 5, 5] and s.warehouses == [[], [], []]
    assert E.view_for(s, None)["options"] == WH
    with pytest.raises(E.InvalidSetup):
        E.new_game(variant=variant, options={"warehouses": 1})


def test_without_the_option_there_are_no_depots():
    s = started()
    assert s.depots_left == [0] * 4
    assert not any(a["type"] == "place_depot" for a in E.legal_actions(s, 0))
    assert all(p["depots_left"] == 0 and p["depots"] == [] for p in E.view_for(s, 0)["players"])


@pytest.mark.parametrize(("first", "order"), [(0, [3, 2, 1, 0]), (2, [1, 0, 3, 2])])
def test_initial_depots_last_in_turn_order_first_then_counter_clockwise(first, order):
    s = E.new_game(seats=4, seed=0, options=WH)
    s.first = first
    for seat in range(4):
        assert s.phase == "setup"
        E.apply_action(s, seat, E.legal_actions(s, seat)[0])
    assert s.phase == "depots" and E.current_seats(s) == [order[0]]
    assert E.view_for(s, None)["pending"] == {
        "type": "initial_depots", "seat": order[0], "order": order,
    }  # fmt: skip
    cities = ["Wien", "Paris", "Roma", "Berlin"]
    for seat, city in zip(order, cities, strict=True):
        assert E.current_seats(s) == [seat]
        legal = E.legal_actions(s, seat)
        assert {a["type"] for a in legal} == {"place_depot"}
        assert len(legal) == 47 - cities.index(city)  # any city without a depot
        for other in set(range(4)) - {seat}:
            assert E.legal_actions(s, other) == []
        assert err(s, seat, {"type": "draw_tickets"}) == "stale_phase"
        E.apply_action(s, seat, {"type": "place_depot", "city": city})
    assert s.phase == "turn" and s.current == first and s.turn == 0
    assert s.depots_left == [4] * 4
    types = [e["type"] for e in s.log]
    assert types[-1] == "play_start" and types.count("place_depot") == 4
    assert types.index("initial_depots") > max(
        i for i, t in enumerate(types) if t == "keep_tickets"
    )


def test_initial_depot_one_per_city():
    s = kept()
    seat = s.current
    E.apply_action(s, seat, {"type": "place_depot", "city": "Wien"})
    assert {"type": "place_depot", "city": "Wien"} not in E.legal_actions(s, s.current)
    assert err(s, s.current, {"type": "place_depot", "city": "Wien"}) == "city_has_depot"


# -- the warehouse card ---------------------------------------------------------------------


def test_every_draw_names_a_warehouse_for_the_top_card():
    s = wh()
    arrange(s, faceup=["red", "blue", "green", "white", "black"], deck_top=["pink", "yellow"])
    draws = [a for a in E.legal_actions(s, 0) if a["type"] == "draw_card"]
    assert len(draws) == 6 * 4  # (deck + 5 face-up) x 4 warehouses
    assert {"type": "draw_card", "source": "deck", "warehouse": 2} in draws
    assert err(s, 0, {"type": "draw_card", "source": "deck"}) == "warehouse_required"
    E.apply_action(s, 0, {"type": "draw_card", "source": "deck", "warehouse": 2})
    assert [len(w) for w in s.warehouses] == [0, 0, 1, 0]
    assert s.warehouses[2] == [0]  # the pink top card, unseen
    assert hand(s, 0) == {"yellow": 1}  # then the draw as usual
    # the second card: no warehouse card
    second = E.legal_actions(s, 0)
    assert all("warehouse" not in a for a in second)
    assert (
        err(s, 0, {"type": "draw_card", "source": "deck", "warehouse": 1})
        == "warehouse_not_allowed"
    )
    E.apply_action(s, 0, {"type": "draw_card", "source": "faceup", "slot": 0})
    assert s.current == 1 and [len(w) for w in s.warehouses] == [0, 0, 1, 0]


def test_own_warehouse_and_face_up_draws_too():
    s = wh()
    arrange(s, faceup=["locomotive", "blue", "green", "white", "black"], deck_top=["red", "red"])
    E.apply_action(s, 0, {"type": "draw_card", "source": "faceup", "slot": 0, "warehouse": 0})
    assert s.warehouses[0] == [6] and hand(s, 0) == {"locomotive": 1}
    assert s.faceup[0] == 6  # the replacement came after the warehouse card
    assert s.current == 1  # a face-up locomotive is the whole draw
    entry = [e for e in s.log if e["type"] == "warehouse_card"][-1]
    assert entry == {"seq": entry["seq"], "seat": 0, "type": "warehouse_card", "warehouse": 0}


def test_warehouse_must_be_a_seat():
    s = wh(seats=3)
    assert err(s, 0, {"type": "draw_card", "source": "deck", "warehouse": 3}) == (
        "invalid_warehouse"
    )
    assert err(s, 0, {"type": "draw_card", "source": "deck", "warehouse": -1}) == (
        "invalid_warehouse"
    )


def test_a_deck_draw_needs_a_card_after_the_warehouse_card():
    s = wh()
    arrange(s, faceup=["green"] * 5, deck_top=["pink"], deck_rest=False)
    for c in s.discard:  # park the other cards in a hand: no discard pile
        s.hands[3][c] += 1
    s.discard = []
    assert len(s.deck) == 1
    legal = E.legal_actions(s, 0)
    assert not any(a.get("source") == "deck" for a in legal)  # the only card goes away
    assert {"type": "draw_card", "source": "faceup", "slot": 0, "color": "green",
            "warehouse": 1} in legal  # fmt: skip
    assert err(s, 0, {"type": "draw_card", "source": "deck", "warehouse": 1}) == "deck_empty"
    E.apply_action(s, 0, {"type": "draw_card", "source": "faceup", "slot": 0, "warehouse": 1})
    assert s.warehouses[1] == [0] and s.deck == [] and s.faceup[0] == -1
    # no blind card left: no warehouse card is due
    assert all("warehouse" not in a for a in E.legal_actions(s, 0))


def test_one_blind_card_and_nothing_else_to_do_is_a_pass():
    s = wh()
    arrange(s, faceup=[None] * 5, deck_top=["pink"], deck_rest=False)
    for c in s.discard:
        s.hands[3][c] += 1
    s.discard = []
    s.boxed += s.ticket_deck
    s.ticket_deck = []
    # the only blind card would go to a warehouse, leaving nothing to draw
    legal = E.legal_actions(s, 0)
    assert legal[0] == {"type": "pass"} and {a["type"] for a in legal} == {"pass", "place_depot"}
    E.apply_action(s, 0, {"type": "pass"})
    assert s.current == 1 and s.faceup[0] == 0  # refilled at the end of the turn


def test_no_blind_card_no_warehouse_card():
    s = wh()
    arrange(s, faceup=["green"] * 5, deck_rest=False)
    for c in s.discard:
        s.hands[3][c] += 1
    s.discard = []
    draws = [a for a in E.legal_actions(s, 0) if a["type"] == "draw_card"]
    assert draws and all(a["source"] == "faceup" and "warehouse" not in a for a in draws)
    assert (
        err(s, 0, {"type": "draw_card", "source": "faceup", "slot": 0, "warehouse": 0})
        == "warehouse_not_allowed"
    )


# -- free depots ----------------------------------------------------------------------------


def test_free_depots_alongside_the_turn():
    s = wh()
    arrange(s, faceup=["red", "blue", "green", "white", "black"], deck_top=["pink", "yellow"])
    legal = E.legal_actions(s, 0)
    free = [a for a in legal if a["type"] == "place_depot"]
    assert len(free) == 47 - 4
    turn, log_len = s.turn, len(s.log)
    E.apply_action(s, 0, {"type": "place_depot", "city": "Paris"})
    E.apply_action(s, 0, {"type": "place_depot", "city": "London"})
    # the turn goes on: same phase, seat and turn counter
    assert s.phase == "turn" and s.current == 0 and s.turn == turn
    assert E.view_for(s, 1)["players"][0]["depots"] == ["Roma", "Paris", "London"]
    assert E.view_for(s, 1)["players"][0]["depots_left"] == 2
    assert [e["type"] for e in s.log[log_len:]] == ["place_depot", "place_depot"]
    assert s.log[-1]["depots_left"] == 2
    E.apply_action(s, 0, {"type": "draw_card", "source": "deck", "warehouse": 3})
    E.apply_action(s, 0, {"type": "draw_card", "source": "deck"})
    assert s.current == 1 and s.turn == turn + 1
    # only the current seat, only in phase turn (not during the second draw)
    assert err(s, 0, {"type": "place_depot", "city": "Madrid"}) == "not_your_turn"
    E.apply_action(s, 1, {"type": "draw_card", "source": "faceup", "slot": 0, "warehouse": 0})
    assert s.phase == "draw2"
    assert err(s, 1, {"type": "place_depot", "city": "Madrid"}) == "stale_phase"


def test_all_depots_placed_then_no_more():
    s = wh()
    for city in ("Paris", "London", "Madrid", "Lisboa"):
        E.apply_action(s, 0, {"type": "place_depot", "city": city})
    assert s.depots_left[0] == 0
    assert not any(a["type"] == "place_depot" for a in E.legal_actions(s, 0))
    assert err(s, 0, {"type": "place_depot", "city": "Cadiz"}) == "no_depots_left"


def test_depot_beside_a_station_is_refused_and_the_other_way_round():
    s = wh()
    arrange(s, hands={0: {"red": 2}, 1: {"red": 2}})
    E.apply_action(s, 0, {"type": "build_station", "city": "Paris", "cards": {"red": 1}})
    # a depot on a station city
    assert {"type": "place_depot", "city": "Paris"} not in E.legal_actions(s, 1)
    assert err(s, 1, {"type": "place_depot", "city": "Paris"}) == "city_has_station"
    # a station on a depot city (Wien: seat 1's initial depot)
    assert not any(
        a["type"] == "build_station" and a["city"] == "Wien" for a in E.legal_actions(s, 1)
    )
    assert (
        err(s, 1, {"type": "build_station", "city": "Wien", "cards": {"red": 2}})
        == "city_has_depot"
    )


def test_passing_is_allowed_even_with_depots_to_place():
    s = wh()
    arrange(s, faceup=[None] * 5, deck_rest=False)
    for c in s.discard:
        s.hands[3][c] += 1
    s.discard = []
    s.boxed += s.ticket_deck
    s.ticket_deck = []
    s.hands[0] = [0] * 9
    legal = E.legal_actions(s, 0)
    assert legal[0] == {"type": "pass"}
    assert {a["type"] for a in legal} == {"pass", "place_depot"}
    E.apply_action(s, 0, {"type": "place_depot", "city": "Paris"})
    E.apply_action(s, 0, {"type": "pass"})
    assert s.current == 1


# -- taking warehouses ----------------------------------------------------------------------


def test_claim_into_a_depot_city_may_take_that_warehouse():
    s = wh()
    rid = route_id(s, "Berlin", "Wien")  # green 3; Wien: seat 1's depot
    arrange(s, hands={0: {"green": 3}}, warehouses={1: ["red", "blue", "blue"], 2: ["pink"]})
    claims = [a for a in E.legal_actions(s, 0) if a.get("route") == rid]
    assert claims == [
        {"type": "claim_route", "route": rid, "cards": {"green": 3}},
        {"type": "claim_route", "route": rid, "cards": {"green": 3}, "warehouses": [1]},
    ]
    assert (
        err(s, 0, {"type": "claim_route", "route": rid, "cards": {"green": 3}, "warehouses": [2]})
        == "warehouse_not_reachable"
    )
    E.apply_action(s, 0, claims[1])
    assert hand(s, 0) == {"red": 1, "blue": 2} and s.warehouses[1] == []
    assert (
        s.depots_left[0] == 3
        and s.depots_spent[0] == 1
        and s.depots_of[0] == [s.board.city_index["Roma"]]
    )
    assert s.owner[s.board.route_index[rid]] == 0 and s.current == 1
    public = E.log_for(s, None)[-2:]
    assert public[0]["type"] == "claim_route" and public[0]["warehouses"] == [1]
    assert public[1] == {"seq": public[1]["seq"], "seat": 0, "type": "take_warehouse",
                         "warehouse": 1, "count": 3, "depots_left": 3}  # fmt: skip
    assert E.log_for(s, 0)[-1]["cards"] == {"red": 1, "blue": 2}
    assert "cards" not in E.log_for(s, 1)[-1]  # not even the warehouse's owner


def test_without_the_key_nothing_is_taken():
    s = wh()
    rid = route_id(s, "Berlin", "Wien")
    arrange(s, hands={0: {"green": 3}}, warehouses={1: ["red"]})
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"green": 3}})
    assert s.warehouses[1] == [6] and s.depots_left[0] == 4 and hand(s, 0) == {}


def test_own_warehouse_through_own_depot():
    # "Ein Spieler darf die Karten seiner eigenen Lagerhalle an sich nehmen"
    s = wh()
    rid = route_id(s, "Roma", "Venezia")
    color = s.board.routes[s.board.route_index[rid]].color
    arrange(s, hands={0: {color: 2}}, warehouses={0: ["locomotive", "white"]})
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {color: 2},
                          "warehouses": [0]})  # fmt: skip
    assert hand(s, 0) == {"white": 1, "locomotive": 1} and s.depots_left[0] == 3


def test_route_between_two_depot_cities_takes_both_for_two_depots():
    s = wh()
    arrange(s, hands={0: {"red": 1}}, warehouses={1: ["blue"], 2: ["green", "green"]})
    claims = [a for a in E.legal_actions(s, 0) if a.get("route") == WIEN_BUDAPEST]
    assert [a.get("warehouses") for a in claims] == [None, [1], [2], [1, 2]]
    E.apply_action(s, 0, {"type": "claim_route", "route": WIEN_BUDAPEST, "cards": {"red": 1},
                          "warehouses": [2, 1]})  # fmt: skip
    assert hand(s, 0) == {"blue": 1, "green": 2} and s.depots_left[0] == 2
    assert [e["warehouse"] for e in s.log if e["type"] == "take_warehouse"] == [1, 2]


def test_two_warehouses_need_two_depots():
    s = wh()
    s.depots_left[0], s.depots_spent[0] = 1, 3
    arrange(s, hands={0: {"red": 1}}, warehouses={1: ["blue"], 2: ["green"]})
    claims = [a for a in E.legal_actions(s, 0) if a.get("route") == WIEN_BUDAPEST]
    assert [a.get("warehouses") for a in claims] == [None, [1], [2]]
    action = {"type": "claim_route", "route": WIEN_BUDAPEST, "cards": {"red": 1}}
    assert err(s, 0, dict(action, warehouses=[1, 2])) == "not_enough_depots"
    s.depots_left[0], s.depots_spent[0] = 0, 4
    claims = [a for a in E.legal_actions(s, 0) if a.get("route") == WIEN_BUDAPEST]
    assert claims == [action]
    assert err(s, 0, dict(action, warehouses=[1])) == "not_enough_depots"


def test_two_depots_of_one_seat_reach_one_warehouse_and_empty_ones_are_not_offered():
    s = wh(depots={0: "Roma", 1: "Wien", 2: "Paris", 3: "Zagrab"})
    E.apply_action(s, 0, {"type": "place_depot", "city": "Budapest"})  # seat 0 at both ends
    arrange(s, hands={0: {"red": 1}}, warehouses={0: ["blue"], 1: []})
    claims = [a for a in E.legal_actions(s, 0) if a.get("route") == WIEN_BUDAPEST]
    assert [a.get("warehouses") for a in claims] == [None, [0]]
    action = {"type": "claim_route", "route": WIEN_BUDAPEST, "cards": {"red": 1}}
    assert err(s, 0, dict(action, warehouses=[1])) == "empty_warehouse"
    assert err(s, 0, dict(action, warehouses=[0, 0])) == "invalid_warehouse"


def test_tunnel_takes_the_warehouse_only_when_built():
    s = wh(depots={0: "Roma", 1: "Zurich", 2: "Paris", 3: "Berlin"})
    rid = route_id(s, "Marseille", "Zurich")  # pink tunnel 2
    for decline in (True, False):
        t = E.from_json(E.to_json(s))
        arrange(t, hands={0: {"pink": 3}}, faceup=["white"] * 5, deck_top=["pink", "red", "red"],
                warehouses={1: ["black", "black"]})  # fmt: skip
        E.apply_action(t, 0, {"type": "claim_route", "route": rid, "cards": {"pink": 2},
                              "warehouses": [1]})  # fmt: skip
        assert t.phase == "tunnel" and E.view_for(t, None)["pending"]["warehouses"] == [1]
        assert t.warehouses[1] == [5, 5]  # nothing taken yet
        if decline:
            E.apply_action(t, 0, {"type": "decline_tunnel"})
            assert t.warehouses[1] == [5, 5] and t.depots_left[0] == 4
            assert hand(t, 0) == {"pink": 3}
        else:
            E.apply_action(t, 0, {"type": "pay_tunnel", "cards": {"pink": 1}})
            assert t.warehouses[1] == [] and t.depots_left[0] == 3
            assert hand(t, 0) == {"black": 2}
        assert cards_total(t) == 110


# -- the warehouse reshuffle ----------------------------------------------------------------


def _empty_deck(s, deck_top=()):
    """Deck = ``deck_top``, no discard; the other cards in seat 3's hand and warehouses."""
    arrange(s, faceup=["green"] * 5, deck_top=deck_top, deck_rest=False,
            warehouses={1: ["red", "red"], 2: ["blue"]})  # fmt: skip
    for c in s.discard:
        s.hands[3][c] += 1
    s.discard = []
    return s


def test_warehouses_become_the_deck_when_a_seat_has_no_depots_left():
    s = _empty_deck(wh(), deck_top=["pink"])
    s.depots_left[3], s.depots_spent[3] = 0, 4
    # blind cards: the pink one + the 3 warehouse cards (the warehouses feed the deck)
    E.apply_action(s, 0, {"type": "draw_card", "source": "deck", "warehouse": 0})
    # pink emptied the deck: at once all warehouses were emptied, shuffled, made the deck;
    # then pink went into warehouse 0 and the draw took a card of the new deck
    reshuffles = [e for e in s.log if e["type"] == "warehouse_reshuffle"]
    assert len(reshuffles) == 1 and reshuffles[0]["count"] == 3
    assert reshuffles[0]["warehouses"] == [0, 2, 1, 0]
    assert s.warehouses == [[0], [], [], []]
    assert sum(s.hands[0]) == 1 and len(s.deck) == 2 and cards_total(s) == 110


def test_a_warehouse_reshuffle_in_a_blind_draw_refreshes_the_row_before_the_second_card():
    """Rulebook: "Sollten einmal mindestens 3 der 5 offen ausliegenden Karten Lokomotiven
    sein, werden alle 5 Karten auf den Ablagestapel gelegt und 5 neue als Ersatz
    aufgedeckt." (Should 3 or more of the 5 face-up cards ever be locomotives, all 5 are
    discarded and 5 new ones turned up.) Dutch: "op een willekeurig moment" (at any moment).
    A row the cards left could not clear (docs/rules.md 1.3.1 Decision) is cleared as soon as
    the warehouses become the deck (2.6), not only at the end of the turn."""
    s = wh()
    arrange(s, faceup=["locomotive"] * 3 + ["green", "green"], deck_top=["locomotive"],
            deck_rest=False, warehouses={1: ["red", "red"], 2: ["blue"]})  # fmt: skip
    for c in s.discard:
        s.hands[3][c] += 1
    s.discard = []
    s.depots_left[3], s.depots_spent[3] = 0, 4  # the warehouses feed the deck
    # deck 1 locomotive + row 3 locomotives and 2 green: no row with fewer than 3 could come
    since = len(s.log)
    E.apply_action(s, 0, {"type": "draw_card", "source": "deck", "warehouse": 0})
    kinds = [e["type"] for e in s.log[since:]]
    # the warehouse card emptied the deck: the warehouses became the deck, the first card
    # came from it, and the row was cleared before the second card
    assert kinds.index("warehouse_reshuffle") < kinds.index("draw_card")
    assert kinds.index("draw_card") < kinds.index("faceup_refresh")
    assert s.phase == "draw2" and s.faceup.count(8) < 3 and cards_total(s) == 110
    assert all(a.get("color") != "locomotive" for a in E.legal_actions(s, 0))


def test_no_reshuffle_while_every_seat_has_depots():
    s = _empty_deck(wh())
    assert not any(a.get("source") == "deck" for a in E.legal_actions(s, 0))
    E.apply_action(s, 0, {"type": "draw_card", "source": "faceup", "slot": 0})
    assert s.warehouses[1] == [6, 6] and s.deck == []
    assert not any(e["type"] == "warehouse_reshuffle" for e in s.log)


def test_giving_up_the_last_depot_empties_the_warehouses_at_once():
    s = _empty_deck(wh())
    s.depots_left[0], s.depots_spent[0] = 1, 3
    s.hands[3][6] -= 1  # one red card from seat 3 to seat 0
    s.hands[0][6] += 1
    E.apply_action(s, 0, {"type": "claim_route", "route": WIEN_BUDAPEST, "cards": {"red": 1},
                          "warehouses": [2]})  # fmt: skip
    # seat 0 took warehouse 2 with its last depot: the condition now holds, deck and
    # discard are empty (the red card paid went to the discard: so no reshuffle yet)
    assert s.discard == [6] and s.warehouses[1] == [6, 6]
    # seat 1 draws: the discard is reshuffled first, then the warehouses
    E.apply_action(s, 1, {"type": "draw_card", "source": "deck", "warehouse": 3})
    assert [e["type"] for e in s.log if "reshuffle" in e["type"]] == [
        "reshuffle", "warehouse_reshuffle",
    ]  # fmt: skip
    assert cards_total(s) == 110


def test_placing_the_last_depot_empties_the_warehouses_when_the_deck_is_gone():
    s = _empty_deck(wh())
    for city in ("Paris", "London", "Madrid", "Lisboa"):
        E.apply_action(s, 0, {"type": "place_depot", "city": city})
    assert s.warehouses == [[], [], [], []] and len(s.deck) == 3
    assert s.log[-1]["type"] == "warehouse_reshuffle"
    assert s.phase == "turn" and s.current == 0


# -- bonus, views, round trips --------------------------------------------------------------


def test_most_unused_depots_score_ten_ties_all_get_it():
    s = wh()
    s.depots_left = [4, 2, 4, 0]
    s.depots_spent = [0, 2, 0, 4]
    finish(s, "last_round")
    ps = E.final_result(s)["players"]
    assert [p["depot_bonus"] for p in ps] == [10, 0, 10, 0]
    assert [p["depots_left"] for p in ps] == [4, 2, 4, 0]
    assert ps[1]["depots"] == ["Wien"]
    for p in ps:
        assert p["score"] == (p["route_points"] + p["ticket_points"] + p["station_bonus"]
                              + p["longest_path_bonus"] + p["depot_bonus"])  # fmt: skip


def test_every_seat_gets_the_depot_bonus_when_nobody_has_depots_left():
    """Europa 1912 rulebook: "Am Ende der Partie erhält der Spieler, der noch die meisten
    Depots ungenutzt neben seiner Lagerhalle stehen hat, 10 Punkte. Im Falle eines
    Gleichstands erhalten alle daran beteiligten Spieler diesen Bonus." (At the end the
    player with the most unused depots still beside their warehouse gets 10 points; if tied,
    every tied player gets the bonus.) With 0 left each, all are tied for the most: all get
    it (docs/rules.md 2.7)."""
    s = wh(seats=2, depots={0: "Roma", 1: "Wien"})
    s.depots_left, s.depots_spent = [0, 0], [4, 4]
    finish(s, "last_round")
    ps = E.final_result(s)["players"]
    assert [p["depot_bonus"] for p in ps] == [10, 10]
    for p in ps:
        assert p["score"] == (p["route_points"] + p["ticket_points"] + p["station_bonus"]
                              + p["longest_path_bonus"] + p["depot_bonus"])  # fmt: skip


def test_no_depot_bonus_without_the_option():
    s = started(seats=2)
    finish(s, "last_round")
    assert [p["depot_bonus"] for p in E.final_result(s)["players"]] == [0, 0]


def test_warehouse_counts_are_public_colours_secret_even_to_the_owner():
    s = wh()
    arrange(s, warehouses={1: ["red", "red", "locomotive"]})
    for viewer in (None, 0, 1, 2, 3):
        view = E.view_for(s, viewer)
        assert view["players"][1]["warehouse_count"] == 3
        assert all("warehouse" not in p for p in view["players"])
        if viewer is not None:
            assert "warehouse" not in view["you"]
    everything = E.view_for(s, "all")
    assert everything["players"][1]["warehouse"]["red"] == 2
    assert everything["players"][1]["warehouse"]["locomotive"] == 1


def test_views_show_depots_by_owner():
    s = wh()
    players = E.view_for(s, None)["players"]
    assert [p["depots"] for p in players] == [["Roma"], ["Wien"], ["Budapest"], ["Zagrab"]]
    assert [p["depots_left"] for p in players] == [4] * 4
    assert all(p["attractions"] == [] for p in players)


def test_round_trip_and_replay_with_warehouses():
    s = wh()
    arrange(s, hands={0: {"red": 1}}, warehouses={1: ["blue"], 2: ["green"]})
    E.apply_action(s, 0, {"type": "claim_route", "route": WIEN_BUDAPEST, "cards": {"red": 1},
                          "warehouses": [1, 2]})  # fmt: skip
    text = E.to_json(s)
    assert E.to_json(E.from_json(text)) == text
    params = {"variant": "classic", "seats": 3, "seed": 5, "options": WH}
    a = E.new_game(**params)
    actions = []
    for _ in range(40):
        seat = E.current_seats(a)[0]
        action = E.legal_actions(a, seat)[-1]
        actions.append([seat, action])
        E.apply_action(a, seat, action)
    assert E.to_json(E.replay(params, actions)) == E.to_json(a)


def test_a_version_1_state_loads():
    s = started()
    data = json.loads(E.to_json(s))
    for key in ("depot_at", "depots_of", "depots_left", "depots_spent", "warehouses", "log_base",
                "edition"):  # fmt: skip
        del data[key]
    data["version"] = 1
    old = E.from_json(json.dumps(data))
    assert old.version == 4 and old.depots_left == [0] * 4 and not old.wh and old.log_base == 0
    assert E.rules_edition(old) == 1  # saved before rules editions
    assert E.legal_actions(old, 0) == E.legal_actions(s, 0)
