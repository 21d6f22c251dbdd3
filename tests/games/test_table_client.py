"""The table page's client speaks every log entry the engine writes: each event type has
its own line (none falls back to the raw event name), reading the fields the engine puts in
the entry a seat or a spectator receives."""

import random
import re
from pathlib import Path

from games import engine

CLIENT = Path(__file__).resolve().parents[2] / "games" / "static" / "games" / "table.js"
GAMES = [
    {"ruleset": "europe", "variant": "classic", "seats": 4, "options": {"warehouses": True}},
    {"ruleset": "europe", "variant": "classic", "seats": 3},
    {"ruleset": "new_york", "variant": "standard", "seats": 2},
]


def played_logs(seed: int):
    """Each game played to the end with random legal moves, as a spectator's log."""
    for params in GAMES:
        rng = random.Random(seed)
        state = engine.new_game(seed=seed, **params)
        while not engine.is_terminal(state):
            seat = engine.current_seats(state)[0]
            engine.apply_action(state, seat, rng.choice(engine.legal_actions(state, seat)))
        yield engine.log_for(state, None)


def client_source() -> str:
    text = CLIENT.read_text()
    start = text.index("function describeLog")
    return text[start : text.index("function seatToken", start)]


def test_every_engine_log_event_has_its_own_line():
    handled = set(re.findall(r'case "([a-z_]+)":', client_source()))
    seen = {entry["type"] for seed in (1, 2) for log in played_logs(seed) for entry in log}
    assert seen - handled == set()


def test_the_fields_the_client_reads_for_other_seats_are_in_the_public_entries():
    fields = {}
    for log in played_logs(3):
        for entry in log:
            fields.setdefault(entry["type"], set()).update(entry)
    assert {"hand_count", "ticket_count"} <= fields["deal"]
    assert {"kept_count", "returned_count"} <= fields["keep_tickets"]
    source = client_source()
    for name in ("e.hand_count", "e.ticket_count", "e.kept_count", "e.returned_count"):
        assert name in source
