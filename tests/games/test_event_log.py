"""The game log lives in the events, not in the stored state (``engine.detach_log``): a move
stores a state whose size does not grow with the log, every step's raw entries are in its
event, and whoever reads the log (a full sync, the events API) gets it whole and redacted."""

import pytest
from django.test import Client

from games import engine, services
from games.models import Game, GameEvent
from tests.games.moving import play_against_bot, replay_events

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=60)
    services.table_add_bot(table_id=table.pk, by=cast["alice"], level="medium")
    return Game.objects.get(table=table)


def test_the_stored_state_holds_no_log_and_the_events_hold_all_of_it(
    game, cast, django_capture_on_commit_callbacks
):
    lengths = play_against_bot(game, cast["alice"], 80, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    stored = engine.from_json(game.state)
    replayed = replay_events(game)
    events = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [e.seq for e in events] == list(range(game.version + 1))
    assert events[0].action is None and events[0].seat is None
    types = [e["type"] for e in events[0].entries]
    # A dealt face-up row with three locomotives is refreshed before the hands are logged.
    assert types[0] == "game_start" and types.count("deal") == 2 and types[-1] == "setup"
    assert [x for e in events for x in e.entries] == replayed.log
    assert stored.log == [] and stored.log_base == len(replayed.log)
    # What grows with the game is the log; the stored state no longer holds it.
    assert len(game.state) < len(engine.to_json(replayed)) / 2
    assert lengths[-1] < lengths[9] * 1.3, lengths
    whole = services.game_state(game, whole_log=True)
    assert engine.to_json(whole) == engine.to_json(replayed)


def test_a_full_sync_and_the_events_api_give_each_viewer_the_whole_log_redacted(
    game, cast, django_capture_on_commit_callbacks
):
    play_against_bot(game, cast["alice"], 30, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    replayed = replay_events(game)
    for seat in (0, 1, None):
        frame = services.game_frame(game=game, seat=seat)
        assert frame["log_start"] == 0 and frame["log"] == engine.log_for(replayed, seat)
        view = engine.view_for(replayed, seat)
        assert frame["view"] == {k: v for k, v in view.items() if k != "log"}
    client = Client()
    client.force_login(cast["alice"])
    body = client.get(f"/api/v1/tables/{game.table_id}/game/events/?page_size=200").json()
    steps = body["results"]
    assert [s["seq"] for s in steps] == list(range(game.version + 1))
    assert [e for s in steps for e in s["entries"]] == engine.log_for(replayed, 0)
    dealt = next(e for e in steps[0]["entries"] if e["type"] == "deal")
    assert steps[0]["seat"] is None and dealt["type"] == "deal" and "hand" in dealt
    anonymous = Client().get(f"/api/v1/tables/{game.table_id}/game/events/?page_size=200")
    entries = [e for s in anonymous.json()["results"] for e in s["entries"]]
    assert entries == engine.log_for(replayed, None)
    assert not any("hand" in e or "tickets" in e for e in entries)


def test_a_full_sync_read_before_a_move_is_not_mixed_with_it(
    game, cast, django_capture_on_commit_callbacks
):
    play_against_bot(game, cast["alice"], 6, django_capture_on_commit_callbacks)
    stale = Game.objects.get(pk=game.pk)  # a sync read the row; a move lands before its events
    play_against_bot(game, cast["alice"], 2, django_capture_on_commit_callbacks)
    frame = services.game_frame(game=stale, seat=0)
    state = engine.from_json(stale.state)
    assert frame["version"] == stale.version < Game.objects.get(pk=game.pk).version
    assert len(frame["log"]) == engine.log_length(state)


def test_an_event_reads_as_game_seq_and_action_type_the_set_up_included(game):
    setup = GameEvent.objects.get(game=game, seq=0)
    assert setup.action is None  # the set-up is no action: str() once raised on it
    assert str(setup) == f"{game.pk}#0 setup"
    move = GameEvent(game=game, seq=1, action={"type": "draw_tickets"})
    assert str(move) == f"{game.pk}#1 draw_tickets"
