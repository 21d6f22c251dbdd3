"""A host may keep the log out of the state it stores (``detach_log``) and put it back for a
whole view (``attach_log``): the game is the same game either way, entry for entry."""

import json
import random

import pytest

import games.engine as E
from games.engine.bots import choose_action


def _play(state, rng, moves: int, after_each=None):
    for _ in range(moves):
        if E.is_terminal(state):
            break
        seat = E.current_seats(state)[0]
        legal = E.legal_actions(state, seat)
        view = E.view_for(state, seat, log_since=E.log_length(state))
        E.apply_action(state, seat, choose_action("easy", view, legal, seed=rng.randrange(1 << 30)))
        if after_each is not None:
            after_each(state)


@pytest.mark.parametrize(
    ("ruleset", "seats", "options"),
    [("europe", 4, {}), ("europe", 3, {"warehouses": True}), ("new_york", 2, {})],
)
def test_a_game_whose_log_is_detached_after_every_move_is_the_same_game(ruleset, seats, options):
    whole = E.new_game(ruleset=ruleset, seats=seats, seed=8, options=options)
    split = E.new_game(ruleset=ruleset, seats=seats, seed=8, options=options)
    stored = E.detach_log(split)  # as a host stores a new game: its deal goes with the set-up
    texts = []

    def store(state):
        # what a host does after each move: take the move's entries out, store the rest
        since = E.log_length(state) - len(state.log)
        entries = E.detach_log(state)
        assert [e["seq"] for e in entries] == list(range(since, E.log_length(state)))
        stored.extend(entries)
        texts.append(E.to_json(state))

    _play(whole, random.Random(3), 150)
    _play(split, random.Random(3), 150, after_each=store)
    assert stored == whole.log and E.log_length(split) == len(whole.log)
    assert split.log == [] and split.log_base == len(whole.log)
    # the stored form is small and round-trips; putting the entries back gives the whole game
    assert len(texts[-1]) < len(E.to_json(whole)) / 3
    reloaded = E.from_json(texts[-1])
    assert E.to_json(reloaded) == texts[-1]
    assert E.to_json(E.attach_log(reloaded, stored)) == E.to_json(whole)
    for viewer in [None, "all", *range(seats)]:
        assert E.redact_entries(stored, viewer) == E.log_for(whole, viewer)
        view = E.view_for(split, viewer, log_since=E.log_length(split))
        assert view["log"] == [] and view == {**E.view_for(whole, viewer), "log": []}


def test_a_detached_state_numbers_its_next_entries_on_and_shows_only_what_it_holds():
    state = E.new_game(seats=2, seed=5)
    dealt = E.detach_log(state)
    seat = E.current_seats(state)[0]
    E.apply_action(state, seat, E.legal_actions(state, seat)[0])
    assert [e["seq"] for e in state.log] == [len(dealt)]
    assert E.log_for(state, seat, len(dealt)) == E.redact_entries(state.log, seat)
    assert E.view_for(state, seat)["log"] == E.log_for(state, seat)  # what it holds
    assert E.log_for(state, seat) == E.redact_entries(state.log, seat)
    with pytest.raises(E.IllegalAction) as error:
        E.view_for(state, seat, log_since=0)  # the whole log, which this state does not hold
    assert error.value.code == "malformed_action"
    with pytest.raises(E.IllegalAction):
        E.log_for(state, None, len(dealt) - 1)


def test_only_the_exact_earlier_entries_can_be_put_back():
    state = E.new_game(seats=3, seed=2)
    dealt = E.detach_log(state)
    before = E.to_json(state)
    for wrong in (dealt[:-1], dealt[1:] + dealt[:1], [*dealt, dealt[-1]], [None] * len(dealt)):
        with pytest.raises(ValueError):
            E.attach_log(state, wrong)
        assert E.to_json(state) == before  # a refused attach changes nothing
    assert E.attach_log(state, dealt).log == dealt and state.log_base == 0


def test_a_version_2_state_holds_its_whole_log():
    state = E.new_game(seats=2, seed=9, edition=1)  # saved before rules editions
    data = json.loads(E.to_json(state))
    del data["log_base"], data["edition"]
    data["version"] = 2
    old = E.from_json(json.dumps(data))
    assert old.version == 4 and old.log_base == 0 and old.log == state.log
    assert E.to_json(old) == E.to_json(state)
