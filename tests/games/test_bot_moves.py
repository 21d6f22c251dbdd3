"""A bot's move (games.services.game_bot_move): one decision per queued version."""

import pytest

from games import services
from games.models import Game, GameEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=30)
    services.table_add_bot(table_id=table.pk, by=cast["alice"], level="easy")
    return Game.objects.get(table=table)


def test_a_bot_makes_its_decision_at_the_version_it_was_queued_for(game):
    assert services.game_bot_move(game_id=game.pk, expected_version=0) is True
    event = GameEvent.objects.get(game=game, seq=1)
    assert (event.seat, event.by_bot, event.action["type"]) == (1, True, "keep_tickets")
    assert Game.objects.get(pk=game.pk).version == 1


def test_a_bot_move_that_was_overtaken_does_nothing(game):
    services.game_bot_move(game_id=game.pk, expected_version=0)
    assert services.game_bot_move(game_id=game.pk, expected_version=0) is False
    assert Game.objects.get(pk=game.pk).version == 1


def test_no_bot_moves_while_only_a_player_has_a_decision(game):
    services.game_bot_move(game_id=game.pk, expected_version=0)  # the bot kept its tickets
    assert services.game_bot_move(game_id=game.pk, expected_version=1) is False
    assert Game.objects.get(pk=game.pk).version == 1


def test_a_bot_move_for_a_game_that_is_gone_does_nothing():
    assert services.game_bot_move(game_id=987654, expected_version=0) is False
