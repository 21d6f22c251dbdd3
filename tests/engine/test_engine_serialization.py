"""The JSON form of a state is the same string whichever codec writes it (the standard
library, or orjson as the site plugs it in), and it round-trips exactly, in every phase of
games of each rule set."""

import json
import random

import orjson
import pytest

import games.engine as E
from games.engine import serialization
from games.engine.bots import choose_action


@pytest.fixture(params=["json", "orjson"], autouse=True)
def codec(request):
    if request.param == "orjson":
        serialization.set_json_codec(
            dumps=lambda data: orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode(),
            loads=orjson.loads,
        )
    yield request.param
    serialization.set_json_codec()


def _standard_form(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


@pytest.mark.parametrize(
    ("ruleset", "variant", "seats", "options"),
    [
        ("europe", "classic", 4, {}),
        ("europe", "classic", 3, {"warehouses": True}),
        ("new_york", "standard", 2, {}),
    ],
)
def test_the_json_form_is_the_standard_librarys_in_every_phase(ruleset, variant, seats, options):
    rng = random.Random(7)
    state = E.new_game(ruleset=ruleset, variant=variant, seats=seats, seed=11, options=options)
    checked = 0
    while not E.is_terminal(state):
        text = E.to_json(state)
        assert text == _standard_form(state)
        assert E.to_json(E.from_json(text)) == text
        checked += 1
        seat = E.current_seats(state)[0]
        legal = E.legal_actions(state, seat)
        action = choose_action("easy", E.view_for(state, seat), legal, seed=rng.randrange(1 << 30))
        E.apply_action(state, seat, action)
    assert E.to_json(state) == _standard_form(state) and checked > 20


def test_what_orjson_would_write_otherwise_falls_back_to_the_standard_library():
    state = E.new_game(seats=2, seed=3)
    state.log.append({"type": "note", "text": "Zoë"})  # not in a state today; if it ever is
    assert E.to_json(state) == _standard_form(state)
    state.log.append({"type": "note", "n": 2**70})  # beyond 64 bits
    assert E.to_json(state) == _standard_form(state)
