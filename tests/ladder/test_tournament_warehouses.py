"""Warehouses & Depots in tournaments: the organizer's form offers it with a map that has it;
the tournament's tables are set up with it; and every page describing a tournament, or one of
its tables, says so (templates/games/_game_options.html)."""

import json
import re
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import engine
from games import services as games
from games.models import Game, Table
from ladder import services
from ladder.errors import LadderError
from ladder.models import Match, Tournament
from tests.ladder.factories import finished_table, playing_tables, register, result, tournament

pytestmark = pytest.mark.django_db

W_AND_D = {"warehouses": True}
TAG = '<abbr class="tag" title="Warehouses & Depots">W&D</abbr>'  # as the lobby always had it


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def form(**changes) -> dict:
    start = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    return {
        "name": "Depot Cup", "game": "europe:classic", "table_size": "3", "round_count": "2",
        "time_control": "realtime", "move_seconds": "60", "bank_seconds": "60",
        "turn_hours": "24", "starts_at": start, "checkin_minutes": "0",
        "late_registration_rounds": "0", "points_scheme": "linear",
        "tiebreak_1": "buchholz", "round_break_seconds": "0",
    } | changes  # fmt: skip


def post(user, **changes):
    return client_for(user).post(reverse("tournament_create"), form(**changes))


def card_of(page: str, t: Tournament) -> str:
    """The tournament list's card of ``t``."""
    return page.split(f'href="{t.get_absolute_url()}"')[1].split("</a>")[0]


# --- the form ---------------------------------------------------------------------------------


def test_the_form_says_which_games_play_warehouses(cast):
    page = client_for(cast["alice"]).get(reverse("tournament_create")).content.decode()
    assert 'name="warehouses"' in page and 'id="field-warehouses"' in page
    assert "ladder/tournament_form.js" in page
    flags = dict(re.findall(r'<option value="([\w:]+)" data-warehouses="(\w+)"', page))
    assert flags["europe:classic"] == flags["europe:big_cities"] == "true"
    assert flags["new_york:standard"] == "false"


def test_a_warehouses_tournament_is_stored_and_its_tables_play_them(cast):
    response = post(cast["alice"], warehouses="on")
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == t.get_absolute_url()
    assert t.options == W_AND_D
    register(t, [cast["bob"], cast["carol"], cast["dave"]])
    services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    (pairing,) = playing_tables(t)
    assert pairing.table.options == W_AND_D
    state = json.loads(Game.objects.get(table=pairing.table).state)
    assert state["options"] == W_AND_D  # the engine set the game up with the module


def test_without_the_box_the_tournament_has_no_options(cast):
    assert post(cast["alice"]).status_code == 302
    assert Tournament.objects.get().options == {}


def test_a_forged_new_york_tournament_with_warehouses_gets_one_field_error(cast):
    response = post(cast["alice"], game="new_york:standard", warehouses="on")
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["warehouses"] and len(errors["warehouses"]) == 1
    assert errors["warehouses"][0] == "Warehouses & Depots are not played on the New York map."
    assert unescape(response.content.decode()).count(errors["warehouses"][0]) == 1
    assert not Tournament.objects.exists()


def test_the_service_refuses_warehouses_on_new_york_too(cast):
    with pytest.raises(LadderError) as refused:
        tournament(cast["alice"], ruleset="new_york", variant="standard", options=W_AND_D)
    assert refused.value.code == "invalid_tournament"
    assert not Tournament.objects.exists()


# --- the pages that describe a tournament -----------------------------------------------------


@pytest.fixture
def depot_cup(cast):
    return tournament(cast["alice"], name="Depot Cup", options=W_AND_D)


def test_the_list_tags_the_warehouses_tournament_only(cast, depot_cup):
    plain = tournament(cast["alice"], name="Plain Cup")
    page = client_for().get(reverse("tournaments")).content.decode()
    assert TAG in card_of(page, depot_cup)
    assert "W&D" not in card_of(page, plain)


def test_the_tournament_page_says_warehouses_and_depots_beside_the_tickets(cast, depot_cup):
    page = unescape(client_for().get(depot_cup.get_absolute_url()).content.decode())
    assert "Europe · Classic · Warehouses & Depots" in page
    plain = tournament(cast["alice"], name="Plain Cup")
    assert "Warehouses & Depots" not in client_for().get(plain.get_absolute_url()).content.decode()


def test_an_invited_player_sees_that_the_tournament_plays_warehouses(cast, depot_cup):
    services.entry_invite(tournament_id=depot_cup.pk, by=cast["alice"], user=cast["bob"])
    page = unescape(client_for(cast["bob"]).get(depot_cup.get_absolute_url()).content.decode())
    assert 'id="accept-invitation"' in page
    assert "Europe · Classic · Warehouses & Depots" in page


def test_the_api_and_the_export_carry_the_options(cast, depot_cup):
    client = client_for(cast["bob"])
    assert client.get(f"/api/v1/tournaments/{depot_cup.slug}/").json()["options"] == W_AND_D
    export = client.get(depot_cup.get_absolute_url() + "results.json").json()
    assert export["tournament"]["options"] == W_AND_D


# --- the same tag wherever one of its tables is listed ----------------------------------------


def test_a_warehouses_table_is_tagged_in_the_lobby_profile_replay_and_league(cast, europe):
    mine = games.table_create(owner=cast["bob"], seat_count=3, options=W_AND_D)
    lobby = client_for(cast["bob"]).get(reverse("play")).content.decode()
    yours = lobby.split("Your tables")[1].split("</section>")[0]
    assert f'href="{mine.get_absolute_url()}"' in yours and TAG in yours

    trio = [cast["alice"], cast["bob"], cast["carol"]]
    for user in trio:
        services.league_join(league_id=europe.pk, user=user)
    table = finished_table(europe, trio)
    Table.objects.filter(pk=table.pk).update(options=W_AND_D)
    services.match_record(table_id=table.pk, result=result(2, 1, 3))
    plain = finished_table(europe, trio[:2])
    services.match_record(table_id=plain.pk, result=result(1, 2))

    profile = client_for().get(cast["bob"].get_absolute_url()).content.decode()
    assert profile.count(TAG) == 1
    table.refresh_from_db()
    dealt = engine.to_json(engine.new_game(**table.game_params(1)))
    Game.objects.create(table=table, seed=1, state=dealt)  # a replay of no moves yet
    replay = client_for().get(reverse("table_replay", args=[table.pk])).content.decode()
    assert TAG in replay.split("</h1>")[0]
    page = client_for().get(reverse("league_matches", args=[europe.slug])).content.decode()
    items = page.split('<li class="match')[1:]
    assert len(items) == 2
    (tagged,) = [item for item in items if TAG in item]
    assert f"Match {Match.objects.get(table=table).seq}<" in tagged
