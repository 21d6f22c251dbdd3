"""Claiming routes: the rulebook examples (colour, gray, ferry, tunnels, double routes)."""

import pytest
from engine_testkit import arrange, cards_total, hand, route_id, snapshot, started

import games.engine as E


def claims(state, seat, rid):
    return [
        a["cards"]
        for a in E.legal_actions(state, seat)
        if a["type"] == "claim_route" and a["route"] == rid
    ]


def test_yellow_route_of_three_rulebook_example_1():
    # "3 gelbe, 2 gelbe + 1 Lok, 1 gelbe + 2 Loks, oder 3 Loks" (Amsterdam-Essen, yellow 3)
    s = started()
    arrange(s, hands={0: {"yellow": 3, "locomotive": 3, "red": 3}})
    rid = route_id(s, "Amsterdam", "Essen")
    assert sorted(claims(s, 0, rid), key=str) == sorted(
        [
            {"yellow": 3},
            {"yellow": 2, "locomotive": 1},
            {"yellow": 1, "locomotive": 2},
            {"locomotive": 3},
        ],
        key=str,
    )
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"red": 3}})
    assert e.value.code == "wrong_color"


def test_gray_route_of_two_rulebook_example_2():
    # "2 rote Karten, 1 gelbe Karte und 1 Lokomotive, oder 2 Lokomotiven" (Danzig-Warszawa)
    s = started()
    arrange(s, hands={0: {"red": 2, "yellow": 1, "locomotive": 2}})
    rid = route_id(s, "Danzig", "Warszawa")
    options = claims(s, 0, rid)
    for cards in ({"red": 2}, {"yellow": 1, "locomotive": 1}, {"locomotive": 2}):
        assert cards in options
    assert {"red": 1, "yellow": 1} not in options
    before = snapshot(s)
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(
            s, 0, {"type": "claim_route", "route": rid, "cards": {"red": 1, "yellow": 1}}
        )
    assert e.value.code == "mixed_colors" and snapshot(s) == before
    E.apply_action(
        s, 0, {"type": "claim_route", "route": rid, "cards": {"yellow": 1, "locomotive": 1}}
    )
    assert hand(s, 0) == {"red": 2, "locomotive": 1}
    assert s.scores[0] == 2 and s.trains[0] == 43 and s.current == 1
    assert cards_total(s) == 110


def test_smyrna_palermo_ferry_needs_four_cards_of_a_colour_and_two_locomotives():
    s = started()
    rid = route_id(s, "Palermo", "Smyrna")
    arrange(s, hands={0: {"green": 5, "locomotive": 1}})
    assert claims(s, 0, rid) == []
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(
            s, 0, {"type": "claim_route", "route": rid, "cards": {"green": 5, "locomotive": 1}}
        )
    assert e.value.code == "ferry_locomotives"
    arrange(s, hands={0: {"green": 4, "locomotive": 2}})
    assert claims(s, 0, rid) == [{"green": 4, "locomotive": 2}]
    E.apply_action(
        s, 0, {"type": "claim_route", "route": rid, "cards": {"green": 4, "locomotive": 2}}
    )
    assert s.scores[0] == 15 and s.trains[0] == 39


def test_all_locomotives_may_stand_for_any_colour():
    s = started()
    arrange(s, hands={0: {"locomotive": 4}})
    rid = route_id(s, "Warszawa", "Wien")  # blue 4
    assert claims(s, 0, rid) == [{"locomotive": 4}]


def _tunnel(s, cards, revealed, rid=None):
    rid = rid or route_id(s, "Marseille", "Zurich")  # pink tunnel, 2
    arrange(s, hands={0: cards}, faceup=["white"] * 5, deck_top=revealed)
    played = {k: v for k, v in cards.items() if k != "spare"}
    return rid, played


@pytest.mark.parametrize(
    ("played", "revealed", "extra"),
    [
        ({"pink": 2}, ["pink", "blue", "black"], 1),  # example 1: a red/pink card revealed
        ({"pink": 2}, ["locomotive", "blue", "black"], 1),  # example 2: a locomotive
        ({"locomotive": 2}, ["locomotive", "pink", "black"], 1),  # example 3: locos only
        ({"locomotive": 2}, ["pink", "pink", "black"], 0),  # locos only: colours don't count
        ({"pink": 1, "locomotive": 1}, ["pink", "locomotive", "pink"], 3),
    ],
)
def test_tunnel_rulebook_examples(played, revealed, extra):
    s = started()
    rid = route_id(s, "Marseille", "Zurich")
    arrange(s, hands={0: played}, faceup=["white"] * 5, deck_top=revealed)
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": played})
    entry = next(e for e in s.log if e["type"] == "tunnel_attempt")
    assert entry["revealed"] == revealed and entry["extra"] == extra
    if extra == 0:
        assert s.owner[s.board.route_index[rid]] == 0 and s.phase == "turn"
        assert s.discard[-3:] == [E.COLORS.index(c) if c in E.COLORS else 8 for c in revealed]
    else:
        assert s.phase == "tunnel" and s.current == 0
        assert E.view_for(s, 1)["pending"]["extra"] == extra
        assert E.legal_actions(s, 0) == [{"type": "decline_tunnel"}]  # nothing left to pay
    assert cards_total(s) == 110


def test_tunnel_pay_extra_claims_and_discards_revealed_at_end_of_turn():
    s = started()
    rid = route_id(s, "Marseille", "Zurich")
    arrange(s, hands={0: {"pink": 3, "locomotive": 2}}, faceup=["white"] * 5,
            deck_top=["pink", "locomotive", "blue"])  # fmt: skip
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"pink": 2}})
    assert s.phase == "tunnel" and s.tunnel["extra"] == 2
    options = E.legal_actions(s, 0)
    assert options == [
        {"type": "pay_tunnel", "cards": {"pink": 1, "locomotive": 1}},
        {"type": "pay_tunnel", "cards": {"locomotive": 2}},
        {"type": "decline_tunnel"},
    ]
    assert E.legal_actions(s, 1) == []
    discard_before = len(s.discard)
    before = snapshot(s)
    for bad, code in [
        ({"pink": 1}, "wrong_card_count"),
        ({"blue": 2}, "wrong_color"),
        ({"pink": 2}, "insufficient_cards"),
    ]:
        with pytest.raises(E.IllegalAction) as e:
            E.apply_action(s, 0, {"type": "pay_tunnel", "cards": bad})
        assert e.value.code == code and snapshot(s) == before
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "draw_card", "source": "deck"})
    assert e.value.code == "stale_phase"
    E.apply_action(s, 0, {"type": "pay_tunnel", "cards": {"locomotive": 1, "pink": 1}})
    assert s.owner[s.board.route_index[rid]] == 0 and s.scores[0] == 2
    assert hand(s, 0) == {"locomotive": 1}
    assert len(s.discard) == discard_before + 2 + 2 + 3  # played + extra + revealed
    assert s.phase == "turn" and s.current == 1 and s.tunnel is None
    assert cards_total(s) == 110


def test_tunnel_decline_returns_played_cards_and_ends_turn():
    s = started()
    rid = route_id(s, "Marseille", "Zurich")
    arrange(s, hands={0: {"pink": 2}}, faceup=["white"] * 5, deck_top=["pink", "red", "blue"])
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"pink": 2}})
    assert hand(s, 0) == {}  # played cards are in play
    E.apply_action(s, 0, {"type": "decline_tunnel"})
    assert hand(s, 0) == {"pink": 2}
    assert s.owner[s.board.route_index[rid]] == -1 and s.trains[0] == 45
    assert [s.discard[-3:]] == [[E.COLORS.index(c) for c in ("pink", "red", "blue")]]
    assert s.current == 1 and cards_total(s) == 110
    assert [e["type"] for e in s.log[-2:]] == ["tunnel_attempt", "decline_tunnel"]


def test_tunnel_reveals_reshuffle_the_discard_when_the_deck_runs_short():
    s = started()
    rid = route_id(s, "Marseille", "Zurich")
    arrange(s, hands={0: {"pink": 2}}, faceup=["white"] * 5, deck_top=["blue"],
            discard=["red", "red"], deck_rest=False)  # fmt: skip
    # deck holds 1 card; the discard (red, red + the rest) is reshuffled for the other 2
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"pink": 2}})
    attempt = next(e for e in s.log if e["type"] == "tunnel_attempt")
    assert len(attempt["revealed"]) == 3 and attempt["revealed"][0] == "blue"
    assert any(e["type"] == "reshuffle" for e in s.log)
    assert cards_total(s) == 110


def test_tunnel_with_fewer_than_three_cards_left_reveals_what_there_is():
    s = started()
    rid = route_id(s, "Marseille", "Zurich")
    everything = {"pink": 11, "white": 7, "blue": 12, "yellow": 12, "orange": 12,
                  "black": 12, "red": 12, "green": 12, "locomotive": 14}  # fmt: skip
    arrange(s, hands={0: everything}, faceup=["white"] * 5, deck_top=["pink"], deck_rest=False)
    assert len(s.deck) == 1 and s.discard == []
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"pink": 2}})
    assert s.phase == "tunnel" and s.tunnel["revealed"] == [0] and s.tunnel["extra"] == 1


def test_tunnel_with_no_card_left_is_claimed_without_risk():
    s = started()
    rid = route_id(s, "Marseille", "Zurich")
    everything = {"pink": 12, "white": 7, "blue": 12, "yellow": 12, "orange": 12,
                  "black": 12, "red": 12, "green": 12, "locomotive": 14}  # fmt: skip
    arrange(s, hands={0: everything}, faceup=["white"] * 5, deck_rest=False)
    assert s.deck == [] and s.discard == []
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"pink": 2}})
    attempt = s.log[-1] if s.log[-1]["type"] == "tunnel_attempt" else s.log[-2]
    assert attempt["revealed"] == [] and attempt["extra"] == 0
    assert s.owner[s.board.route_index[rid]] == 0 and s.current == 1


@pytest.mark.parametrize("seats", [2, 3])
def test_double_routes_with_two_or_three_players_only_one_is_usable(seats):
    s = started(seats=seats)
    black, red = (
        route_id(s, "Berlin", "Frankfurt", "black"),
        route_id(s, "Berlin", "Frankfurt", "red"),
    )
    arrange(s, hands={0: {"black": 3}, 1: {"red": 3}})
    E.apply_action(s, 0, {"type": "claim_route", "route": black, "cards": {"black": 3}})
    assert claims(s, 1, red) == []
    before = snapshot(s)
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 1, {"type": "claim_route", "route": red, "cards": {"red": 3}})
    assert e.value.code == "double_route_closed" and snapshot(s) == before


@pytest.mark.parametrize("seats", [4, 5])
def test_double_routes_with_four_or_five_players_never_both_to_one_player(seats):
    s = started(seats=seats)
    black, red = (
        route_id(s, "Berlin", "Frankfurt", "black"),
        route_id(s, "Berlin", "Frankfurt", "red"),
    )
    arrange(s, hands={0: {"black": 3, "red": 3}, 1: {"red": 3}})
    E.apply_action(s, 0, {"type": "claim_route", "route": black, "cards": {"black": 3}})
    s.current = 0
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "claim_route", "route": red, "cards": {"red": 3}})
    assert e.value.code == "double_route_own"
    assert claims(s, 0, red) == []
    s.current = 1
    assert claims(s, 1, red) == [{"red": 3}]
    E.apply_action(s, 1, {"type": "claim_route", "route": red, "cards": {"red": 3}})
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 2, {"type": "claim_route", "route": red, "cards": {"red": 3}})
    assert e.value.code == "route_taken"


def test_not_enough_cars():
    s = started()
    rid = route_id(s, "Petrograd", "Stockholm")  # 8, gray tunnel
    arrange(s, hands={0: {"red": 8}})
    s.trains[0] = 7
    assert claims(s, 0, rid) == []
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"red": 8}})
    assert e.value.code == "not_enough_trains"


def test_claim_errors_leave_state_unchanged():
    s = started()
    arrange(s, hands={0: {"red": 2}})
    rid = route_id(s, "Brindisi", "Roma")  # white 2
    gray = route_id(s, "Danzig", "Warszawa")
    before = snapshot(s)
    for action, code in [
        ({"type": "claim_route", "route": 999, "cards": {"red": 2}}, "unknown_route"),
        ({"type": "claim_route", "route": gray, "cards": {"red": 1}}, "wrong_card_count"),
        ({"type": "claim_route", "route": gray, "cards": {"blue": 2}}, "insufficient_cards"),
        ({"type": "claim_route", "route": rid, "cards": {"red": 2}}, "wrong_color"),
        ({"type": "claim_route", "route": gray, "cards": {"red": 2}}, "not_your_turn"),
    ]:
        seat = 1 if code == "not_your_turn" else 0
        with pytest.raises(E.IllegalAction) as e:
            E.apply_action(s, seat, action)
        assert e.value.code == code, action
        assert e.value.message == E.REASON_CODES[code].format(**e.value.params)
        assert snapshot(s) == before


def test_score_table():
    s = started()
    table = {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
    for length, points in table.items():
        assert s.board.scoring[length] == points
