"""Contract of the table and game endpoints, and who may do what (anonymous, player,
opponent, spectator, admin) at public and private tables."""

import pytest

from games import engine, services
from games.models import Game, Table
from tests.api.conftest import assert_error, two_player_game

pytestmark = pytest.mark.django_db

TABLE_KEYS = {"id", "status", "status_label", "ruleset", "variant", "options", "seat_count",
              "time_control", "move_seconds", "turn_hours", "rated", "ended_early",
              "is_private", "owner_id", "is_owner", "your_seat", "seats"}  # fmt: skip
FRAME_KEYS = {"type", "version", "seat", "view", "log_start", "log", "legal", "clock"}


def test_a_player_opens_fills_and_starts_a_table(as_user, cast):
    alice = as_user(cast["alice"])
    response = alice.post("/api/v1/tables/", {"seat_count": 3, "move_seconds": 60}, format="json")
    assert response.status_code == 201
    table = response.json()
    assert set(table) >= TABLE_KEYS and table["your_seat"] == 0 and table["is_owner"]
    url = f"/api/v1/tables/{table['id']}/"
    assert_error(alice.get(url + "game/"), 409, "game_not_running")
    body = as_user(cast["bob"]).post(url + "join/", {}, format="json").json()
    assert body["your_seat"] == 1 and body["status"] == "open"
    assert_error(as_user(cast["bob"]).post(url + "bots/", {}, format="json"), 403, "not_owner")
    response = alice.post(url + "bots/", {"level": "medium"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "playing" and body["seats"][2]["bot_level"] == "medium"
    assert_error(as_user(cast["carol"]).post(url + "join/", {}, format="json"), 409)


def test_the_owner_removes_a_seat_and_starts_early(as_user, cast):
    alice = as_user(cast["alice"])
    table = alice.post("/api/v1/tables/", {"seat_count": 4}, format="json").json()
    url = f"/api/v1/tables/{table['id']}/"
    alice.post(url + "bots/", {}, format="json")
    alice.post(url + "bots/", {}, format="json")
    assert len(alice.delete(url + "seats/2/").json()["seats"]) == 2
    assert_error(alice.delete(url + "seats/0/"), 400, "invalid_options")
    assert_error(as_user(cast["bob"]).post(url + "start/"), 403, "not_owner")
    assert alice.post(url + "start/").json()["status"] == "playing"
    assert alice.get(url + "game/").json()["seat"] == 0


def test_leaving_before_the_start_frees_the_seat_and_the_owner_closes_the_table(as_user, cast):
    table = services.table_create(owner=cast["alice"], seat_count=3)
    url = f"/api/v1/tables/{table.pk}/"
    bob = as_user(cast["bob"])
    bob.post(url + "join/", {}, format="json")
    assert bob.post(url + "leave/").json()["your_seat"] is None
    assert_error(bob.post(url + "leave/"), 403, "not_seated")
    assert as_user(cast["alice"]).post(url + "leave/").json()["status"] == "cancelled"


def test_the_table_list_filters_by_status_and_by_my_seat(as_user, cast):
    two_player_game(cast)
    services.table_create(owner=cast["carol"], seat_count=2)
    carol = as_user(cast["carol"])
    assert carol.get("/api/v1/tables/").json()["count"] == 2
    assert [t["status"] for t in carol.get("/api/v1/tables/?status=open").json()["results"]] == [
        "open"
    ]
    mine = carol.get("/api/v1/tables/?mine=true").json()["results"]
    assert [t["owner_id"] for t in mine] == [cast["carol"].pk]
    assert_error(carol.get("/api/v1/tables/?status=nonsense"), 400, "invalid")


def test_playing_an_action_stale_illegal_and_malformed(as_user, cast):
    table = two_player_game(cast)
    url = f"/api/v1/tables/{table.pk}/game/"
    alice = as_user(cast["alice"])
    frame = alice.get(url).json()
    assert set(frame) == FRAME_KEYS and frame["version"] == 0 and frame["legal"]
    action = frame["legal"][0]
    body = alice.post(url + "actions/", {"action": action, "version": 0}, format="json").json()
    assert set(body) == FRAME_KEYS and body["version"] == 1 and body["seat"] == 0
    stale = alice.post(url + "actions/", {"action": action, "version": 0}, format="json")
    assert_error(stale, 409, "stale_version")
    bob = as_user(cast["bob"])
    illegal = {"type": "keep_tickets", "tickets": []}
    body = assert_error(
        bob.post(url + "actions/", {"action": illegal, "version": 1}, format="json"), 422
    )
    assert body["code"] == "too_few_tickets" and isinstance(body["params"], dict)
    for bad in ({"action": "x", "version": 1}, {"action": {}, "version": -1}, {"version": 1}):
        assert_error(bob.post(url + "actions/", bad, format="json"), 400, "invalid")
    assert Game.objects.get(table=table).version == 1


def test_the_event_log_is_paginated_and_redacted_per_seat(as_user, cast):
    table = two_player_game(cast)
    game = Game.objects.get(table=table)
    state = engine.from_json(game.state)
    for seat, user in ((0, cast["alice"]), (1, cast["bob"])):
        action = engine.legal_actions(state, seat)[0]
        services.game_submit_action(
            game_id=game.pk, user=user, action=action, expected_version=seat
        )
    url = f"/api/v1/tables/{table.pk}/game/events/"
    alice = as_user(cast["alice"]).get(url).json()
    assert alice["count"] == 3  # the set-up and two actions
    setup, first = alice["results"][:2]
    assert setup["seq"] == 0 and setup["seat"] is None and setup["username"] is None
    assert first["seq"] == 1 and first["seat"] == 0 and first["username"] == "alice"
    kept = [e for e in first["entries"] if e["type"] == "keep_tickets"]
    assert kept and "tickets" in kept[0]  # alice sees her own kept tickets
    carol = as_user(cast["carol"]).get(url).json()["results"][1]
    assert all("tickets" not in e for e in carol["entries"] if e["type"] == "keep_tickets")


def test_a_player_who_left_sees_what_a_spectator_sees(as_user, cast):
    table = two_player_game(cast)
    bob = as_user(cast["bob"])
    bob.post(f"/api/v1/tables/{table.pk}/leave/")
    frame = bob.get(f"/api/v1/tables/{table.pk}/game/").json()
    assert frame["seat"] is None and frame["legal"] == [] and "you" not in frame["view"]
    assert_error(
        bob.post(
            f"/api/v1/tables/{table.pk}/game/actions/",
            {"action": {"type": "pass"}, "version": frame["version"]},
            format="json",
        ),
        403,
        "not_your_seat",
    )


ROLES = ["anonymous", "player", "opponent", "spectator", "admin"]


def role_user(role, cast, admin):
    return {"anonymous": None, "player": cast["alice"], "opponent": cast["bob"],
            "spectator": cast["carol"], "admin": admin}[role]  # fmt: skip


# Expected status per role: anonymous, player (owner, seat 0), opponent (seat 1), spectator
# (signed in, not seated), admin (staff, not seated). The opponent may act but not with the
# player's action: the engine refuses it (422), as it refuses anything not legal for a seat.
PUBLIC_MATRIX = [
    ("get", "", None, [200, 200, 200, 200, 200]),
    ("get", "game/", None, [200, 200, 200, 200, 200]),
    ("get", "game/events/", None, [200, 200, 200, 200, 200]),
    ("post", "game/actions/", "legal", [401, 200, 422, 403, 403]),
    ("post", "join/", {}, [401, 409, 409, 409, 409]),
    ("post", "bots/", {}, [401, 409, 403, 403, 403]),
    ("post", "start/", None, [401, 409, 403, 403, 403]),
    ("delete", "seats/1/", None, [401, 409, 403, 403, 403]),
    ("post", "leave/", None, [401, 200, 200, 403, 403]),
]
PRIVATE_MATRIX = [
    ("get", "", None, [404, 200, 200, 404, 404]),
    ("get", "game/", None, [404, 200, 200, 404, 404]),
    ("get", "game/events/", None, [404, 200, 200, 404, 404]),
    ("post", "game/actions/", "legal", [401, 200, 422, 404, 404]),
    ("post", "join/", {}, [401, 409, 409, 404, 404]),
    ("post", "bots/", {}, [401, 409, 403, 404, 404]),
    ("post", "start/", None, [401, 409, 403, 404, 404]),
    ("delete", "seats/1/", None, [401, 409, 403, 404, 404]),
    ("post", "leave/", None, [401, 200, 200, 404, 404]),
]


def _running_table(cast, private: bool) -> Table:
    table = services.table_create(owner=cast["alice"], seat_count=2, is_private=private)
    services.table_join(table_id=table.pk, user=cast["bob"], invite_token=table.invite_token)
    return table


@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("role", ROLES)
def test_the_table_permission_matrix(as_user, cast, admin, private, role):
    matrix = PRIVATE_MATRIX if private else PUBLIC_MATRIX
    for method, suffix, body, statuses in matrix:
        table = _running_table(cast, private)  # fresh for each call: leave and moves change it
        client = as_user(role_user(role, cast, admin))
        if body == "legal":
            frame = as_user(cast["alice"]).get(f"/api/v1/tables/{table.pk}/game/").json()
            body = {"action": frame["legal"][0], "version": frame["version"]}
        url = f"/api/v1/tables/{table.pk}/{suffix}"
        response = getattr(client, method)(url, body, format="json")
        expected = statuses[ROLES.index(role)]
        assert response.status_code == expected, (method, suffix, response.json())
        if expected >= 400:
            assert_error(response, expected)


def test_a_private_table_is_joined_with_its_invite_token(as_user, cast):
    table = services.table_create(owner=cast["alice"], seat_count=2, is_private=True)
    url = f"/api/v1/tables/{table.pk}/join/"
    carol = as_user(cast["carol"])
    assert_error(carol.post(url, {"invite_token": "wrong"}, format="json"), 404, "not_found")
    body = carol.post(url, {"invite_token": table.invite_token}, format="json").json()
    assert body["your_seat"] == 1 and body["invite_url"].endswith(f"{table.invite_token}/")
    assert as_user(cast["dave"]).get("/api/v1/tables/").json()["count"] == 0


def test_unknown_tables_and_boards(as_user, cast):
    client = as_user(None)
    assert_error(client.get("/api/v1/tables/999999/"), 404, "not_found")
    assert_error(client.get("/api/v1/tables/99999999999999999999/game/"), 404, "not_found")
    board = client.get("/api/v1/boards/europe/").json()
    assert {"cities", "routes", "tickets", "cards"} <= set(board)
    assert_error(client.get("/api/v1/boards/mars/"), 404, "not_found")


def test_the_owner_replaces_the_invite_link_and_the_old_token_is_refused(as_user, cast):
    table = services.table_create(owner=cast["alice"], seat_count=3, is_private=True)
    old = table.invite_token
    url = f"/api/v1/tables/{table.pk}/invite/"
    assert_error(as_user(cast["bob"]).post(url), 404, "not_found")  # not seated: invisible
    services.table_join(table_id=table.pk, user=cast["bob"], invite_token=old)
    assert_error(as_user(cast["bob"]).post(url), 403, "not_owner")
    assert_error(as_user(None).post(url), 401, "login_required")
    body = as_user(cast["alice"]).post(url).json()
    table.refresh_from_db()
    assert table.invite_token != old and body["invite_url"].endswith(f"/{table.invite_token}/")
    join = f"/api/v1/tables/{table.pk}/join/"
    carol = as_user(cast["carol"])
    assert_error(carol.post(join, {"invite_token": old}, format="json"), 404, "not_found")
    assert carol.post(join, {"invite_token": table.invite_token}, format="json").status_code == 200


def test_opening_tables_beyond_the_cap_is_a_clear_4xx(as_user, cast, settings):
    settings.MAX_OPEN_TABLES_PER_USER = 1
    alice = as_user(cast["alice"])
    assert alice.post("/api/v1/tables/", {"seat_count": 2}, format="json").status_code == 201
    body = assert_error(
        alice.post("/api/v1/tables/", {"seat_count": 2}, format="json"), 400,
        "too_many_open_tables",
    )  # fmt: skip
    assert "limited to 1 per player" in body["message"]
    assert Table.objects.count() == 1
