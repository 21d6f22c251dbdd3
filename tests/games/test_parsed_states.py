"""games.storage.parsed_states: a process keeps the states it stored, parsed, for the
game's next move; a kept state is used only for exactly the row it was written to, once."""

import pytest

from games import engine, services
from games.models import Game
from games.storage import parsed_states
from tests.games.moving import play_against_bot, replay_events

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(cast):
    parsed_states.clear()
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=60)
    services.table_add_bot(table_id=table.pk, by=cast["alice"], level="medium")
    return Game.objects.get(table=table)


def test_moves_use_the_kept_state_and_store_what_replaying_gives(
    game, cast, django_capture_on_commit_callbacks
):
    hits = parsed_states.hits
    play_against_bot(game, cast["alice"], 40, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    assert game.version == 40
    assert parsed_states.hits - hits >= 35  # the first moves run before anything was kept
    replayed = replay_events(game)
    engine.detach_log(replayed)  # stored beside the state, in the events
    assert engine.to_json(replayed) == game.state


def test_a_kept_state_is_not_used_when_the_row_holds_other_text(
    game, cast, django_capture_on_commit_callbacks
):
    play_against_bot(game, cast["alice"], 2, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    # Someone rewrote the state without a new version (no code does; the check must hold).
    other = engine.from_json(game.state)
    other.scores[0] += 7
    Game.objects.filter(pk=game.pk).update(state=engine.to_json(other))
    game.refresh_from_db()
    misses = parsed_states.misses
    assert parsed_states.take(game).scores[0] == other.scores[0]
    assert parsed_states.misses == misses + 1


def test_a_kept_state_is_handed_out_once(game, cast, django_capture_on_commit_callbacks):
    play_against_bot(game, cast["alice"], 2, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    first = parsed_states.take(game)
    second = parsed_states.take(game)
    assert first is not second
    assert engine.to_json(first) == engine.to_json(second) == game.state


def test_an_illegal_move_leaves_no_trace_in_the_kept_states(
    game, cast, django_capture_on_commit_callbacks
):
    play_against_bot(game, cast["alice"], 2, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    before = game.state
    with pytest.raises(engine.IllegalAction):
        services.game_submit_action(
            game_id=game.pk,
            action={"type": "claim_route", "route": 1, "cards": {"red": 99}},
            expected_version=game.version,
            user=cast["alice"],
        )
    game.refresh_from_db()
    assert game.state == before
    assert engine.to_json(parsed_states.take(game)) == before
