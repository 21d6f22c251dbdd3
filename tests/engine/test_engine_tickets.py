"""Set-up per variant and destination tickets (docs/rules.md 1.2, 1.3.3, 1.8)."""

import json

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
    regular = 0 if var.setup_long_first else var.setup_regular  # Mega Europe: long first
    for offer in s.offers:
        long = sum(1 for i in offer if s.board.tickets[i].kind == "long")
        assert long == var.setup_long and len(offer) - long == regular
    long_pool, regular_pool = var.select_tickets(s.board)
    dealt = [i for o in s.offers for i in o]
    assert len(set(dealt)) == len(dealt)
    assert len(s.ticket_deck) == len(regular_pool) - seats * regular
    assert len(s.boxed) == len(long_pool) - seats * var.setup_long
    assert 0 <= s.first < seats


@pytest.mark.parametrize(
    ("variant", "subsets"),
    [("classic", 11), ("europa_1912", 11), ("europe_extended", 11), ("mega_europe", 3),
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


def _ids(s, indexes):
    return [s.board.tickets[i].id for i in indexes]


def _keep(s, seat, ids):
    E.apply_action(s, seat, {"type": "keep_tickets", "tickets": ids})


# Anniversary rulebook, Mega Europa: "Spielvorbereitung: 2 Zielkarten „Lange Strecke“ pro
# Spieler. Jeder Spieler darf eine oder keine davon behalten, aber nicht beide. [...]
# Danach: 5 normale Zielkarten pro Spieler. Diejenigen, die eine lange Strecke behalten
# haben, müssen mindestens 2 davon behalten. Alle anderen müssen mindestens 3 behalten."
# (2 long tickets each; keep one or none, never both. After that: 5 regular tickets each;
# whoever kept a long one keeps at least 2 of them, everyone else at least 3.) The Europa
# 1912 rulebook says the same: "Wenn ein Spieler eine lange Strecke behalten hat, muss er
# nun mindestens zwei dieser Zielkarten auswählen." (docs/rules.md 1.8)
def test_mega_europe_long_tickets_first_then_the_regular_ones():
    s = E.new_game(variant="mega_europe", seed=5, seats=3)
    assert all(len(o) == 2 and all(s.board.tickets[i].kind == "long" for i in o)
               for o in s.offers)  # fmt: skip
    assert len(s.ticket_deck) == 89  # no regular ticket dealt yet
    long = _ids(s, s.offers[0])
    assert E.legal_actions(s, 0) == [
        {"type": "keep_tickets", "tickets": t} for t in ([], long[:1], long[1:])
    ]
    before = snapshot(s)
    with pytest.raises(E.IllegalAction) as e:
        _keep(s, 0, long)
    assert e.value.code == "too_many_long" and snapshot(s) == before
    top5 = s.ticket_deck[-5:][::-1]
    _keep(s, 0, long[:1])
    # seat 0 now chooses from 5 regular tickets off the top of the deck, still in set-up
    assert s.phase == "setup" and E.current_seats(s) == [0, 1, 2]
    assert s.offers[0] == top5 and len(s.ticket_deck) == 84
    view = E.view_for(s, 0)
    assert [t["id"] for t in view["you"]["offered_tickets"]] == _ids(s, top5)
    assert view["pending"] == {"type": "initial_tickets", "seats": [0, 1, 2]}
    assert E.view_for(s, None)["players"][0]["offered_count"] == 5
    dealt = s.log[-1]
    assert dealt["type"] == "deal_tickets" and dealt["count"] == 5 and dealt["seat"] == 0
    assert E.log_for(s, 1)[-1] == {"seq": dealt["seq"], "seat": 0, "type": "deal_tickets",
                                   "count": 5}  # fmt: skip
    regular = _ids(s, top5)
    legal = E.legal_actions(s, 0)
    assert len(legal) == 26 and min(len(a["tickets"]) for a in legal) == 2  # a long one kept
    with pytest.raises(E.IllegalAction) as e:
        _keep(s, 0, regular[:1])
    assert e.value.code == "too_few_tickets" and e.value.params == {"needed": 2}
    _keep(s, 0, regular[:2])
    assert E.current_seats(s) == [1, 2] and s.offers[0] is None
    # seat 2 keeps no long ticket: at least 3 regular ones
    _keep(s, 2, [])
    legal = E.legal_actions(s, 2)
    assert len(legal) == 16 and min(len(a["tickets"]) for a in legal) == 3
    with pytest.raises(E.IllegalAction) as e:
        _keep(s, 2, _ids(s, s.offers[2])[:2])
    assert e.value.code == "too_few_tickets" and e.value.params == {"needed": 3}
    _keep(s, 2, _ids(s, s.offers[2])[:3])
    _keep(s, 1, _ids(s, s.offers[1])[1:])
    _keep(s, 1, _ids(s, s.offers[1]))
    assert s.phase == "turn"
    assert [len(t) for t in s.tickets] == [3, 6, 3]
    returned = [t for e in s.log if e["type"] == "keep_tickets" for t in e["secret"]["returned"]]
    back = {s.board.ticket_index[t] for t in returned}
    back = {i for i in back if s.board.tickets[i].kind != "long"}
    assert len(back) == 3 + 0 + 2
    assert len(s.ticket_deck) == 89 - 15 + len(back)
    assert set(s.ticket_deck[: len(back)]) == back  # shuffled under the deck
    assert all(s.board.tickets[i].kind == "long" for i in s.boxed)
    assert len(s.boxed) == 12 - 6 + 1 + 1 + 2  # unused long tickets + the returned ones


def _old_shape_mega(seed=5, seats=3):
    """A Mega Europe game in set-up as stored before the two steps: each offer held its 2
    long and its 5 regular tickets (the old deal: the same shuffles, the regular tickets
    dealt in seat order at once)."""
    s = E.new_game(variant="mega_europe", seed=seed, seats=seats)
    data = json.loads(E.to_json(s))
    for seat, offer in enumerate(data["offers"]):
        offer.extend(data["ticket_deck"].pop() for _ in range(5))
        deal = next(e for e in data["log"] if e["type"] == "deal" and e["seat"] == seat)
        deal["ticket_count"] = 7
        deal["secret"]["tickets"] = _ids(s, offer)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def test_a_mega_europe_game_stored_mid_set_up_in_the_one_step_shape_plays_on():
    s = E.from_json(_old_shape_mega())
    assert E.to_json(s) == _old_shape_mega()  # loads and round-trips unchanged
    assert len(E.legal_actions(s, 0)) == 68  # the one choice over all 7, as before
    long = [i for i in s.offers[0] if s.board.tickets[i].kind == "long"]
    regular = [i for i in s.offers[0] if s.board.tickets[i].kind != "long"]
    for choice, code in [(long + regular, "too_many_long"), (long[:1] + regular[:1],
                         "too_few_tickets"), (regular[:2], "too_few_tickets")]:  # fmt: skip
        with pytest.raises(E.IllegalAction) as e:
            _keep(s, 0, _ids(s, choice))
        assert e.value.code == code
    _keep(s, 0, _ids(s, long[:1] + regular[:2]))
    assert s.offers[0] is None and E.current_seats(s) == [1, 2]  # no second step
    for seat in (1, 2):
        _keep(s, seat, E.legal_actions(s, seat)[0]["tickets"])
    assert s.phase == "turn" and len(s.tickets[0]) == 3


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


def _bonus_board(bonus, big=None):
    from games.engine import mapdata

    with open(mapdata.MAPS_DIR / "europe.json", encoding="utf-8") as f:
        data = json.load(f)
    data["tickets_orient_express"] = bonus
    data["ticket_max"] = big
    return mapdata.board_from_data("europe", data)


BONUS = [  # made-up cards: the real ones' data does not exist yet (docs/rules.md 1.8)
    {"id": 1, "a": "Paris", "b": "Constantinople", "points": 21, "long": True,
     "logos": ["europe"]},
    {"id": 2, "a": "London", "b": "Wien", "points": 10, "logos": ["europe", "big_cities"]},
    {"id": 3, "a": "Sofia", "b": "Smyrna", "points": 6, "logos": ["1912"]},
]  # fmt: skip
MAX = {"id": 1, "a": "Roma", "b": "Berlin", "points": 9, "logos": ["1912", "big_cities"]}


def test_bonus_tickets_option_is_off_until_data_exists():
    with pytest.raises(E.InvalidSetup):
        E.new_game(options={"bonus_tickets": True})
    E.new_game(options={"bonus_tickets": False})


# Anniversary rulebook: "Sie können die 7 Bonus-Zielkarten [...] zu Ihren Partien
# hinzufügen. Dafür nutzen Sie einfach die Logos [...] und folgen Sie den Anweisungen der
# Variante Ihrer Wahl." (You can add the 7 bonus tickets to your games: just use the logos
# and follow the instructions of the variant you chose.) Each variant takes the tickets with
# its logos, e.g. Klassisch "Alle Zielkarten mit dem Europa-Logo werden verwendet" (all
# tickets with the Europe logo are used). docs/rules.md 1.8.
@pytest.mark.parametrize(
    ("variant", "long", "regular"),
    [("classic", {"O1"}, {"O2"}), ("europe_extended", {"O1"}, {"O2"}),
     ("europa_1912", set(), {"O3", "M1"}), ("mega_europe", {"O1"}, {"O2", "O3", "M1"}),
     ("big_cities", set(), {"O2", "M1"})],
)  # fmt: skip
def test_bonus_tickets_join_the_variants_whose_logos_they_carry(variant, long, regular):
    from games.engine.setup import bonus_tickets

    board = _bonus_board(BONUS, MAX)
    var = E.RULESETS["europe"].variants[variant]
    got_long, got_regular = bonus_tickets(board, var)
    assert {board.tickets[i].id for i in got_long} == long
    assert {board.tickets[i].id for i in got_regular} == regular
    assert board.tickets[board.ticket_index["M1"]].big_logo  # Big Cities logo


def test_a_game_with_bonus_tickets_deals_from_the_variants_decks(monkeypatch):
    from games.engine import state as state_mod

    monkeypatch.setattr(state_mod, "load_map", lambda name: _bonus_board(BONUS, MAX))
    s = E.new_game(options={"bonus_tickets": True}, seats=2, seed=1)
    pool = s.ticket_deck + s.boxed + [i for o in s.offers for i in o]
    ids = {s.board.tickets[i].id for i in pool}
    assert {"O1", "O2"} <= ids and not {"O3", "M1"} & ids  # Classic: Europe logo only
    assert len(s.ticket_deck) == 40 + 1 - 6 and len(s.boxed) == 6 + 1 - 2
    monkeypatch.setattr(state_mod, "load_map", lambda name: _bonus_board(BONUS[2:]))
    with pytest.raises(E.InvalidSetup):  # data, but none of it for Classic
        E.new_game(options={"bonus_tickets": True}, seats=2, seed=1)


def test_bonus_ticket_data_must_name_its_logos():
    with pytest.raises(ValueError, match="logos"):
        _bonus_board([{"id": 1, "a": "Paris", "b": "Wien", "points": 8}])
    with pytest.raises(ValueError, match="logos"):
        _bonus_board(None, {"id": 1, "a": "Paris", "b": "Wien", "points": 8, "logos": ["usa"]})


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
