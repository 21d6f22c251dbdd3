"""Drawing train cards (docs/rules.md 1.3.1): face-up locomotives, refreshes, reshuffles."""

import pytest
from engine_testkit import LOCO, arrange, cards_total, hand, snapshot, started

import games.engine as E

ROW = ["red", "blue", "locomotive", "green", "white"]


def draw(s, seat, slot=None):
    if slot is None:
        return E.apply_action(s, seat, {"type": "draw_card", "source": "deck"})
    return E.apply_action(s, seat, {"type": "draw_card", "source": "faceup", "slot": slot})


def test_two_cards_one_at_a_time_and_face_up_cards_are_replaced():
    s = started()
    arrange(s, faceup=ROW, deck_top=["black", "orange", "yellow"])
    draw(s, 0, 0)
    assert hand(s, 0) == {"red": 1} and s.faceup[0] == 5  # black replaced it
    assert s.phase == "draw2" and s.current == 0
    draw(s, 0)
    assert hand(s, 0) == {"red": 1, "orange": 1}
    assert s.phase == "turn" and s.current == 1


def test_face_up_locomotive_first_ends_the_action():
    s = started()
    arrange(s, faceup=ROW, deck_top=["black"])
    draw(s, 0, 2)
    assert hand(s, 0) == {"locomotive": 1} and s.current == 1


def test_face_up_locomotive_cannot_be_the_second_card_even_as_a_replacement():
    s = started()
    arrange(s, faceup=ROW, deck_top=["locomotive"])
    draw(s, 0, 0)  # red; replaced by a locomotive
    assert s.faceup[0] == LOCO
    listed = E.legal_actions(s, 0)
    assert {"type": "draw_card", "source": "deck"} in listed
    assert all(a.get("color") != "locomotive" for a in listed)
    assert all(a["type"] == "draw_card" for a in listed)
    before = snapshot(s)
    for slot in (0, 2):
        with pytest.raises(E.IllegalAction) as e:
            draw(s, 0, slot)
        assert e.value.code == "second_locomotive" and snapshot(s) == before
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "draw_tickets"})
    assert e.value.code == "stale_phase"


def test_blind_locomotive_counts_as_an_ordinary_card():
    s = started()
    arrange(s, faceup=ROW, deck_top=["locomotive", "red"])
    draw(s, 0)
    assert hand(s, 0) == {"locomotive": 1} and s.phase == "draw2"
    draw(s, 0, 1)
    assert hand(s, 0) == {"locomotive": 1, "blue": 1} and s.current == 1


def test_listed_face_up_actions_name_the_colour_and_a_wrong_colour_is_refused():
    s = started()
    arrange(s, faceup=ROW)
    listed = E.legal_actions(s, 0)
    assert {"type": "draw_card", "source": "faceup", "slot": 1, "color": "blue"} in listed
    with pytest.raises(E.IllegalAction) as e:
        E.apply_action(s, 0, {"type": "draw_card", "source": "faceup", "slot": 1, "color": "red"})
    assert e.value.code == "faceup_mismatch"
    E.apply_action(s, 0, {"type": "draw_card", "source": "faceup", "slot": 1, "color": "blue"})


def test_three_face_up_locomotives_refresh_the_row():
    s = started()
    arrange(s, faceup=ROW, deck_top=["locomotive", "locomotive", "red", "red", "red", "red", "red"])
    draw(s, 0)  # takes the blind locomotive
    draw(s, 0, 0)  # red taken, replaced by a locomotive: 2 locos in the row, no refresh
    assert s.faceup.count(LOCO) == 2
    s.current = 1
    arrange(s, faceup=["red", "blue", "locomotive", "locomotive", "white"],
            deck_top=["locomotive", "red", "red", "red", "red", "red"])  # fmt: skip
    draw(s, 1, 0)  # replacement is the third locomotive -> refresh
    refresh = [e for e in s.log if e["type"] == "faceup_refresh"]
    assert refresh[-1]["discarded"] == ["locomotive", "blue", "locomotive", "locomotive", "white"]
    assert s.faceup == [6] * 5
    assert cards_total(s) == 110


def test_refresh_at_set_up():
    for seed in range(200):
        s = E.new_game(seed=seed)
        assert s.faceup.count(LOCO) < 3
        if any(e["type"] == "faceup_refresh" for e in s.log):
            break
    else:
        pytest.fail("no set-up refresh in 200 seeds")


def test_endless_refresh_decision_stops_when_no_other_row_can_come():
    s = started()
    # all 14 locomotives and 4 other cards are out of hands: row 3 locos, deck 11 locos
    # + 2 others... only 2 non-locomotives exist outside hands -> no row with <3 locos
    everything_but = {"pink": 12, "white": 12, "blue": 12, "yellow": 12, "orange": 12,
                      "black": 12, "red": 12, "green": 10}  # fmt: skip
    arrange(s, hands={1: everything_but}, faceup=["locomotive"] * 3 + ["green", "green"],
            deck_rest=True)  # fmt: skip
    assert len(s.deck) == 11
    from games.engine.rules.cards import check_refresh

    check_refresh(s)
    assert not any(e["type"] == "faceup_refresh" for e in s.log)
    assert s.faceup.count(LOCO) == 3
    # one more ordinary card outside the hands makes a different row possible
    s.hands[1][7] -= 1
    s.deck.insert(0, 7)
    check_refresh(s)
    assert s.faceup.count(LOCO) < 3 and cards_total(s) == 110


def test_empty_deck_is_reshuffled_from_the_discard():
    s = started()
    arrange(s, faceup=ROW, deck_top=[], discard=["red", "red", "blue"], deck_rest=False)
    s.discard, s.deck = s.discard[:3], []
    s.hands[2] = [12, 11, 10, 12, 12, 12, 9, 11, 13]  # the other cards sit in a hand
    assert cards_total(s) == 110
    draw(s, 0)
    assert any(e["type"] == "reshuffle" and e["count"] == 3 for e in s.log)
    assert len(s.deck) == 2 and s.discard == []


def test_no_blind_draw_when_deck_and_discard_are_empty_but_face_up_may_be_taken():
    s = started()
    arrange(s, faceup=ROW, deck_rest=False)
    s.hands[2] = [12, 12, 12, 12, 12, 12, 12, 12, 14]
    s.hands[2] = [a - b for a, b in zip(s.hands[2], [0, 1, 1, 0, 0, 0, 1, 1, 1], strict=True)]
    s.discard = []
    assert cards_total(s) == 110
    listed = E.legal_actions(s, 0)
    assert {"type": "draw_card", "source": "deck"} not in listed
    with pytest.raises(E.IllegalAction) as e:
        draw(s, 0)
    assert e.value.code == "deck_empty"
    draw(s, 0, 0)  # red; nothing replaces it
    assert s.faceup[0] == -1 and s.phase == "draw2"
    assert E.view_for(s, None)["faceup"][0] is None
    with pytest.raises(E.IllegalAction) as e:
        draw(s, 0, 0)
    assert e.value.code == "empty_slot"
    draw(s, 0, 1)
    assert s.current == 1


def test_only_one_card_available_ends_the_action_after_it():
    s = started()
    arrange(s, faceup=[None, None, "locomotive", None, "red"], deck_rest=False)
    s.hands[2] = [12, 12, 12, 12, 12, 12, 11, 12, 13]
    s.discard = []
    assert cards_total(s) == 110
    draw(s, 0, 4)  # red; the only other card is a face-up locomotive
    assert hand(s, 0) == {"red": 1} and s.current == 1


def test_empty_slots_are_refilled_at_the_end_of_a_turn_when_cards_come_back():
    s = started()
    arrange(s, hands={0: {"red": 2}}, faceup=[None, "blue", "green", "white", "black"],
            deck_rest=False)  # fmt: skip
    s.hands[2] = [12, 11, 11, 12, 12, 11, 10, 11, 14]
    s.discard = []
    assert cards_total(s) == 110
    rid = next(r.id for r in s.board.routes if r.color == "gray" and r.length == 2
               and not r.tunnel and not r.ferry_locomotives)  # fmt: skip
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"red": 2}})
    assert s.faceup[0] == 6 and cards_total(s) == 110


@pytest.mark.parametrize("slot", [-1, 5, 99])
def test_bad_slots(slot):
    s = started()
    with pytest.raises(E.IllegalAction) as e:
        draw(s, 0, slot)
    assert e.value.code == "invalid_slot"
