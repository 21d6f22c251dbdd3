"""Contract of leagues, ladders, rating histories, results, the queue and tournaments, with
the permission matrix (anonymous, player, opponent, spectator, organizer, admin)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from ladder import services
from ladder.models import League, Membership, Tournament
from tests.api.conftest import assert_error
from tests.ladder.factories import finished_table, result

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(cast):
    league = services.league_create(by=cast["alice"], name="Club", ruleset="europe",
                                    variant="classic", time_controls=["realtime"])  # fmt: skip
    services.league_join(league_id=league.pk, user=cast["bob"])
    return league


@pytest.fixture
def private_league(cast):
    league = services.league_create(by=cast["alice"], name="Secret", ruleset="europe",
                                    variant="classic", time_controls=["realtime"],
                                    is_private=True)  # fmt: skip
    services.league_join(league_id=league.pk, user=cast["bob"], invite_token=league.invite_token)
    return league


def test_leagues_list_detail_join_and_leave(as_user, cast, league):
    carol = as_user(cast["carol"])
    listed = {row["slug"]: row for row in carol.get("/api/v1/leagues/").json()["results"]}
    assert listed["club"]["member_count"] == 2 and listed["club"]["is_member"] is False
    url = "/api/v1/leagues/club/"
    assert carol.post(url + "join/", {}, format="json").json()["is_member"] is True
    assert_error(carol.post(url + "join/", {}, format="json"), 409, "already_member")
    members = carol.get(url + "members/").json()
    assert members["count"] == 3 and members["results"][0]["role"] == "admin"
    assert carol.post(url + "leave/").json()["is_member"] is False
    assert_error(carol.post(url + "leave/"), 403, "not_member")
    assert_error(as_user(None).post(url + "join/", {}, format="json"), 401, "login_required")


def test_a_ladder_its_history_a_players_ratings_and_the_results(as_user, cast, league):
    alice, bob = cast["alice"], cast["bob"]
    table = finished_table(league, [alice, bob])
    services.match_record(table_id=table.pk, result=result(2, 1))
    client = as_user(None)
    ladder = client.get("/api/v1/leagues/club/ladders/realtime/").json()
    assert [(r["rank"], r["username"]) for r in ladder["results"]] == [(1, "bob"), (2, "alice")]
    history = client.get("/api/v1/leagues/club/ladders/realtime/players/bob/").json()
    assert history["count"] == 1 and history["results"][0]["delta"] > 0
    assert history["results"][0]["table_id"] == table.pk
    ratings = client.get("/api/v1/users/bob/ratings/").json()["results"]
    assert [(r["league"], r["games"]) for r in ratings] == [("club", 1)]
    matches = client.get("/api/v1/leagues/club/matches/").json()["results"]
    assert matches[0]["table_id"] == table.pk
    assert {p["username"]: p["place"] for p in matches[0]["players"]} == {"bob": 1, "alice": 2}
    assert_error(client.get("/api/v1/leagues/club/ladders/turn_based/"), 404, "not_found")
    assert_error(client.get("/api/v1/leagues/club/ladders/realtime/players/zed/"), 404)
    profile = client.get("/api/v1/users/bob/").json()
    assert profile["username"] == "bob" and "email" not in profile


def test_the_queue(as_user, cast, league, monkeypatch):
    monkeypatch.setattr("ladder.services.queue._kick_matchmaker", lambda league_id: None)
    bob = as_user(cast["bob"])
    assert bob.get("/api/v1/queue/").json() == {"queued": False}
    body = {"league": "club", "time_control": "realtime", "min_size": 2, "max_size": 3}
    response = bob.post("/api/v1/queue/", body, format="json")
    assert response.status_code == 201 and response.json()["league"] == "club"
    assert_error(bob.post("/api/v1/queue/", body, format="json"), 409, "already_queued")
    assert bob.get("/api/v1/queue/").json()["queued"] is True
    assert bob.delete("/api/v1/queue/").status_code == 204
    assert_error(bob.delete("/api/v1/queue/"), 409, "not_queued")
    carol = as_user(cast["carol"])
    assert_error(carol.post("/api/v1/queue/", body, format="json"), 403, "not_member")
    assert_error(as_user(None).get("/api/v1/queue/"), 401, "login_required")


LEAGUE_ROLES = ["anonymous", "member", "other_member", "stranger", "admin"]


@pytest.mark.parametrize("role", LEAGUE_ROLES)
def test_the_private_league_matrix(as_user, cast, admin, private_league, role):
    user = {"anonymous": None, "member": cast["alice"], "other_member": cast["bob"],
            "stranger": cast["carol"], "admin": admin}[role]  # fmt: skip
    client = as_user(user)
    url = "/api/v1/leagues/secret/"
    visible = role in ("member", "other_member", "admin")
    for suffix in ("", "members/", "matches/", "ladders/realtime/"):
        assert client.get(url + suffix).status_code == (200 if visible else 404), suffix
    listed = [r["slug"] for r in client.get("/api/v1/leagues/").json()["results"]]
    assert ("secret" in listed) == (role in ("member", "other_member"))
    join = client.post(url + "join/", {}, format="json")
    # Without the invite token: members are told so, strangers do not learn it exists.
    expected = {"anonymous": 401, "stranger": 404}.get(role, 403)
    assert_error(join, expected)


# --- tournaments ------------------------------------------------------------------------------


@pytest.fixture
def cup(cast):
    """An unrated tournament that dave organizes, alice and bob registered."""
    t = services.tournament_create(by=cast["dave"], name="Cup", table_size=2,
                                   round_break_seconds=0,
                                   starts_at=timezone.now() + timedelta(hours=1))  # fmt: skip
    for user in (cast["alice"], cast["bob"]):
        services.tournament_register(tournament_id=t.pk, user=user)
    return t


def test_tournament_list_detail_register_and_withdraw(as_user, cast, cup):
    carol = as_user(cast["carol"])
    listed = carol.get("/api/v1/tournaments/?status=registration").json()["results"]
    assert [t["slug"] for t in listed] == ["cup"]
    url = "/api/v1/tournaments/cup/"
    detail = carol.get(url).json()
    assert detail["registration_open"] and detail["your_entry"] is None
    assert detail["organizer"] == "dave" and detail["active_count"] == 2
    entry = carol.post(url + "register/").json()
    assert entry["username"] == "carol" and entry["status"] == "active"
    assert_error(carol.post(url + "register/"), 409, "already_registered")
    assert carol.post(url + "withdraw/").json()["status"] == "withdrawn"
    assert_error(carol.post(url + "check-in/"), 409, "checkin_closed")
    entries = carol.get(url + "entries/").json()
    assert entries["count"] == 3


def test_an_organizer_runs_a_tournament_over_the_api(as_user, cast, cup, monkeypatch):
    monkeypatch.setattr("ladder.services.tournaments.kick", lambda tournament_id: None)
    dave = as_user(cast["dave"])
    url = "/api/v1/tournaments/cup/"
    bot = dave.post(url + "entries/", {"bot_level": "easy"}, format="json")
    assert bot.status_code == 201 and bot.json()["bot_level"] == "easy"
    assert dave.post(url + "invitations/", {"username": "carol"}, format="json").status_code == 201
    assert as_user(cast["carol"]).post(url + "invitation/accept/").json()["username"] == "carol"
    assert_error(dave.post(url + "invitations/", {"username": "nobody"}, format="json"), 400)
    assert_error(dave.post(url + "entries/", {}, format="json"), 400, "invalid")
    assert dave.delete(f"{url}entries/{bot.json()['id']}/").json()["status"] == "removed"
    assert dave.post(url + "pause/").json()["paused"] is True
    assert dave.post(url + "resume/").json()["paused"] is False
    assert dave.post(url + "start/").json()["status"] == "running"
    rounds = dave.get(url + "rounds/").json()["results"]
    assert rounds[0]["number"] == 1 and rounds[0]["status"] == "playing"
    table = next(t for t in rounds[0]["tables"] if not t["bye"])
    places = {str(s["entry"]): i + 1 for i, s in enumerate(table["seats"])}
    body = dave.put(f"{url}tables/{table['id']}/result/", {"places": places}, format="json")
    assert body.status_code == 200, body.json()
    assert_error(dave.post(f"{url}tables/{table['id']}/end/"), 409, "table_not_playing")
    standings = dave.get(url + "standings/").json()["results"]
    assert standings[0]["rank"] == 1 and isinstance(standings[0]["entry"], int)
    export = as_user(None).get(url + "results/").json()
    assert export["tournament"]["slug"] == "cup" and export["standings"]
    csv = as_user(None).get(url + "results/?format=csv")
    assert csv["Content-Type"].startswith("text/csv")
    assert csv.content.decode().splitlines()[0].startswith("rank,player,username")
    assert dave.post(url + "cancel/").json()["status"] == "cancelled"


def test_the_organizer_cannot_enter_a_person_over_the_api(as_user, cast, cup):
    dave = as_user(cast["dave"])
    url = "/api/v1/tournaments/cup/"
    body = assert_error(dave.post(url + "entries/", {"username": "carol"}, format="json"), 400)
    assert "invite them" in str(body["fields"]["username"])
    body = assert_error(
        dave.post(url + "entries/", {"username": "carol", "bot_level": "easy"}, format="json"),
        400,
    )  # fmt: skip
    assert not Tournament.objects.get().entries.filter(user=cast["carol"]).exists()
    assert Tournament.objects.get().entries.count() == 2


def test_an_invited_player_accepts_or_declines_over_the_api(as_user, cast, cup):
    dave, carol = as_user(cast["dave"]), as_user(cast["carol"])
    url = "/api/v1/tournaments/cup/"
    invitation = dave.post(url + "invitations/", {"username": "Carol"}, format="json").json()
    assert invitation["username"] == "carol" and invitation["status"] == "pending"
    assert invitation["invited_by"] == "dave"
    detail = carol.get(url).json()
    assert detail["your_entry"] is None and detail["your_invitation"]["id"] == invitation["id"]
    assert [i["username"] for i in carol.get(url + "invitations/").json()["results"]] == ["carol"]
    assert as_user(cast["alice"]).get(url + "invitations/").json()["count"] == 0
    assert_error(dave.post(url + "invitations/", {"username": "carol"}, format="json"), 400,
                 "already_invited")  # fmt: skip
    assert carol.post(url + "invitation/decline/").json()["status"] == "declined"
    assert_error(carol.post(url + "invitation/accept/"), 400, "no_invitation")
    assert carol.get(url).json()["your_entry"] is None
    dave.post(url + "invitations/", {"username": "bob"}, format="json")  # bob: entered already
    dave.post(url + "invitations/", {"username": "carol"}, format="json")
    assert dave.get(url + "invitations/").json()["count"] == 1
    assert Tournament.objects.get().entries.count() == 2


T_ROLES = ["anonymous", "player", "opponent", "spectator", "organizer", "admin"]
# (method, suffix, body, statuses for the roles above) on a tournament in registration.
T_MATRIX = [
    ("get", "", None, [200] * 6),
    ("get", "standings/", None, [200] * 6),
    ("get", "rounds/", None, [200] * 6),
    ("get", "entries/", None, [200] * 6),
    ("get", "results/", None, [200] * 6),
    ("post", "register/", None, [401, 409, 409, 200, 200, 200]),
    ("post", "withdraw/", None, [401, 200, 200, 409, 409, 409]),
    ("post", "pause/", None, [401, 403, 403, 403, 200, 200]),
    ("post", "entries/", {"bot_level": "easy"}, [401, 403, 403, 403, 201, 201]),
    ("post", "invitations/", {"username": "carol"}, [401, 403, 403, 403, 201, 201]),
    ("post", "rounds/1/repair/", None, [401, 403, 403, 403, 409, 409]),
]


@pytest.mark.parametrize("role", T_ROLES)
def test_the_tournament_matrix(as_user, cast, admin, role):
    users = {"anonymous": None, "player": cast["alice"], "opponent": cast["bob"],
             "spectator": cast["carol"], "organizer": cast["dave"]}  # fmt: skip
    user = admin if role == "admin" else users[role]
    for method, suffix, body, statuses in T_MATRIX:
        Tournament.objects.all().delete()
        t = services.tournament_create(by=cast["dave"], name="Cup", table_size=2,
                                       starts_at=timezone.now() + timedelta(hours=1))  # fmt: skip
        for player in (cast["alice"], cast["bob"]):
            services.tournament_register(tournament_id=t.pk, user=player)
        response = getattr(as_user(user), method)(f"/api/v1/tournaments/cup/{suffix}", body,
                                                  format="json")  # fmt: skip
        expected = statuses[T_ROLES.index(role)]
        assert response.status_code == expected, (suffix, response.content[:300])


def test_a_private_leagues_tournament_is_invisible_to_strangers(as_user, cast, private_league):
    services.tournament_create(by=cast["alice"], name="Inner", league=private_league,
                               starts_at=timezone.now() + timedelta(hours=1))  # fmt: skip
    assert as_user(cast["bob"]).get("/api/v1/tournaments/inner/").status_code == 200
    assert_error(as_user(cast["carol"]).get("/api/v1/tournaments/inner/"), 404)
    assert_error(as_user(None).get("/api/v1/tournaments/inner/results/?format=csv"), 404)
    assert as_user(cast["carol"]).get("/api/v1/tournaments/").json()["count"] == 0
    assert League.objects.filter(slug="secret").exists() and Membership.objects.count() >= 2
