"""Server-rendered pages of the live tables: lobby, table, replay, forms."""

import json
import random
import re
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.models import Game, Table

pytestmark = pytest.mark.django_db


def play_to_the_end(table, users, seed=3):
    rng = random.Random(seed)
    game = Game.objects.get(table=table)
    while True:
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if engine.is_terminal(state):
            return game
        seat = engine.current_seats(state)[0]
        action = rng.choice(engine.legal_actions(state, seat))
        services.game_submit_action(game_id=game.pk, user=users[seat], action=action,
                                    expected_version=game.version)  # fmt: skip


def test_the_lobby_lists_open_public_tables_only(client, cast):
    public = services.table_create(owner=cast["alice"], seat_count=3)
    private = services.table_create(owner=cast["bob"], seat_count=3, is_private=True)
    content = client.get(reverse("play")).content.decode()
    assert f'data-table-id="{public.pk}"' in content
    assert f'data-table-id="{private.pk}"' not in content


def test_creating_a_table_with_bots_starts_it(client, cast):
    client.force_login(cast["alice"])
    response = client.post(reverse("table_create"), {
        "ruleset": "europe", "variant": "classic", "seat_count": 3,
        "time_control": "realtime", "move_seconds": 60, "turn_hours": 24, "bots": "easy",
    })  # fmt: skip
    table = Table.objects.get()
    assert response["Location"] == table.get_absolute_url()
    assert table.status == Table.Status.PLAYING
    assert [s.bot_level for s in table.seats.order_by("position")] == ["", "easy", "easy"]


def test_a_forged_table_form_gets_clear_errors_and_creates_nothing(client, cast):
    client.force_login(cast["alice"])
    response = client.post(reverse("table_create"), {
        "ruleset": "europe", "variant": "chess", "seat_count": 9, "time_control": "x",
        "move_seconds": -5, "turn_hours": 24,
    })  # fmt: skip
    assert response.status_code == 200
    form = response.context["form"]
    assert set(form.errors) >= {"variant", "seat_count", "time_control", "move_seconds"}
    assert not Table.objects.exists()


def test_a_private_table_is_hidden_from_strangers_and_opens_with_its_invite(client, cast):
    table = services.table_create(owner=cast["alice"], seat_count=2, is_private=True)
    client.force_login(cast["bob"])
    assert client.get(table.get_absolute_url()).status_code == 404
    response = client.post(reverse("table_invite", args=[table.pk, table.invite_token]))
    assert response["Location"] == table.get_absolute_url()
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # bob took the last seat


def test_opening_an_invite_link_shows_the_table_and_joins_nobody(client, cast):
    table = services.table_create(owner=cast["alice"], seat_count=3, is_private=True,
                                  time_control="turn_based", turn_hours=12)  # fmt: skip
    url = reverse("table_invite", args=[table.pk, table.invite_token])
    client.force_login(cast["bob"])
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Europe" in page and "12 h per move" in page and "Alice" in page
    assert "1 of 3 seat taken" in page and 'id="accept-invite"' in page
    assert 'name="csrfmiddlewaretoken"' in page
    assert client.head(url).status_code == 200
    assert table.seats.count() == 1, "a GET (a link preview, a prefetch) joins nobody"
    client.post(url)
    assert table.seats.filter(user=cast["bob"]).exists()
    assert client.get(url)["Location"] == table.get_absolute_url()  # seated: to the table


def test_taking_a_seat_by_invite_needs_the_csrf_token(cast):
    table = services.table_create(owner=cast["alice"], seat_count=3, is_private=True)
    client = Client(enforce_csrf_checks=True)
    client.force_login(cast["bob"])
    url = reverse("table_invite", args=[table.pk, table.invite_token])
    assert client.post(url).status_code == 403
    assert table.seats.count() == 1


def test_an_anonymous_visitor_logs_in_and_comes_back_to_the_invite(client, cast):
    table = services.table_create(owner=cast["alice"], seat_count=3, is_private=True)
    url = reverse("table_invite", args=[table.pk, table.invite_token])
    for response in (client.get(url), client.post(url)):
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('account_login')}?next={quote(url)}"
    assert table.seats.count() == 1


def test_a_replaced_invite_link_is_a_clear_404_and_the_new_one_works(client, cast):
    table = services.table_create(owner=cast["alice"], seat_count=3, is_private=True)
    old = reverse("table_invite", args=[table.pk, table.invite_token])
    client.force_login(cast["bob"])
    client.post(reverse("table_invite_rotate", args=[table.pk]))  # not the owner's: refused
    assert client.get(old).status_code == 200
    client.force_login(cast["alice"])
    response = client.post(reverse("table_invite_rotate", args=[table.pk]), follow=True)
    assert "the old one no longer works" in response.content.decode()
    table.refresh_from_db()
    new = reverse("table_invite", args=[table.pk, table.invite_token])
    assert new != old and new in response.content.decode()
    client.force_login(cast["bob"])
    for response in (client.get(old), client.post(old)):
        assert response.status_code == 404
        assert "This invite link is not valid" in response.content.decode()
    assert client.get(reverse("table_invite", args=[table.pk, "wrong"])).status_code == 404
    assert table.seats.count() == 1
    assert client.post(new)["Location"] == table.get_absolute_url()
    assert table.seats.filter(user=cast["bob"]).exists()


def test_the_new_table_form_says_when_the_open_table_limit_is_reached(client, cast, settings):
    settings.MAX_OPEN_TABLES_PER_USER = 1
    client.force_login(cast["alice"])
    form = {"ruleset": "europe", "variant": "classic", "seat_count": 3,
            "time_control": "realtime", "move_seconds": 60, "turn_hours": 24}  # fmt: skip
    assert client.post(reverse("table_create"), form).status_code == 302
    response = client.post(reverse("table_create"), form)
    assert response.status_code == 200
    assert "limited to 1 per player" in response.content.decode()
    assert Table.objects.count() == 1


def test_the_replay_steps_through_every_move_with_every_hand_shown(client, cast):
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])
    game = play_to_the_end(table, {0: cast["alice"], 1: cast["bob"]})
    response = client.get(reverse("table_replay", args=[table.pk]))
    assert response.status_code == 200
    frames = response.context["frames"]
    assert len(frames) == game.version + 1
    assert all("hand" in p for p in frames[5]["players"]), "replays show every hand"
    match = re.search(r'<script id="replay-frames" type="application/json">(.*?)</script>',
                      response.content.decode(), re.S)  # fmt: skip
    assert match is None or len(json.loads(match.group(1))) == len(frames)


def test_a_running_game_has_no_replay_yet(client, cast):
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])
    assert client.get(reverse("table_replay", args=[table.pk])).status_code == 404


def test_table_buttons_answer_bad_requests_with_messages(client, cast):
    table = services.table_create(owner=cast["alice"], seat_count=3)
    client.force_login(cast["bob"])
    response = client.post(reverse("table_start", args=[table.pk]), follow=True)
    assert "Only the table&#x27;s owner can do that." in response.content.decode()
    response = client.post(reverse("table_remove_seat", args=[table.pk]), {"position": "x"},
                           follow=True)  # fmt: skip
    assert response.status_code == 200
    assert client.get(reverse("table_start", args=[table.pk])).status_code == 405
