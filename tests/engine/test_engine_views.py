"""view_for / log_for redaction (docs/rules.md 1.6), determinism and the JSON round trip."""

import json
import random

import pytest
from engine_testkit import arrange, give_routes, route_id, started

import games.engine as E


def play(seed, steps, variant="classic", seats=4):
    rng = random.Random(seed)
    s = E.new_game(variant=variant, seats=seats, seed=seed)
    record = []
    for _ in range(steps):
        if E.is_terminal(s):
            break
        seat = rng.choice(E.current_seats(s))
        action = rng.choice(E.legal_actions(s, seat))
        record.append([seat, action])
        E.apply_action(s, seat, action)
    return s, record


def test_view_keys_for_a_seat_a_spectator_and_everything():
    s = started()
    arrange(s, hands={0: {"red": 2, "locomotive": 1}, 1: {"blue": 4}})
    seat0 = E.view_for(s, 0)
    for key in ("players", "faceup", "deck_count", "discard_count", "ticket_deck_count",
                "current_seats", "phase", "last_round", "log", "you"):  # fmt: skip
        assert key in seat0
    p = seat0["players"][1]
    assert set(p) >= {"seat", "score", "trains_left", "stations_left", "hand_count",
                      "ticket_count", "routes", "stations"}  # fmt: skip
    assert p["hand_count"] == 4 and "hand" not in p
    assert seat0["you"]["hand"]["red"] == 2 and seat0["you"]["hand"]["locomotive"] == 1
    assert set(seat0["you"]["hand"]) == {*E.COLORS, "locomotive"}
    assert all(set(t) == {"id", "a", "b", "points", "completed"} for t in seat0["you"]["tickets"])
    spectator = E.view_for(s, None)
    assert "you" not in spectator
    everything = E.view_for(s, "all")
    assert everything["players"][1]["hand"]["blue"] == 4
    assert everything["players"][0]["tickets"]
    for bad in (4, -1, "0", True, 1.0):
        with pytest.raises(E.IllegalAction) as e:
            E.view_for(s, bad)
        assert e.value.code == "invalid_seat"


def test_ticket_completion_in_the_view_uses_own_routes_only():
    s = started(seats=2)
    s.tickets[0] = [s.board.ticket_index["E1"]]  # Amsterdam-Pamplona
    give_routes(
        s, 0, [route_id(s, "Amsterdam", "Bruxelles"), route_id(s, "Bruxelles", "Paris", "red")]
    )
    give_routes(s, 1, [route_id(s, "Pamplona", "Paris", "blue")])
    assert E.view_for(s, 0)["you"]["tickets"][0]["completed"] is False
    give_routes(s, 0, [route_id(s, "Pamplona", "Paris", "green")])
    assert E.view_for(s, 0)["you"]["tickets"][0] == {
        "id": "E1", "a": "Amsterdam", "b": "Pamplona", "points": 7, "completed": True,
    }  # fmt: skip


def test_offered_tickets_and_blind_draws_are_private():
    s = started()
    arrange(s, faceup=["red"] * 5, deck_top=["green", "blue"])
    E.apply_action(s, 0, {"type": "draw_card", "source": "deck"})
    E.apply_action(s, 0, {"type": "draw_card", "source": "deck"})
    E.apply_action(s, 1, {"type": "draw_tickets"})
    offered = [s.board.tickets[i].id for i in s.offers[1]]
    own = E.view_for(s, 1)
    assert [t["id"] for t in own["you"]["offered_tickets"]] == offered
    assert own["pending"] == {"type": "keep_tickets", "seat": 1, "count": 3}
    for viewer in (None, 0, 2):
        text = json.dumps(E.view_for(s, viewer))
        assert not any(f'"{t}"' in text for t in offered)
    draws = [e for e in E.log_for(s, 1) if e["type"] == "draw_card"]
    assert draws and all("color" not in e for e in draws)
    draws0 = [e for e in E.log_for(s, 0) if e["type"] == "draw_card"]
    assert [e["color"] for e in draws0] == ["green", "blue"]
    last = E.log_for(s, 1, since=len(s.log) - 1)
    assert last == [{"seq": len(s.log) - 1, "seat": 1, "type": "draw_tickets", "count": 3,
                     "tickets": offered}]  # fmt: skip
    assert E.log_for(s, 2, since=len(s.log) - 1)[0].get("tickets") is None
    assert E.log_for(s, "all", since=len(s.log) - 1)[0]["tickets"] == offered


def test_tunnel_reveal_and_payment_due_are_public():
    s = started()
    rid = route_id(s, "Marseille", "Zurich")
    arrange(s, hands={0: {"pink": 3}}, faceup=["white"] * 5, deck_top=["pink", "red", "red"])
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"pink": 2}})
    pending = E.view_for(s, None)["pending"]
    assert pending == {"type": "tunnel", "seat": 0, "route": rid, "played": {"pink": 2},
                       "revealed": ["pink", "red", "red"], "extra": 1, "color": "pink",
                       "warehouses": []}  # fmt: skip
    assert E.view_for(s, 0)["pending"] == pending


def test_every_log_entry_has_seq_seat_and_type():
    s, _ = play(3, 120)
    for viewer in (None, 0, "all"):
        log = E.log_for(s, viewer)
        assert [e["seq"] for e in log] == list(range(len(s.log)))
        assert all({"seq", "seat", "type"} <= set(e) and "secret" not in e for e in log)
    assert E.log_for(s, 0, since=10) == E.log_for(s, 0)[10:]
    assert E.log_for(s, 0, since=len(s.log)) == []
    assert E.log_for(s, 0, since=None) == E.log_for(s, 0)  # None: all the state holds
    for bad in (-1, "3", 1.0, True):
        with pytest.raises(E.IllegalAction):
            E.log_for(s, 0, since=bad)


def test_final_result_is_in_the_view_once_over():
    s, _ = play(4, 5000, seats=3)
    assert E.is_terminal(s)
    result = E.final_result(s)
    assert E.view_for(s, None)["final"] == result
    assert E.view_for(s, None)["current_seats"] == []
    result["players"][0]["score"] = 10**6  # a copy
    assert E.final_result(s)["players"][0]["score"] != 10**6
    for key in ("seat", "score", "route_points", "tickets", "stations_built", "station_bonus",
                "longest_path", "longest_path_bonus", "station_routes", "longest_path_routes",
                "rank"):  # fmt: skip
        assert key in result["players"][0]
    unfinished = started()
    with pytest.raises(E.EngineError):
        E.final_result(unfinished)


def test_same_seed_and_actions_give_identical_json():
    s1, record = play(11, 300)
    s2 = E.replay({"seed": 11}, record)
    assert E.to_json(s1) == E.to_json(s2)
    s3 = E.replay({"seed": 11}, [{"seat": seat, "action": a} for seat, a in record])
    assert E.to_json(s3) == E.to_json(s1)
    assert E.to_json(play(12, 300)[0]) != E.to_json(s1)


def test_a_restored_state_continues_exactly_like_the_original():
    s, _ = play(21, 60, variant="big_cities", seats=5)
    copy = E.from_json(E.to_json(s))
    rng1, rng2 = random.Random(5), random.Random(5)
    for _ in range(200):
        if E.is_terminal(s):
            break
        for state, rng in ((s, rng1), (copy, rng2)):
            seat = rng.choice(E.current_seats(state))
            E.apply_action(state, seat, rng.choice(E.legal_actions(state, seat)))
        assert E.to_json(s) == E.to_json(copy)


def test_json_round_trip_is_exact_and_canonical():
    s, _ = play(8, 200, variant="mega_europe", seats=2)
    text = E.to_json(s)
    assert E.to_json(E.from_json(text)) == text
    assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))


def test_rng_is_a_plain_int_in_the_state():
    s = E.new_game(seed=2**70 + 5)
    state = json.loads(E.to_json(s))
    assert isinstance(state["rng"], int) and 0 <= state["rng"] < 2**64
