"""Set-up per variant and destination tickets (docs/rules.md 1.2, 1.3.3, 1.8)."""

import pytest
from engine_testkit import snapshot, started

import games.engine as E

VARIANTS = E.VARIANTS["europe"]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", VARIANTS)
def test_set_up_deal(variant, seats):
    s = E.new_game(variant=variant, seats=seats, seed=7)
    assert s.phase == "setup"
    assert E.current_seats(s) == list(range(seats))  # simultaneous choice
    assert all(sum(h) == 4 for h in s.hands)
    assert len(s.faceup) == 5 and len(s.deck) == 110 - 4 * seats - 5 - len(s.discard)
    assert all(t == 45 for t in s.trains) and all(st == 3 for st in s.stations_left)
    var = s.cfg.variants[variant]
    for offer in s.offers:
        long = sum(1 for i in offer if s.board.tickets[i].kind == "long")
        assert long == var.setup_long and len(offer) - long == var.setup_regular
    long_pool, regular_pool = var.select_tickets(s.board)
    dealt = [i for o in s.offers for i in o]
    assert len(set(dealt)) == len(dealt)
    assert len(s.ticket_deck) == len(regular_pool) - seats * var.setup_regular
    assert len(s.boxed) == len(long_pool) - seats * var.setup_long
    assert 0 <= s.first < seats


@pytest.mark.parametrize(
    ("variant", "subsets"),
    [("classic", 11), ("europa_1912", 11), ("europe_extended", 11), ("mega_europe", 68),
     ("big_cities", 26)],
)  # fmt: skip
def test_set_up_keep_rule_subsets(variant, subsets):
    s = E.new_game(variant=variant, seed=1)
    legal = E.legal_actions(s, 0)
    assert len(legal) == subsets
    assert all(a["type"] == "keep_tickets" for a in legal)


def test_classic_keep_at_least_two_any_mix_and_returns_leave_the_game():
    s = E.new_game(seed=3, seats=2)
    offer = [s.board.tickets[i].id for i in s.offers[0]]
    before = snapshot(s)
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "keep_tickets", "tickets": offer[:1]})
    assert e.value.code == "too_few_tickets" and snapshot(s) == before
    E.apply_action(s, 0, {"type": "keep_tickets", "tickets": [offer[3], offer[0]]})  # long + 1
    assert E.current_seats(s) == [1] and E.legal_actions(s, 0) == []
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "keep_tickets", "tickets": offer})
    assert e.value.code == "not_your_turn"
    deck = list(s.ticket_deck)
    offer1 = [s.board.tickets[i].id for i in s.offers[1]]
    E.apply_action(s, 1, {"type": "keep_tickets", "tickets": offer1})
    assert s.phase == "turn" and E.current_seats(s) == [s.first]
    assert s.ticket_deck == deck  # returns went to the box, not the deck
    assert len(s.boxed) == 4 + 2 and [s.board.tickets[i].id for i in s.tickets[0]] == [
        offer[0], offer[3]
    ]  # fmt: skip


def test_mega_europe_long_keep_zero_or_one_then_two_or_three_regular():
    s = E.new_game(variant="mega_europe", seed=5, seats=3)
    offer = s.offers[0]
    long = [s.board.tickets[i].id for i in offer if s.board.tickets[i].kind == "long"]
    regular = [s.board.tickets[i].id for i in offer if s.board.tickets[i].kind != "long"]
    assert len(long) == 2 and len(regular) == 5
    cases = [
        (long + regular, "too_many_long"),
        (long[:1] + regular[:1], "too_few_tickets"),
        (regular[:2], "too_few_tickets"),
    ]
    for choice, code in cases:
        with pytest.raises(E.IllegalAction) as e:
            E.apply_action(s, 0, {"type": "keep_tickets", "tickets": choice})
        assert e.value.code == code, choice
    E.apply_action(s, 0, {"type": "keep_tickets", "tickets": long[:1] + regular[:2]})
    E.apply_action(s, 1, E.legal_actions(s, 1)[-1])  # keep everything allowed
    third = E.legal_actions(s, 2)
    everything = [s.board.tickets[i].id for i in s.offers[2]]
    assert len(third) == 68 and {"type": "keep_tickets", "tickets": everything} not in third
    deck_before = len(s.ticket_deck)
    regular2 = [s.board.tickets[i].id for i in s.offers[2] if s.board.tickets[i].kind != "long"]
    E.apply_action(s, 2, {"type": "keep_tickets", "tickets": regular2[:3]})
    assert s.phase == "turn"
    returned = [t for e in s.log if e["type"] == "keep_tickets" for t in e["secret"]["returned"]]
    back = {s.board.ticket_index[t] for t in returned}
    back = {i for i in back if s.board.tickets[i].kind != "long"}
    assert len(s.ticket_deck) == deck_before + len(back)
    assert set(s.ticket_deck[: len(back)]) == back  # shuffled under the deck
    assert all(s.board.tickets[i].kind == "long" for i in s.boxed)


def test_big_cities_returns_go_under_the_deck_and_four_are_drawn():
    s = E.new_game(variant="big_cities", seed=2, seats=2)
    top_before = s.ticket_deck[-1]
    for seat in (0, 1):
        offer = [s.board.tickets[i].id for i in s.offers[seat]]
        E.apply_action(s, seat, {"type": "keep_tickets", "tickets": offer[:2]})
    assert len(s.ticket_deck) == 45 - 10 + 6
    assert s.ticket_deck[-1] == top_before  # returns are under the deck
    seat = s.first
    E.apply_action(s, seat, {"type": "draw_tickets"})
    assert len(s.offers[seat]) == 4
    assert len(E.legal_actions(s, seat)) == 15


def test_draw_three_keep_at_least_one_return_to_the_bottom():
    s = started()
    top3 = s.ticket_deck[-3:][::-1]
    E.apply_action(s, 0, {"type": "draw_tickets"})
    assert s.offers[0] == top3 and s.phase == "tickets"
    assert len(E.legal_actions(s, 0)) == 7
    ids = [s.board.tickets[i].id for i in top3]
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "keep_tickets", "tickets": []})
    assert e.value.code == "too_few_tickets"
    for bad in ([ids[0], ids[0]], ["E999"], ["nonsense"], [s.board.tickets[s.ticket_deck[0]].id]):
        with pytest.raises(E.IllegalAction) as e:
            E.apply_action(s, 0, {"type": "keep_tickets", "tickets": bad})
        assert e.value.code == "invalid_ticket_choice"
    held = len(s.tickets[0])
    E.apply_action(s, 0, {"type": "keep_tickets", "tickets": [ids[1]]})
    assert len(s.tickets[0]) == held + 1
    assert set(s.ticket_deck[:2]) == {top3[0], top3[2]}  # at the bottom
    assert s.current == 1


def test_fewer_tickets_left_draws_what_there_is_and_empty_deck_is_unavailable():
    s = started()
    s.boxed += s.ticket_deck[:-2]
    s.ticket_deck = s.ticket_deck[-2:]
    E.apply_action(s, 0, {"type": "draw_tickets"})
    assert len(s.offers[0]) == 2
    E.apply_action(s, 0, E.legal_actions(s, 0)[-1])  # keep both
    assert s.ticket_deck == []
    assert {"type": "draw_tickets"} not in E.legal_actions(s, 1)
    before = snapshot(s)
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 1, {"type": "draw_tickets"})
    assert e.value.code == "ticket_deck_empty" and snapshot(s) == before


def test_ticket_order_in_keep_does_not_matter():
    s = started()
    E.apply_action(s, 0, {"type": "draw_tickets"})
    ids = [s.board.tickets[i].id for i in s.offers[0]]
    E.apply_action(s, 0, {"tickets": ids[::-1], "type": "keep_tickets"})
    assert s.current == 1


def test_bonus_tickets_option_is_off_until_data_exists(monkeypatch):
    with pytest.raises(E.InvalidSetup):
        E.new_game(options={"bonus_tickets": True})
    E.new_game(options={"bonus_tickets": False})
    # with data (same format as the map's ticket lists) they join the regular deck
    import json

    from games.engine import mapdata as board_mod
    from games.engine import state as state_mod

    with open(board_mod.MAPS_DIR / "europe.json", encoding="utf-8") as f:
        data = json.load(f)
    data["tickets_orient_express"] = [
        {"id": 1, "a": "Paris", "b": "Constantinople", "points": 21},
        {"id": 2, "a": "London", "b": "Wien", "points": 10},
    ]
    data["ticket_max"] = {"id": 1, "a": "Roma", "b": "Berlin", "points": 9}
    fake = board_mod.board_from_data("europe", data)
    monkeypatch.setattr(state_mod, "load_map", lambda name: fake)
    s = E.new_game(options={"bonus_tickets": True}, seats=2, seed=1)
    pool = s.ticket_deck + [i for o in s.offers for i in o]
    ids = {s.board.tickets[i].id for i in pool}
    assert {"O1", "O2", "M1"} <= ids
    assert len(s.ticket_deck) == 40 + 3 - 6


@pytest.mark.parametrize(
    "kwargs",
    [
        {"ruleset": "mars"},
        {"variant": "tiny"},
        {"seats": 1},
        {"seats": 6},
        {"seats": True},
        {"seats": "4"},
        {"seed": "x"},
        {"seed": 1.5},
        {"options": {"nope": 1}},
        {"options": {"bonus_tickets": 1}},
        {"options": []},
    ],
)
def test_invalid_set_up(kwargs):
    with pytest.raises(E.InvalidSetup) as e:
        E.new_game(**kwargs)
    assert e.value.code == "invalid_setup" and isinstance(e.value, E.EngineError)


def test_first_player_comes_from_the_seed():
    firsts = {E.new_game(seed=seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert E.new_game(seed=11).first == E.new_game(seed=11).first
