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


# Rulebook (anniversary edition): "Sollten einmal mindestens 3 der 5 offen ausliegenden
# Karten Lokomotiven sein, werden alle 5 Karten auf den Ablagestapel gelegt und 5 neue als
# Ersatz aufgedeckt." (Should 3 or more of the 5 face-up cards ever be locomotives, all 5 go
# to the discard pile and 5 new ones are turned up.) Dutch: "Indien op een willekeurig moment
# 3 van de 5 open treinkaarten een locomotief tonen" (if at any moment ...). The rule fires;
# docs/rules.md 1.3.1 Decision (endless refresh) only stops it repeating for ever.
def _stuck(s, faceup, deck_top=(), red=1):
    """Every non-locomotive card but ``red`` red ones and 2 green sits in seat 1's hand."""
    everything_but = {"pink": 12, "white": 12, "blue": 12, "yellow": 12, "orange": 12,
                      "black": 12, "red": 12 - red, "green": 10}  # fmt: skip
    return arrange(s, hands={1: everything_but}, faceup=faceup, deck_top=deck_top)


def _refreshes(s, since=0):
    return [e for e in s.log[since:] if e["type"] == "faceup_refresh"]


def test_endless_refresh_decision_refreshes_once_then_stops():
    s = _stuck(started(), ["locomotive", "locomotive", "green", "green", "red"], ["locomotive"])
    assert s.deck.count(LOCO) == len(s.deck) == 12
    since = len(s.log)
    draw(s, 0, 4)  # red taken, a locomotive replaces it: 3 in the row, and the only other
    # cards left (2 green) can never make a row with fewer than 3 locomotives
    refreshes = _refreshes(s, since)
    assert len(refreshes) == 1  # the rule fires once ...
    assert refreshes[0]["discarded"] == ["locomotive", "locomotive", "green", "green",
                                         "locomotive"]  # fmt: skip
    assert s.faceup == [LOCO] * 5 and s.phase == "draw2"  # ... then the row stays
    draw(s, 0)  # a blind locomotive; the row is checked again but cannot be better
    assert s.current == 1 and len(_refreshes(s, since)) == 1
    assert s.faceup == [LOCO] * 5 and cards_total(s) == 110


def test_a_row_that_did_not_change_is_refreshed_only_when_a_better_one_can_come():
    from games.engine.rules.cards import check_refresh

    s = _stuck(started(), ["locomotive"] * 3 + ["green", "green"], red=0)
    since = len(s.log)
    check_refresh(s, changed=False)  # e.g. at the end of a turn: nothing new, no refresh
    assert _refreshes(s, since) == [] and s.faceup.count(LOCO) == 3
    # one more ordinary card outside the hands makes a better row possible: the check then
    # clears the row until it has fewer than 3 locomotives (here the 3 non-locomotives)
    s.hands[1][6] -= 1
    s.deck.insert(0, 6)
    check_refresh(s, changed=False)
    assert s.faceup.count(LOCO) < 3 and cards_total(s) == 110


def test_cards_paid_to_the_discard_let_a_stuck_row_clear_at_the_end_of_the_action():
    s = _stuck(started(), ["locomotive"] * 3 + ["green", "green"], red=0)
    s.hands[1][6] -= 3  # seat 0 pays 3 red for a route: the discard then makes a better row
    s.hands[0][6] += 3
    rid = next(r.id for r in s.board.routes if r.color == "red" and r.length == 3
               and not r.tunnel)  # fmt: skip
    E.apply_action(s, 0, {"type": "claim_route", "route": rid, "cards": {"red": 3}})
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
