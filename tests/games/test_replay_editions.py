"""The replay of a finished game deals it again under its own rules edition (docs/rules.md
"Rules editions"), so games stored before the rules changed replay as they were played."""

import json
import random

import pytest
from django.urls import reverse

from games import engine, services
from games.models import Game, GameEvent, Table

pytestmark = pytest.mark.django_db

SEED = 5
# The final scores of this game under the engine before rules editions (commit
# 32062c3e39d6, its games/engine unpacked with `git archive` and imported on its own, the
# same random game played with it): ranks 2 and 1.
OLD_SCORES = [-35, -12]


def played_before_editions(params: dict) -> tuple:
    """A random game of edition 1, and its actions, as the engine before editions played it."""
    state = engine.new_game(**params, edition=1)
    rng = random.Random(SEED)
    actions = []
    while not engine.is_terminal(state):
        seat = rng.choice(engine.current_seats(state))
        action = rng.choice(engine.legal_actions(state, seat))
        engine.apply_action(state, seat, action)
        actions.append((seat, action))
    return state, actions


def stored_before_editions(state) -> str:
    """The state as stored before editions: its log in the events, no ``edition``, version 3."""
    engine.detach_log(state)
    data = json.loads(engine.to_json(state))
    del data["edition"]
    data["version"] = 3
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def test_a_mega_europe_game_stored_before_editions_replays_under_its_own_rules(client, cast):
    table = services.table_create(owner=cast["alice"], variant="mega_europe", seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])
    game = Game.objects.get(table=table)
    params = table.game_params(SEED)
    state, actions = played_before_editions(params)
    # its set-up kept long and regular tickets in one choice, which edition 2 refuses
    with pytest.raises(engine.IllegalAction):
        engine.replay(params, actions)
    game.seed, game.version, game.state = SEED, len(actions), stored_before_editions(state)
    game.save(update_fields=["seed", "version", "state"])
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=seq, seat=seat, action=action)
        for seq, (seat, action) in enumerate(actions, start=1)
    )
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)

    response = client.get(reverse("table_replay", args=[table.pk]))

    assert response.status_code == 200
    frames = response.context["frames"]
    assert len(frames) == len(actions) + 1
    assert [p["score"] for p in frames[-1]["final"]["players"]] == OLD_SCORES
    assert [p["score"] for p in state.final["players"]] == OLD_SCORES
