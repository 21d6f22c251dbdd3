"""Migrations 0006 and 0007 move a running game's log out of its stored state into its
events, and back: the game reads the same before and after, for every audience."""

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import engine

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0005_state_lz4")]
SPLIT = [("games", "0006_log_in_events")]


def _newest():
    """Every app's newest migration: the schema the other tests expect back (not 0007: the
    migrations after it, e.g. 0009's new column, would be left unapplied)."""
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _old_game(moves: int):
    """A game as the code before 0006 stored it: a version-2 state holding the whole log,
    and per move the public entries and each seat's differing ones."""
    state = engine.new_game(seats=3, seed=21, edition=1)  # the rules edition of that code
    steps = []
    for _ in range(moves):
        seat = engine.current_seats(state)[0]
        since = len(state.log)
        action = engine.legal_actions(state, seat)[0]
        engine.apply_action(state, seat, action)
        public = engine.log_for(state, None, since)
        private = {}
        for viewer in range(3):
            entries = engine.log_for(state, viewer, since)
            if entries != public:
                private[str(viewer)] = entries
        steps.append((seat, action, public, private))
    data = json.loads(engine.to_json(state))
    del data["log_base"]
    data["version"] = 2
    return state, json.dumps(data, sort_keys=True, separators=(",", ":")), steps


def test_the_log_moves_into_the_events_and_back():
    apps = _migrate(BEFORE)
    try:
        Table, Game = apps.get_model("games", "Table"), apps.get_model("games", "Game")
        GameEvent = apps.get_model("games", "GameEvent")
        state, old_json, steps = _old_game(40)
        table = Table.objects.create(seat_count=3, status="playing", invite_token="mig-test")
        game = Game.objects.create(table=table, seed=21, state=old_json, version=len(steps))
        for seq, (seat, action, public, private) in enumerate(steps, start=1):
            GameEvent.objects.create(game=game, seq=seq, seat=seat, action=action,
                                     public=public, private=private)  # fmt: skip

        apps = _migrate(SPLIT)
        Game, GameEvent = apps.get_model("games", "Game"), apps.get_model("games", "GameEvent")
        stored = engine.from_json(Game.objects.get(pk=game.pk).state)
        events = list(GameEvent.objects.filter(game_id=game.pk).order_by("seq"))
        assert [e.seq for e in events] == list(range(len(steps) + 1))
        assert events[0].action is None and events[0].entries[0]["type"] == "game_start"
        assert [x for e in events for x in e.entries] == state.log
        assert stored.log == [] and stored.log_base == len(state.log)
        for event, (seat, action, public, private) in zip(events[1:], steps, strict=True):
            assert (event.seat, event.action) == (seat, action)
            assert engine.redact_entries(event.entries, None) == public
            for viewer in range(3):
                expected = private.get(str(viewer), public)
                assert engine.redact_entries(event.entries, viewer) == expected
        whole = engine.attach_log(stored, [x for e in events for x in e.entries])
        assert engine.to_json(whole) == engine.to_json(state)

        apps = _migrate(BEFORE)
        Game, GameEvent = apps.get_model("games", "Game"), apps.get_model("games", "GameEvent")
        assert Game.objects.get(pk=game.pk).state == old_json
        back = list(GameEvent.objects.filter(game_id=game.pk).order_by("seq"))
        assert [(e.seat, e.action, e.public, e.private) for e in back] == steps
    finally:
        _migrate(_newest())
