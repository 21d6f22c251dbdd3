"""Tournament pages: list, create, the tournament's tabs, exports, and the POST actions
(forged or malformed input gets a message, never a 500)."""

import csv
import io
import json
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ladder import services
from ladder.models import Entry, Pairing, Tournament
from tests.factories import UserFactory
from tests.ladder.factories import (
    LeagueFactory,
    MembershipFactory,
    finish_round,
    playing_tables,
    register,
    tournament,
)

pytestmark = pytest.mark.django_db


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.fixture
def running(cast):
    """Alice's 2-round tournament at tables of 3: round 1 finished, round 2 in play."""
    t = tournament(cast["alice"], name="Autumn Open", table_size=3, round_count=2)
    register(t, [cast["bob"], cast["carol"], cast["dave"]])
    services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    finish_round(t)
    return t


def test_the_list_shows_upcoming_running_and_finished_tournaments(cast, running):
    tournament(cast["alice"], name="Winter Cup")
    done = tournament(cast["alice"], name="Summer Cup")
    services.tournament_cancel(tournament_id=done.pk, by=cast["alice"])
    page = client_for().get(reverse("tournaments")).content.decode()
    for name in ("Autumn Open", "Winter Cup", "Summer Cup"):
        assert name in page
    assert page.index("Running now") < page.index("Autumn Open") < page.index("Upcoming")


def test_an_organizer_creates_a_tournament_through_the_form(cast):
    start = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "Friday Night Trains", "game": "europe:classic", "table_size": "4",
        "allow_smaller": "on", "round_count": "3", "time_control": "realtime",
        "move_seconds": "60", "bank_seconds": "60", "turn_hours": "24", "starts_at": start,
        "checkin_minutes": "10", "late_registration_rounds": "1", "points_scheme": "linear",
        "tiebreak_1": "game_points", "tiebreak_2": "buchholz", "round_break_seconds": "30",
    }  # fmt: skip
    response = client_for(cast["alice"]).post(reverse("tournament_create"), form)
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == t.get_absolute_url()
    assert (t.name, t.round_count, t.checkin_minutes, t.tiebreaks) == (
        "Friday Night Trains", 3, 10, ["game_points", "buchholz"]
    )  # fmt: skip


def test_the_form_reports_what_the_services_refuse(cast):
    past = (timezone.now() - timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Too late", "game": "europe:classic", "table_size": "4",
            "round_count": "3", "time_control": "realtime", "move_seconds": "60",
            "bank_seconds": "0", "turn_hours": "24", "starts_at": past,
            "checkin_minutes": "0", "late_registration_rounds": "0",
            "points_scheme": "linear", "round_break_seconds": "30",
            "tiebreak_1": "buchholz", "tiebreak_2": "buchholz"}  # fmt: skip
    response = client_for(cast["alice"]).post(reverse("tournament_create"), form)
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "Each tie-break can be used once." in response.content.decode()
    form["tiebreak_2"] = ""
    response = client_for(cast["alice"]).post(reverse("tournament_create"), form)
    assert "the start time must be in the future" in response.content.decode()


@pytest.mark.parametrize("tab", ["", "rounds/", "crosstable/", "players/"])
@pytest.mark.parametrize("who", [None, "bob", "alice"])
def test_every_tab_renders_for_visitors_players_and_the_organizer(cast, running, tab, who):
    client = client_for(cast[who] if who else None)
    response = client.get(running.get_absolute_url() + tab)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Autumn Open" in page and "Round 2 of 2" in page
    assert ("Organizer" in page and "Pause" in page) == (who == "alice")


def test_a_player_sees_their_own_schedule_with_a_link_to_their_table(cast, running):
    page = client_for(cast["bob"]).get(running.get_absolute_url()).content.decode()
    (table,) = playing_tables(running)
    assert "Your games" in page and "Go to your table" in page
    assert f'href="/table/{table.table_id}/"' in page


def test_the_crosstable_shows_each_round_of_each_player(cast, running):
    response = client_for().get(running.get_absolute_url() + "crosstable/")
    rows = response.context["crosstable"]["rows"]
    assert [len(r["cells"]) for r in rows] == [2, 2, 2]
    assert sorted(r["cells"][0]["place"] for r in rows) == [1, 2, 3]


def test_results_export_as_csv_and_json(cast, running):
    client = client_for()
    data = json.loads(client.get(running.get_absolute_url() + "results.json").content)
    assert data["tournament"]["name"] == "Autumn Open"
    assert [row["points"] for row in data["standings"]] == [12, 6, 0]
    assert [r["number"] for r in data["rounds"]] == [1, 2]
    response = client.get(running.get_absolute_url() + "results.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["rank", "player", "username"] and rows[0][-2:] == ["round_1", "round_2"]
    assert [r[1] for r in rows[1:]] == [row["player"] for row in data["standings"]]


HOSTILE_FORMATS = ["html", "csv%0d%0aSet-Cookie:%20x=1", "csv%0aX:1", 'csv"; name="x.html', "CSV"]


@pytest.mark.parametrize("fmt", HOSTILE_FORMATS + ["json "])
def test_an_unknown_export_format_is_a_404_and_names_no_file(cast, running, fmt):
    response = client_for().get(running.get_absolute_url() + f"results.{fmt}")
    assert response.status_code == 404
    assert "Content-Disposition" not in response and "Set-Cookie" not in response


def test_players_register_withdraw_and_check_in_through_the_page(cast):
    t = tournament(cast["alice"], checkin_minutes=120)
    bob = client_for(cast["bob"])
    response = bob.post(reverse("tournament_register", args=[t.slug]), follow=True)
    assert "You are registered" in " ".join(messages_of(response))
    assert Entry.objects.get(user=cast["bob"]).checked_in_at is not None  # in the window
    response = bob.post(reverse("tournament_withdraw", args=[t.slug]), follow=True)
    assert Entry.objects.get(user=cast["bob"]).status == "withdrawn"
    response = bob.post(reverse("tournament_check_in", args=[t.slug]), follow=True)
    assert "You are not registered" in " ".join(messages_of(response))


def test_the_organizer_invites_and_removes_players_and_enters_bots(cast):
    t = tournament(cast["alice"])
    alice = client_for(cast["alice"])
    alice.post(reverse("tournament_entry_invite", args=[t.slug]), {"username": "BOB"})
    alice.post(reverse("tournament_entry_bot", args=[t.slug]), {"level": "hard"})
    assert [str(e.bot_level or e.user) for e in t.entries.all()] == ["hard"]  # bob: invited
    client_for(cast["bob"]).post(reverse("tournament_invitation_accept", args=[t.slug]))
    assert sorted(str(e.bot_level or e.user) for e in t.entries.all()) == ["Bob", "hard"]
    response = alice.post(
        reverse("tournament_entry_invite", args=[t.slug]), {"username": "nobody"}, follow=True
    )
    assert "There is no player with that username." in messages_of(response)
    entry = t.entries.get(user=cast["bob"])
    alice.post(reverse("tournament_entry_remove", args=[t.slug, entry.pk]))
    assert Entry.objects.get(pk=entry.pk).status == "removed"


def test_an_invited_player_sees_the_invitation_and_accepts_or_declines(cast):
    t = tournament(cast["alice"])
    alice = client_for(cast["alice"])
    response = alice.post(
        reverse("tournament_entry_invite", args=[t.slug]), {"username": "bob"}, follow=True
    )
    assert "Bob is invited and enters on accepting." in messages_of(response)
    assert not t.entries.exists()
    players_tab = alice.get(reverse("tournament_tab", args=[t.slug, "players"])).content.decode()
    assert 'id="invitations"' in players_tab and "Bob" in players_tab
    bob = client_for(cast["bob"])
    page = bob.get(t.get_absolute_url()).content.decode()
    assert 'id="accept-invitation"' in page and 'id="decline-invitation"' in page
    assert not t.entries.exists(), "seeing the invitation enters nobody"
    response = bob.post(reverse("tournament_invitation_accept", args=[t.slug]), follow=True)
    assert "You are registered. Good luck!" in messages_of(response)
    assert t.entries.get().user == cast["bob"]
    assert 'id="accept-invitation"' not in response.content.decode()
    client_for(cast["alice"]).post(
        reverse("tournament_entry_invite", args=[t.slug]), {"username": "carol"}
    )
    carol = client_for(cast["carol"])
    response = carol.post(reverse("tournament_invitation_decline", args=[t.slug]), follow=True)
    assert "You declined the invitation." in messages_of(response)
    assert not t.entries.filter(user=cast["carol"]).exists()
    response = client_for(cast["dave"]).post(
        reverse("tournament_invitation_accept", args=[t.slug]), follow=True
    )
    assert "You have no open invitation to this tournament." in messages_of(response)
    assert t.entries.count() == 1


def test_the_organizer_sets_a_result_through_the_form(cast, running):
    (table,) = playing_tables(running)
    url = reverse("tournament_pairing_result", args=[running.slug, table.pk])
    alice = client_for(cast["alice"])
    page = alice.get(url)
    assert page.status_code == 200 and "still being played" in page.content.decode()
    entries = list(table.seats.order_by("seat").values_list("entry_id", flat=True))
    form = {f"place-{e}": str(i + 1) for i, e in enumerate(reversed(entries))}
    form[f"score-{entries[0]}"] = "55"
    response = alice.post(url, form)
    assert response.status_code == 302
    assert Pairing.objects.get(pk=table.pk).status == "set"
    assert Tournament.objects.get().status == "finished"


def test_forged_and_malformed_posts_get_a_message_and_change_nothing(cast, running):
    (table,) = playing_tables(running)
    result_url = reverse("tournament_pairing_result", args=[running.slug, table.pk])
    bob, alice = client_for(cast["bob"]), client_for(cast["alice"])
    assert bob.get(result_url).status_code == 404  # not the organizer
    assert bob.post(reverse("tournament_control", args=[running.slug, "pause"])).status_code == 302
    assert not Tournament.objects.get().paused
    assert (
        alice.post(reverse("tournament_control", args=[running.slug, "explode"])).status_code == 404
    )
    response = alice.post(result_url, {"place-1": "x", "score-2": "lots"}, follow=True)
    assert response.status_code == 200 and Pairing.objects.get(pk=table.pk).status == "playing"
    assert any("not valid" in m for m in messages_of(response))
    response = alice.post(reverse("tournament_pairing_end", args=[running.slug, 999_999]),
                          follow=True)  # fmt: skip
    assert "There is no such table in this tournament." in messages_of(response)
    response = alice.post(reverse("tournament_round_repair", args=[running.slug, 2]), follow=True)
    assert "cannot be paired again" in " ".join(messages_of(response))
    assert client_for().post(reverse("tournament_register", args=[running.slug])).status_code == 302


def test_a_private_leagues_tournament_is_hidden_from_outsiders(cast):
    league = LeagueFactory(is_private=True)
    MembershipFactory(league=league, user=cast["alice"], role="admin")
    t = tournament(cast["alice"], league=league, name="Club night")
    assert client_for(cast["bob"]).get(t.get_absolute_url()).status_code == 404
    assert "Club night" not in client_for(cast["bob"]).get(reverse("tournaments")).content.decode()
    assert client_for(cast["alice"]).get(t.get_absolute_url()).status_code == 200


def test_times_show_in_the_viewers_time_zone(cast):
    eleven_pm = timezone.now().replace(hour=23, minute=0) + timedelta(days=2)
    t = tournament(cast["alice"], starts_at=eleven_pm)  # 23:00 UTC is 11:00 or 12:00 in Auckland
    auckland = eleven_pm.astimezone(ZoneInfo("Pacific/Auckland"))
    client = client_for()
    client.cookies["tz"] = "Pacific/Auckland"
    assert f"{auckland:%Y}, {auckland:%H}:00" in client.get(t.get_absolute_url()).content.decode()
    client.cookies["tz"] = "../etc/passwd"  # not a zone: UTC
    assert f"{eleven_pm:%Y}, 23:00" in client.get(t.get_absolute_url()).content.decode()


def test_a_stranger_cannot_touch_an_unknown_tournament():
    stranger = client_for(UserFactory(username="stranger"))
    assert stranger.get("/tournaments/no-such-cup/").status_code == 404
    assert stranger.post("/tournaments/no-such-cup/do/register/").status_code == 404


def test_a_tournament_table_links_back_to_its_tournament(cast, running):
    (table,) = playing_tables(running)
    page = client_for(cast["bob"]).get(f"/table/{table.table_id}/").content.decode()
    assert f'href="{running.get_absolute_url()}"' in page and "round 2, table 1" in page


def test_seed_demo_adds_upcoming_tournaments_and_one_bots_blitz_and_knockout_at_a_time(db):
    from django.core.management import call_command

    from tests.ladder.conftest import ensure_default_leagues

    ensure_default_leagues()
    for _ in range(2):
        call_command("seed_demo", stdout=io.StringIO())
    sunday = Tournament.objects.get(slug="sunday-swiss")
    assert sorted(e.user.username for e in sunday.entries.filter(user__isnull=False)) == [
        "alice", "bob", "carol"
    ]  # fmt: skip
    (blitz,) = Tournament.objects.filter(name="Bot Blitz")
    assert blitz.registration_open() and blitz.entries.count() == 7
    assert timezone.now() < blitz.starts_at < timezone.now() + timedelta(minutes=3)
    (cup,) = Tournament.objects.filter(name="Knockout Cup")
    settings = (cup.format, cup.table_size, cup.advance_count, cup.entries.count())
    assert settings == ("knockout", 3, 1, 7)
    assert blitz.starts_at < cup.starts_at < timezone.now() + timedelta(minutes=4)
    arena = Tournament.objects.get(slug="friday-arena")
    assert arena.format == "arena" and arena.entries.count() == 2


def test_seed_demo_adds_no_bots_tournament_when_told_not_to(db, settings):
    from django.core.management import call_command

    from tests.ladder.conftest import ensure_default_leagues

    ensure_default_leagues()
    settings.DEMO_BOT_TOURNAMENTS = False
    call_command("seed_demo", stdout=io.StringIO())
    names = set(Tournament.objects.values_list("name", flat=True))
    assert names == {"Sunday Swiss", "Friday Arena"}


def test_a_private_leagues_knockout_and_arena_stay_hidden_through_every_new_reader(cast):
    """The bracket, the arena's controls and tables, the exports and the API of a private
    league's tournaments answer an outsider as if they did not exist, and change nothing."""
    league = LeagueFactory(is_private=True)
    MembershipFactory(league=league, user=cast["alice"], role="admin")
    MembershipFactory(league=league, user=cast["carol"])
    cup = tournament(cast["alice"], league=league, name="Club cup", format="knockout",
                     table_size=2, advance_count=1)  # fmt: skip
    arena = tournament(cast["alice"], league=league, name="Club arena", format="arena",
                       table_size=2)  # fmt: skip
    for t in (cup, arena):
        register(t, [cast["alice"], cast["carol"]])
        services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    (table,) = playing_tables(arena)
    bob = client_for(cast["bob"])
    for path in (f"/tournaments/{cup.slug}/bracket/", f"/tournaments/{cup.slug}/results.json",
                 f"/tournaments/{arena.slug}/standings.json", f"/table/{table.table_id}/",
                 f"/api/v1/tournaments/{cup.slug}/",
                 f"/api/v1/tournaments/{arena.slug}/standings/"):  # fmt: skip
        assert bob.get(path).status_code == 404, path
    for path in (f"/tournaments/{arena.slug}/arena/pause/",
                 f"/api/v1/tournaments/{arena.slug}/arena/pause/",
                 f"/api/v1/tournaments/{arena.slug}/end/"):  # fmt: skip
        assert bob.post(path).status_code == 404, path
    arena.refresh_from_db()
    assert arena.status == "running" and arena.ends_at > timezone.now()
    carol = client_for(cast["carol"])
    assert carol.get(f"/tournaments/{cup.slug}/bracket/").status_code == 200
    assert carol.get(f"/api/v1/tournaments/{arena.slug}/standings/").status_code == 200
