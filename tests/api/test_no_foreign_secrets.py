"""Mid-game, every endpoint that reads a game answers each seat and each spectator without
another seat's hand, tickets, offered tickets or the deck order (docs/rules.md 1.6)."""

import json
import random

import pytest

from games import engine, services
from games.models import Game
from tests.api.conftest import two_player_game
from tests.games.test_table_socket import secret_facts

pytestmark = pytest.mark.django_db


def play_until_tickets_are_offered(game, users, rng) -> engine.__class__:
    """Random legal moves until a seat is choosing among offered tickets, mid-game."""
    for _ in range(400):
        state = engine.from_json(Game.objects.get(pk=game.pk).state)
        offered = any(p.get("offered_tickets") for p in engine.view_for(state, "all")["players"])
        if state.phase == "tickets" and offered and engine.log_length(state) > 30:
            return state
        seat = engine.current_seats(state)[0]
        legal = engine.legal_actions(state, seat)
        late = engine.log_length(state) > 30
        wanted = [a for a in legal if a["type"] == "draw_tickets"] if late else []
        action = (wanted or legal)[rng.randrange(len(wanted or legal))]
        game.refresh_from_db()
        services.game_submit_action(
            game_id=game.pk, user=users[seat], action=action, expected_version=game.version
        )
    raise AssertionError("no ticket offer mid-game")


def endpoints(table_id: int) -> list[str]:
    base = f"/api/v1/tables/{table_id}/"
    return [base, base + "game/", base + "game/events/?page_size=200", "/api/v1/tables/",
            f"/api/tables/{table_id}/game/", "/api/v1/tables/?mine=true"]  # fmt: skip


def deck_order_keys(value, path="") -> list[str]:
    """Any list under a key naming a deck (the deck is only ever shown as a count)."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if "deck" in key and isinstance(item, list):
                found.append(path + key)
            found += deck_order_keys(item, f"{path}{key}.")
    elif isinstance(value, list):
        for item in value:
            found += deck_order_keys(item, path)
    return found


def test_no_game_endpoint_shows_another_seats_secrets(as_user, cast, admin):
    table = two_player_game(cast)
    game = Game.objects.get(table=table)
    users = {0: cast["alice"], 1: cast["bob"]}
    state = play_until_tickets_are_offered(game, users, random.Random(3))
    secrets = {seat: secret_facts(state, seat) for seat in range(state.n)}
    assert all(secrets.values())
    viewers = {0: cast["alice"], 1: cast["bob"], "spectator": cast["carol"],
               "anonymous": None, "admin": admin}  # fmt: skip
    for who, user in viewers.items():
        seat = who if isinstance(who, int) else None
        client = as_user(user)
        for url in endpoints(table.pk):
            response = client.get(url)
            if user is None and "mine" in url:
                continue
            assert response.status_code == 200, (who, url)
            text = response.content.decode()
            body = json.loads(text)
            for other, ids in secrets.items():
                if other == seat:
                    continue
                leaked = [i for i in ids if f'"{i}"' in text]
                assert not leaked, (who, url, other, leaked)
            assert not deck_order_keys(body), (who, url)
            if "view" in body:
                for player in body["view"]["players"]:
                    assert not {"hand", "tickets", "offered_tickets"} & set(player), (who, url)
                you = body["view"].get("you")
                assert (you or {}).get("seat") == seat and (seat is not None or you is None)
                assert bool(body["legal"]) == (seat in engine.current_seats(state))
    # The seat choosing sees its own offer (the check above is not vacuous).
    chooser = engine.current_seats(state)[0]
    own = as_user(users[chooser]).get(f"/api/v1/tables/{table.pk}/game/").json()
    assert {t["id"] for t in own["view"]["you"]["offered_tickets"]} <= secrets[chooser]
