"""Every reason code, malformed dicts, and a fuzzer: refused actions change nothing."""

import json
import random

import pytest
from engine_testkit import arrange, give_routes, route_id, snapshot, started
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.engine as E


def _draw2(s):
    arrange(s, faceup=["red", "locomotive", "blue", "green", "white"])
    E.apply_action(s, 0, {"type": "draw_card", "source": "faceup", "slot": 0})
    return s


def _tickets(s):
    E.apply_action(s, 0, {"type": "draw_tickets"})
    return s


def _over(s):
    from games.engine.rules.turns import finish

    finish(s, "last_round")
    return s


def _no_deck(s):
    arrange(s, faceup=["red"] * 5, deck_rest=False)
    s.hands[3] = [12, 12, 12, 12, 12, 12, 7, 12, 14]
    s.discard = []
    return s


def _gray(s):
    return route_id(s, "Danzig", "Warszawa")


def _mega():
    return E.new_game(variant="mega_europe", seed=1)


def _long_ids(s):
    return [s.board.tickets[i].id for i in s.offers[0]]


# code -> (build the position, seat, action); each must raise exactly that code
CASES = {
    "malformed_action": (started, 0, lambda s: {"type": "draw_card"}),
    "unknown_action": (started, 0, lambda s: {"type": "teleport"}),
    "invalid_seat": (started, 7, lambda s: {"type": "draw_tickets"}),
    "game_over": (lambda: _over(started()), 0, lambda s: {"type": "pass"}),
    "not_your_turn": (started, 2, lambda s: {"type": "draw_tickets"}),
    "stale_phase": (lambda: _draw2(started()), 0, lambda s: {"type": "draw_tickets"}),
    "deck_empty": (
        lambda: _no_deck(started()),
        0,
        lambda s: {"type": "draw_card", "source": "deck"},
    ),
    "invalid_slot": (started, 0, lambda s: {"type": "draw_card", "source": "faceup", "slot": 5}),
    "empty_slot": (
        lambda: arrange(started(), faceup=[None, "red", "red", "red", "red"]),
        0,
        lambda s: {"type": "draw_card", "source": "faceup", "slot": 0},
    ),
    "faceup_mismatch": (
        lambda: arrange(started(), faceup=["red"] * 5),
        0,
        lambda s: {"type": "draw_card", "source": "faceup", "slot": 0, "color": "blue"},
    ),
    "second_locomotive": (
        lambda: _draw2(started()),
        0,
        lambda s: {"type": "draw_card", "source": "faceup", "slot": 1},
    ),
    "unknown_route": (
        started,
        0,
        lambda s: {"type": "claim_route", "route": 0, "cards": {"red": 1}},
    ),
    "route_taken": (
        lambda: _taken(started()),
        0,
        lambda s: {"type": "claim_route", "route": _gray(s), "cards": {"red": 2}},
    ),
    "double_route_closed": (
        lambda: _twin(started(seats=3), 1),
        0,
        lambda s: {
            "type": "claim_route",
            "route": route_id(s, "Berlin", "Frankfurt", "red"),
            "cards": {"red": 3},
        },
    ),  # fmt: skip
    "double_route_own": (
        lambda: _twin(started(seats=4), 0),
        0,
        lambda s: {
            "type": "claim_route",
            "route": route_id(s, "Berlin", "Frankfurt", "red"),
            "cards": {"red": 3},
        },
    ),  # fmt: skip
    "not_enough_trains": (
        lambda: _trains(started()),
        0,
        lambda s: {"type": "claim_route", "route": _gray(s), "cards": {"red": 2}},
    ),
    "wrong_card_count": (
        lambda: _hand(started()),
        0,
        lambda s: {"type": "claim_route", "route": _gray(s), "cards": {"red": 3}},
    ),
    "mixed_colors": (
        lambda: _hand(started()),
        0,
        lambda s: {"type": "claim_route", "route": _gray(s), "cards": {"red": 1, "blue": 1}},
    ),
    "wrong_color": (
        lambda: _hand(started()),
        0,
        lambda s: {
            "type": "claim_route",
            "route": route_id(s, "Brindisi", "Roma"),
            "cards": {"red": 2},
        },
    ),  # fmt: skip
    "ferry_locomotives": (
        lambda: _hand(started()),
        0,
        lambda s: {
            "type": "claim_route",
            "route": route_id(s, "Athina", "Smyrna"),
            "cards": {"red": 2},
        },
    ),  # fmt: skip
    "insufficient_cards": (
        lambda: _hand(started()),
        0,
        lambda s: {"type": "claim_route", "route": _gray(s), "cards": {"green": 2}},
    ),
    "ticket_deck_empty": (lambda: _no_tickets(started()), 0, lambda s: {"type": "draw_tickets"}),
    "invalid_ticket_choice": (
        lambda: _tickets(started()),
        0,
        lambda s: {"type": "keep_tickets", "tickets": ["X1"]},
    ),
    "too_few_tickets": (
        lambda: _tickets(started()),
        0,
        lambda s: {"type": "keep_tickets", "tickets": []},
    ),
    "too_many_long": (
        _mega,
        0,
        lambda s: {"type": "keep_tickets", "tickets": _long_ids(s)},
    ),
    "unknown_city": (
        lambda: _hand(started()),
        0,
        lambda s: {"type": "build_station", "city": "wien", "cards": {"red": 1}},
    ),
    "city_has_station": (
        lambda: _station(_hand(started())),
        0,
        lambda s: {"type": "build_station", "city": "Wien", "cards": {"red": 1}},
    ),
    "no_stations_left": (
        lambda: _no_stations(_hand(started())),
        0,
        lambda s: {"type": "build_station", "city": "Wien", "cards": {"red": 1}},
    ),
    "pass_not_allowed": (started, 0, lambda s: {"type": "pass"}),
    # Warehouses & Depots (docs/rules.md §2)
    "no_warehouses": (started, 0, lambda s: {"type": "place_depot", "city": "Wien"}),
    "city_has_depot": (lambda: _wh(), 0, lambda s: {"type": "place_depot", "city": "Wien"}),
    "no_depots_left": (
        lambda: _no_depots(_wh()),
        0,
        lambda s: {"type": "place_depot", "city": "Paris"},
    ),
    "warehouse_required": (lambda: _wh(), 0, lambda s: {"type": "draw_card", "source": "deck"}),
    "warehouse_not_allowed": (
        started,
        0,
        lambda s: {"type": "draw_card", "source": "deck", "warehouse": 1},
    ),
    "invalid_warehouse": (
        lambda: _wh(),
        0,
        lambda s: {"type": "draw_card", "source": "deck", "warehouse": 4},
    ),
    "warehouse_not_reachable": (lambda: _wh_claim(_wh()), 0, lambda s: _claim_wien(3)),
    "empty_warehouse": (lambda: _wh_claim(_wh(), empty=1), 0, lambda s: _claim_wien(1)),
    "not_enough_depots": (
        lambda: _no_depots(_wh_claim(_wh()), left=1),
        0,
        lambda s: _claim_wien(1, 2),
    ),
}


def _wh():
    """Warehouses on; initial depots: seat 1 Wien, 2 Budapest, 3 Zagrab, 0 Roma."""
    depots = {0: "Roma", 1: "Wien", 2: "Budapest", 3: "Zagrab"}
    return started(options={"warehouses": True}, depots=depots)


def _no_depots(s, left=0):
    s.depots_spent[0] += s.depots_left[0] - left
    s.depots_left[0] = left
    return s


def _wh_claim(s, empty=None):
    cards = {1: ["blue"], 2: ["green", "red"], 3: ["black"]}
    if empty is not None:
        cards[empty] = []
    return arrange(s, hands={0: {"red": 1}}, warehouses=cards)


def _claim_wien(*seats):
    # route 38: Wien - Budapest, red, length 1
    return {"type": "claim_route", "route": 38, "cards": {"red": 1}, "warehouses": list(seats)}


def _taken(s):
    _hand(s)
    give_routes(s, 1, [_gray(s)])
    return s


def _twin(s, owner):
    arrange(s, hands={0: {"red": 3}})
    give_routes(s, owner, [route_id(s, "Berlin", "Frankfurt", "black")])
    return s


def _trains(s):
    _hand(s)
    s.trains[0] = 1
    return s


def _hand(s):
    return arrange(s, hands={0: {"red": 3, "blue": 1}})


def _no_tickets(s):
    s.boxed += s.ticket_deck
    s.ticket_deck = []
    return s


def _station(s):
    s.station_at[s.board.city_index["Wien"]] = 1
    s.stations_of[1].append(s.board.city_index["Wien"])
    s.stations_left[1] -= 1
    return s


def _no_stations(s):
    s.stations_left[0] = 0
    return s


def test_every_reason_code_has_a_case():
    assert set(CASES) | {"invalid_setup"} == set(E.REASON_CODES)


@pytest.mark.parametrize("code", sorted(CASES))
def test_reason_code(code):
    build, seat, make = CASES[code]
    s = build()
    action = make(s)
    before = snapshot(s)
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, seat, action)
    assert e.value.code == code
    assert e.value.message == E.REASON_CODES[code].format(**e.value.params)
    assert e.value.message and str(e.value) == e.value.message
    assert snapshot(s) == before


MALFORMED = [
    None,
    [],
    "draw_card",
    {},
    {"type": 1},
    {"type": None},
    {"type": "draw_card"},
    {"type": "draw_card", "source": "hand"},
    {"type": "draw_card", "source": 1},
    {"type": "draw_card", "source": "faceup"},
    {"type": "draw_card", "source": "faceup", "slot": True},
    {"type": "draw_card", "source": "faceup", "slot": "1"},
    {"type": "draw_card", "source": "faceup", "slot": 1.0},
    {"type": "draw_card", "source": "faceup", "slot": 1, "color": 3},
    {"type": "draw_card", "source": "deck", "slot": 1},
    {"type": "draw_card", "source": "deck", "extra": None},
    {"type": "claim_route"},
    {"type": "claim_route", "route": True, "cards": {"red": 1}},
    {"type": "claim_route", "route": "17", "cards": {"red": 1}},
    {"type": "claim_route", "route": 17},
    {"type": "claim_route", "route": 17, "cards": []},
    {"type": "claim_route", "route": 17, "cards": {}},
    {"type": "claim_route", "route": 17, "cards": {"red": 0}},
    {"type": "claim_route", "route": 17, "cards": {"red": -1}},
    {"type": "claim_route", "route": 17, "cards": {"red": True}},
    {"type": "claim_route", "route": 17, "cards": {"red": 1.5}},
    {"type": "claim_route", "route": 17, "cards": {"red": "3"}},
    {"type": "claim_route", "route": 17, "cards": {"purple": 1}},
    {"type": "claim_route", "route": 17, "cards": {1: 1}},
    {"type": "claim_route", "route": 17, "cards": {"red": 3}, "why": "because"},
    {"type": "pay_tunnel"},
    {"type": "pay_tunnel", "cards": None},
    {"type": "decline_tunnel", "now": True},
    {"type": "draw_tickets", "count": 3},
    {"type": "keep_tickets"},
    {"type": "keep_tickets", "tickets": "E1"},
    {"type": "keep_tickets", "tickets": [1, 2]},
    {"type": "keep_tickets", "tickets": None},
    {"type": "keep_tickets", "tickets": [["E1"]]},
    {"type": "build_station", "city": 5, "cards": {"red": 1}},
    {"type": "build_station", "city": "Wien"},
    {"type": "pass", "x": 1},
    {"type": "draw_card", "source": "deck", "warehouse": True},
    {"type": "draw_card", "source": "deck", "warehouse": "1"},
    {"type": "draw_card", "source": "faceup", "slot": 1, "warehouse": None},
    {"type": "claim_route", "route": 17, "cards": {"red": 3}, "warehouses": []},
    {"type": "claim_route", "route": 17, "cards": {"red": 3}, "warehouses": [True]},
    {"type": "claim_route", "route": 17, "cards": {"red": 3}, "warehouses": [1.0]},
    {"type": "claim_route", "route": 17, "cards": {"red": 3}, "warehouses": 1},
    {"type": "place_depot"},
    {"type": "place_depot", "city": 3},
    {"type": "place_depot", "city": "Wien", "cards": {"red": 1}},
]


@pytest.mark.parametrize("action", MALFORMED, ids=lambda a: json.dumps(a, default=str)[:60])
def test_malformed_actions_raise_illegal_action_and_change_nothing(action):
    s = _hand(started())
    before = snapshot(s)
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, action)
    assert e.value.code in ("malformed_action", "unknown_action")
    assert snapshot(s) == before


def canonical(action):
    """Equal for actions the engine must treat alike (key order, ticket order, colour)."""
    a = dict(action)
    if a.get("type") == "draw_card":
        a.pop("color", None)
    if a.get("type") == "keep_tickets" and isinstance(a.get("tickets"), list):
        a["tickets"] = sorted(a["tickets"], key=str)
    if a.get("type") == "claim_route" and isinstance(a.get("warehouses"), list):
        a["warehouses"] = sorted(a["warehouses"], key=str)
    return json.dumps(a, sort_keys=True, default=str)


def fuzz_positions():
    """A few positions in different phases, reached by random play."""
    out = []
    games = [("europe", v, None) for v in E.VARIANTS["europe"]]
    games += [("europe", v, {"warehouses": True}) for v in E.VARIANTS["europe"][:3]]
    games += [("new_york", "standard", None)] * 2
    for seed, (ruleset, variant, options) in enumerate(games):
        rng = random.Random(seed)
        seats = 2 + seed % (4 if ruleset == "europe" else 3)
        s = E.new_game(ruleset=ruleset, variant=variant, seats=seats, seed=seed, options=options)
        for step in range(400):
            if E.is_terminal(s):
                break
            if step % 40 == 0:
                out.append(E.to_json(s))
            seat = rng.choice(E.current_seats(s))
            E.apply_action(s, seat, rng.choice(E.legal_actions(s, seat)))
    return out


POSITIONS = fuzz_positions()
json_scalars = st.none() | st.booleans() | st.integers(-3, 120) | st.text(max_size=12)
values = st.recursive(
    json_scalars | st.sampled_from(["red", "locomotive", "Wien", "E1", "deck", "faceup"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
card_dicts = st.dictionaries(
    st.sampled_from([*E.COLORS, "locomotive", "gray"]), st.integers(-1, 9), max_size=3
)
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["draw_card", "claim_route", "pay_tunnel", "decline_tunnel",
                              "draw_tickets", "keep_tickets", "build_station", "pass",
                              "place_depot", "x"])},
    optional={
        "source": st.sampled_from(["deck", "faceup", "hand"]),
        "slot": st.integers(-1, 6) | values,
        "route": st.integers(0, 102) | values,
        "cards": card_dicts | values,
        "city": st.sampled_from(["Wien", "Roma", "Nowhere"]) | values,
        "tickets": st.lists(st.sampled_from([f"E{i}" for i in range(1, 47)] + ["X3"]),
                            max_size=4) | values,
        "color": st.sampled_from(["red", "blue", "locomotive"]) | values,
        "warehouse": st.integers(-1, 5) | values,
        "warehouses": st.lists(st.integers(-1, 5), max_size=3) | values,
        "junk": values,
    },
)  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=st.sampled_from(POSITIONS), seat=st.integers(-1, 5), action=actions)
def test_fuzz_only_listed_actions_are_accepted(position, seat, action):
    s = E.from_json(position)
    legal = {canonical(a) for a in E.legal_actions(s, seat)}
    try:
        E.apply_action(s, seat, action)
    except E.IllegalAction:
        assert E.to_json(s) == position
    else:
        assert canonical(action) in legal


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 3))
def test_every_listed_action_is_accepted(index):
    position = POSITIONS[index]
    s = E.from_json(position)
    for seat in E.current_seats(s):
        for action in E.legal_actions(s, seat):
            E.apply_action(E.from_json(position), seat, action)
