"""Rules editions (docs/rules.md "Rules editions"): a game keeps the rules it was dealt under.

Edition 1 must play exactly as the engine did before editions existed (commit 32062c3e39d6),
so that stored games, in play or replayed from their actions, end as they did; edition 2 is
the rules with the four changes listed in ``games.engine.editions``.
"""

import json
import random

import pytest
from engine_testkit import LOCO, arrange, cards_total, started

import games.engine as E
from games.engine.rules.turns import finish

MEGA = {"variant": "mega_europe", "seats": 3, "seed": 1}
WH = {"warehouses": True}
DEPOTS = {0: "Roma", 1: "Wien", 2: "Budapest", 3: "Zagrab"}


def ids(s, indexes):
    return [s.board.tickets[i].id for i in indexes]


def one_choice(s, seat):
    """Edition 1's Mega Europe set-up choice over long and regular tickets together: the
    first long ticket and the first two regular ones."""
    offer = s.offers[seat]
    long = [i for i in offer if s.board.tickets[i].kind == "long"]
    regular = [i for i in offer if s.board.tickets[i].kind != "long"]
    return {"type": "keep_tickets", "tickets": ids(s, long[:1] + regular[:2])}


def pre_edition_json(text: str) -> str:
    """A state as the engine before editions stored it: no ``edition``, state version 3."""
    data = json.loads(text)
    data.pop("edition", None)
    data["version"] = 3
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


# -- the edition a game is dealt under ------------------------------------------------------


def test_new_games_are_dealt_under_the_newest_edition_and_an_older_one_on_request():
    assert E.RULES_EDITION == 2
    assert E.rules_edition(E.new_game()) == E.RULES_EDITION
    old = E.new_game(edition=1)
    assert E.rules_edition(old) == 1
    assert E.rules_edition(E.from_json(E.to_json(old))) == 1
    for bad in (0, 3, "2", 2.0, True, None):
        with pytest.raises(E.InvalidSetup):
            E.new_game(edition=bad)


# -- Mega Europe's set-up ----------------------------------------------------------------------


def test_edition_1_mega_europe_sets_up_with_one_choice_over_long_and_regular_tickets():
    s = E.new_game(**MEGA, edition=1)
    kinds = [[s.board.tickets[i].kind for i in offer] for offer in s.offers]
    assert all(k.count("long") == 2 and len(k) == 7 for k in kinds)  # all 7 dealt at once
    for seat in range(3):
        assert one_choice(s, seat) in E.legal_actions(s, seat)
        E.apply_action(s, seat, one_choice(s, seat))
    assert s.phase == "turn" and [len(t) for t in s.tickets] == [3, 3, 3]
    assert not any(e["type"] == "deal_tickets" for e in s.log)


def test_edition_2_refuses_that_one_choice():
    old = E.new_game(**MEGA, edition=1)
    s = E.new_game(**MEGA)  # the same deal's long tickets; the regular ones come later
    assert [o[:2] for o in old.offers] == s.offers
    with pytest.raises(E.IllegalAction) as refused:
        E.apply_action(s, 0, one_choice(old, 0))
    assert refused.value.code == "invalid_ticket_choice"


def test_a_state_stored_before_editions_loads_as_edition_1_and_plays_on_under_it():
    s = E.new_game(**MEGA, edition=1)
    E.apply_action(s, 0, one_choice(s, 0))  # one seat chose, two have not yet
    loaded = E.from_json(pre_edition_json(E.to_json(s)))
    assert E.rules_edition(loaded) == 1 and loaded.version == 4
    for seat in (1, 2):
        E.apply_action(loaded, seat, one_choice(loaded, seat))
        E.apply_action(s, seat, one_choice(s, seat))
    assert loaded.phase == "turn"
    assert E.to_json(loaded) == E.to_json(s)


# -- the face-up row and the depot bonus ---------------------------------------------------


def test_edition_1_leaves_a_row_of_locomotives_alone_when_no_better_row_can_come():
    # every non-locomotive card but a red one and 2 green sits in seat 1's hand
    others = {"pink": 12, "white": 12, "blue": 12, "yellow": 12, "orange": 12, "black": 12,
              "red": 11, "green": 10}  # fmt: skip
    for edition, refreshes in ((1, 0), (2, 1)):
        s = started(edition=edition)
        arrange(s, hands={1: others}, faceup=["locomotive", "locomotive", "green", "green", "red"],
                deck_top=["locomotive"])  # fmt: skip
        since = len(s.log)
        E.apply_action(s, 0, {"type": "draw_card", "source": "faceup", "slot": 4})
        # red taken, a locomotive replaces it: 3 in the row, and no row with fewer can come
        assert sum(e["type"] == "faceup_refresh" for e in s.log[since:]) == refreshes
        assert s.faceup.count(LOCO) >= 3 and cards_total(s) == 110


def test_edition_1_checks_the_row_at_the_end_of_the_turn_not_after_a_blind_draw():
    for edition, refreshed_before_second_card in ((1, False), (2, True)):
        s = started(options=WH, depots=DEPOTS, edition=edition)
        arrange(s, faceup=["locomotive"] * 3 + ["green", "green"], deck_top=["locomotive"],
                deck_rest=False, warehouses={1: ["red", "red"], 2: ["blue"]})  # fmt: skip
        for c in s.discard:
            s.hands[3][c] += 1
        s.discard = []
        s.depots_left[3], s.depots_spent[3] = 0, 4  # the warehouses feed the deck
        # no better row can come until the warehouse card empties the deck: then the
        # warehouses become the deck and one can
        E.apply_action(s, 0, {"type": "draw_card", "source": "deck", "warehouse": 0})
        assert s.phase == "draw2"
        assert (s.faceup.count(LOCO) < 3) is refreshed_before_second_card
        E.apply_action(s, 0, {"type": "draw_card", "source": "deck"})
        assert s.current == 1 and s.faceup.count(LOCO) < 3 and cards_total(s) == 110


def test_edition_1_gives_no_depot_bonus_when_nobody_has_a_depot_left():
    for edition, bonus in ((1, [0, 0]), (2, [10, 10])):
        s = started(seats=2, options=WH, edition=edition)
        s.depots_left, s.depots_spent = [0, 0], [4, 4]
        finish(s, "last_round")
        assert [p["depot_bonus"] for p in E.final_result(s)["players"]] == bonus


# -- edition 1 is the engine as it was -------------------------------------------------------


def playout(engine, seed, *, draw_bias, reload_every=0, **params):
    """(final scores, log length, face-up refreshes) of a random game: each step a random
    deciding seat takes a random legal action, a card draw with probability ``draw_bias``
    when it can (hoarding cards runs the deck down to locomotives, where the face-up rules
    of the editions differ). Every ``reload_every`` steps the state is stored and loaded the
    way a game stored before editions is. ``engine``: ``games.engine``, or another copy."""
    rng = random.Random(seed)
    s = engine.new_game(seed=seed, **params)
    steps = 0
    while not engine.is_terminal(s):
        seat = rng.choice(engine.current_seats(s))
        legal = engine.legal_actions(s, seat)
        draws = [a for a in legal if a["type"] == "draw_card"]
        engine.apply_action(
            s, seat, rng.choice(draws if draws and rng.random() < draw_bias else legal)
        )
        steps += 1
        if reload_every and steps % reload_every == 0:
            s = engine.from_json(pre_edition_json(engine.to_json(s)))
    refreshes = sum(1 for e in s.log if e["type"] == "faceup_refresh")
    return [p["score"] for p in s.final["players"]], len(s.log), refreshes


# (game, seed, what the engine before editions gave). Computed once with that engine, commit
# 32062c3e39d6: `git archive 32062c3e39d6 games/engine` unpacked into a temporary directory,
# imported there as a package of its own, and `playout(<that engine>, seed, **game)` run (with
# and without reload_every=3: the same). Edition 2 differs in each case: Mega Europe by its
# set-up, Classic by the face-up row once the hands hold most cards, Warehouses & Depots by
# the depot bonus (the first: every seat ends with no depot left, +10 each in edition 2) and
# by the face-up row (the second).
HEAD_PLAYOUTS = [
    ({"variant": "mega_europe", "seats": 4, "draw_bias": 0.9}, 1, ([4, 46, 24, 8], 438, 16)),
    ({"variant": "mega_europe", "seats": 3, "draw_bias": 0.0}, 2, ([-50, -8, -10], 260, 1)),
    ({"variant": "classic", "seats": 4, "draw_bias": 0.9}, 1, ([21, 23, 26, 38], 398, 7)),
    ({"variant": "classic", "seats": 5, "draw_bias": 0.9}, 3, ([28, 22, 50, 40, 10], 471, 9)),
    ({"variant": "classic", "seats": 3, "options": WH, "draw_bias": 0.0}, 1, ([32, 6, 16], 406, 4)),
    (
        {"variant": "europa_1912", "seats": 4, "options": WH, "draw_bias": 0.9},
        2,
        ([42, 11, 17, 24], 383, 1),
    ),
]


@pytest.mark.parametrize(("game", "seed", "expected"), HEAD_PLAYOUTS)
def test_edition_1_plays_random_games_as_the_engine_before_editions(game, seed, expected):
    assert playout(E, seed, edition=1, **game) == expected
    assert playout(E, seed, edition=1, reload_every=3, **game) == expected
    assert playout(E, seed, **game) != expected  # the case tells the editions apart
