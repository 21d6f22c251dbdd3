"""Creating a tournament over the REST API (``POST /api/v1/tournaments/``), every format; every
refusal is a 400 that says what is wrong and creates nothing; the format's fields in the
detail, the entries, the standings and the CSV/JSON exports."""

import csv
import io
from datetime import timedelta

import pytest
from django.db.models import F
from django.test import Client
from django.utils import timezone

from ladder import services
from ladder.models import Entry, Tournament
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/"


def later(**delta) -> str:
    return (timezone.now() + timedelta(**(delta or {"hours": 2}))).isoformat()


def body(**settings) -> dict:
    return {"name": "Open", "starts_at": later()} | settings


FORMATS = {
    "swiss": {"table_size": 3, "round_count": 5, "round_break_seconds": 0,
              "tiebreaks": ["game_points", "buchholz"], "points_scheme": "winner"},
    "arena": {"table_size": 3, "duration_minutes": 45, "bot_fill_seconds": 90,
              "bot_fill_level": "hard"},
    "knockout": {"table_size": 4, "advance_count": 2, "round_break_seconds": 30},
}  # fmt: skip


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_each_format_is_created_and_shows_on_the_page_and_in_the_list(as_user, cast, fmt):
    settings = FORMATS[fmt]
    response = as_user(cast["dave"]).post(
        URL, body(name=f"{fmt.title()} Night", format=fmt, description="Bring snacks.",
                  **settings), format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.json()
    data = response.json()
    slug = f"{fmt}-night"
    assert response["Location"] == f"http://testserver/api/v1/tournaments/{slug}/"
    assert data["slug"] == slug and data["format"] == fmt and data["organizer"] == "dave"
    assert data["status"] == "registration" and data["is_organizer"] is True
    assert data["registration_open"] is True and data["your_entry"] is None
    assert {key: data[key] for key in settings} == settings
    t = Tournament.objects.get()
    assert (t.format, t.organizer, t.description) == (fmt, cast["dave"], "Bring snacks.")
    assert {key: getattr(t, key) for key in settings} == settings

    listed = as_user(None).get(URL).json()["results"]
    assert [(row["slug"], row["format"]) for row in listed] == [(slug, fmt)]
    assert as_user(cast["carol"]).get(f"{URL}{slug}/").json()["format"] == fmt
    page = Client().get(f"/tournaments/{slug}/")
    assert page.status_code == 200 and f"{fmt.title()} Night" in page.content.decode()
    assert f"/tournaments/{slug}/" in Client().get("/tournaments/").content.decode()


def test_a_setting_left_out_takes_the_models_default(as_user, cast):
    response = as_user(cast["alice"]).post(URL, body(), format="json")
    assert response.status_code == 201, response.json()
    made, default = Tournament.objects.get(), Tournament(starts_at=timezone.now())
    for name in ("format", "ruleset", "variant", "table_size", "allow_smaller", "round_count",
                 "time_control", "move_seconds", "bank_seconds", "turn_hours",
                 "checkin_minutes", "rated", "late_registration_rounds", "points_scheme",
                 "round_break_seconds", "max_players", "duration_minutes", "bot_fill_seconds",
                 "bot_fill_level", "advance_count", "tiebreaks", "options"):  # fmt: skip
        assert getattr(made, name) == getattr(default, name), name
    assert made.league is None and made.description == "" and made.ends_at is None
    data = response.json()
    assert data["format"] == "swiss" and data["ends_at"] is None and data["league"] is None


def test_a_league_admin_creates_a_rated_tournament_of_the_league(as_user, cast):
    league = services.league_create(by=cast["alice"], name="Club", ruleset="europe",
                                    variant="classic", time_controls=["realtime"])  # fmt: skip
    settings = {"league": "club", "rated": True, "format": "knockout", "advance_count": 1,
                "table_size": 2, "options": {"warehouses": True}}  # fmt: skip
    response = as_user(cast["alice"]).post(URL, body(**settings), format="json")
    assert response.status_code == 201, response.json()
    t = Tournament.objects.get()
    assert (t.league, t.rated, t.options) == (league, True, {"warehouses": True})
    assert response.json()["league"] == "club" and response.json()["options"] == t.options


@pytest.fixture
def secret(cast):
    """A private league of alice's that dave is not in."""
    return services.league_create(by=cast["alice"], name="Secret", ruleset="europe",
                                  variant="classic", time_controls=["realtime"],
                                  is_private=True)  # fmt: skip


# (body, the error code, where the message is: a field of ``fields``, or words of ``detail``)
REFUSALS = {
    "table of six": (body(table_size=6), "invalid", "table_size"),
    "table of one": (body(table_size=1), "invalid", "table_size"),
    "all go through": (body(format="knockout", table_size=3, advance_count=3),
                       "invalid_tournament", "1 to 2 players go through"),
    "nobody goes through": (body(format="knockout", advance_count=0), "invalid", "advance_count"),
    "arena too long": (body(format="arena", duration_minutes=601), "invalid", "duration_minutes"),
    "bots in a rated arena": (body(format="arena", rated=True, bot_fill_seconds=60),
                              "invalid_tournament", "unrated arenas only"),
    "rated without a league": (body(rated=True), "invalid_tournament", "belongs to a league"),
    "a league not yours": (body(league="europe"), "invalid_tournament", "league's admins"),
    "a league you cannot see": (body(league="secret"), "invalid", "league"),
    "no such league": (body(league="nowhere"), "invalid", "league"),
    "start in the past": (body(starts_at=later(minutes=-5)), "invalid_tournament", "future"),
    "registration after the start": (body(registration_closes_at=later(hours=3)),
                                     "invalid_tournament", "close by the start"),
    "late entry past the end": (body(round_count=2, late_registration_rounds=3),
                                "invalid_tournament", "past the last round"),
    "repeated tie-break": (body(tiebreaks=["buchholz", "buchholz"]), "invalid_tournament",
                           "repeated tie-break"),
    "warehouses in New York": (body(ruleset="new_york", variant="standard",
                                    options={"warehouses": True}),
                               "invalid_tournament", "not valid"),
    "tickets of another map": (body(ruleset="new_york", variant="classic"),
                               "invalid_tournament", "not valid"),
    "unknown format": (body(format="ladder"), "invalid", "format"),
    "unknown key": (body(colour="red"), "invalid", "colour"),
    "status is the site's": (body(status="finished"), "invalid", "status"),
    "slug is the site's": (body(slug="mine"), "invalid", "slug"),
    "organizer is the site's": (body(organizer="carol"), "invalid", "organizer"),
    "no name": (body(name="   "), "invalid", "name"),
    "no start": ({"name": "Open"}, "invalid", "starts_at"),
    "a word for a number": (body(table_size="four"), "invalid", "table_size"),
    "a word for a flag": (body(rated="perhaps"), "invalid", "rated"),
    "a word for a time": (body(starts_at="tomorrow"), "invalid", "starts_at"),
    "a number too big": (body(max_players=10**12), "invalid", "max_players"),
    "a tie-break that is no list": (body(tiebreaks="buchholz"), "invalid", "tiebreaks"),
    "options that are no object": (body(options=["warehouses"]), "invalid", "options"),
    "a list for a body": ([body()], "invalid", "non_field_errors"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_refused_tournament_is_a_clear_400_and_nothing_is_created(as_user, cast, secret, case):
    data, code, where = REFUSALS[case]
    error = assert_error(as_user(cast["dave"]).post(URL, data, format="json"), 400, code)
    if code == "invalid":
        assert error["fields"][where] and all(error["fields"][where]), error
    else:
        assert where in error["detail"] and error["detail"] in error["message"], error
    assert not Tournament.objects.exists()


def test_unknown_and_site_set_keys_are_named_in_the_refusal(as_user, cast):
    error = assert_error(
        as_user(cast["dave"]).post(URL, body(colour="red", seed=7), format="json"), 400, "invalid"
    )
    assert error["fields"] == {"colour": ["Unknown setting."],
                               "seed": ["The site sets this, not the organizer."]}  # fmt: skip


def test_malformed_json_is_a_400(as_user, cast):
    client = as_user(cast["dave"])
    bad = client.post(URL, '{"name": "Open", ', content_type="application/json")
    assert_error(bad, 400, "malformed_message")
    nul = client.post(URL, body(name="Op\u0000en"), format="json")
    assert_error(nul, 400, "malformed_message")
    assert_error(client.post(URL, "name=Open", content_type="text/plain"), 415)
    assert not Tournament.objects.exists()


def test_anonymous_callers_are_refused(as_user, cast):
    response = as_user(None).post(URL, body(), format="json")
    assert_error(response, 401, "login_required")
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert not Tournament.objects.exists()


def test_creating_counts_against_the_write_rate(as_user, cast, settings):
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {
        "DEFAULT_THROTTLE_RATES": settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        | {"writes": "2/minute"}
    }
    client = as_user(cast["dave"])
    for n in range(2):
        assert client.post(URL, body(name=f"Cup {n}"), format="json").status_code == 201
    assert_error(client.post(URL, body(name="Cup 2"), format="json"), 429, "rate_limited")
    assert Tournament.objects.count() == 2


def test_the_same_name_gets_a_slug_of_its_own(as_user, cast):
    client = as_user(cast["dave"])
    slugs = [client.post(URL, body(), format="json").json()["slug"] for _ in range(2)]
    assert slugs[0] == "open" and slugs[1] != "open" and slugs[1].startswith("open")


# --- the format's fields in the reads and exports ---------------------------------------------


def export(client, slug) -> tuple[dict, list[dict]]:
    """The JSON export and the CSV export's rows, from the API and the page alike."""
    data = client.get(f"{URL}{slug}/results/").json()
    assert Client().get(f"/tournaments/{slug}/results.json").json() == data
    text = client.get(f"{URL}{slug}/results/?format=csv").content.decode()
    assert Client().get(f"/tournaments/{slug}/results.csv").content.decode() == text
    return data, list(csv.DictReader(io.StringIO(text)))


def test_an_arenas_settings_and_entrants_fields_are_in_the_reads_and_exports(as_user, cast):
    dave = as_user(cast["dave"])
    created = dave.post(URL, body(name="Arena", format="arena", duration_minutes=30,
                                  bot_fill_seconds=60), format="json").json()  # fmt: skip
    assert (created["duration_minutes"], created["bot_fill_seconds"]) == (30, 60)
    assert (created["bot_fill_level"], created["ends_at"]) == ("medium", None)
    bob = as_user(cast["bob"])
    entry = bob.post(f"{URL}arena/register/").json()
    assert (entry["paused"], entry["streak"], entry["eliminated_in"]) == (False, 0, None)
    assert bob.get(f"{URL}arena/").json()["your_entry"]["streak"] == 0

    as_user(cast["carol"]).post(f"{URL}arena/register/")
    # Two wins in a row, then a pause, as the arena's results and the entrant would set them.
    Entry.objects.filter(user=cast["bob"]).update(streak=2, paused=True)
    Tournament.objects.update(version=F("version") + 1)

    assert bob.get(f"{URL}arena/").json()["your_entry"]["streak"] == 2
    standings = bob.get(f"{URL}arena/standings/").json()["results"]
    shown = {row["username"]: (row["streak"], row["paused"]) for row in standings}
    assert shown == {"bob": (2, True), "carol": (0, False)}
    assert not {"round_reached", "eliminated_in"} & set(standings[0])
    data, rows = export(bob, "arena")
    assert data["tournament"]["format"] == "arena"
    assert data["tournament"]["duration_minutes"] == 30
    assert data["tournament"]["bot_fill_seconds"] == 60 and data["tournament"]["ends_at"] is None
    assert "advance_count" not in data["tournament"]
    assert {row["username"]: row["streak"] for row in data["standings"]} == {"bob": 2, "carol": 0}
    assert list(rows[0])[-2:] == ["streak", "paused"]  # no round columns: one long round
    assert {row["username"]: (row["streak"], row["paused"]) for row in rows} == {
        "bob": ("2", "True"), "carol": ("0", "False")}  # fmt: skip


def test_a_knockouts_round_reached_and_elimination_are_in_the_exports(as_user, cast, monkeypatch):
    monkeypatch.setattr("ladder.services.tournaments.kick", lambda tournament_id: None)
    dave = as_user(cast["dave"])
    created = dave.post(URL, body(name="KO", format="knockout", table_size=2, advance_count=1,
                                  round_break_seconds=0), format="json").json()  # fmt: skip
    assert (created["format"], created["advance_count"]) == ("knockout", 1)
    for _ in range(4):
        dave.post(f"{URL}ko/entries/", {"bot_level": "easy"}, format="json")
    assert Entry.objects.count() == 4
    assert dave.post(f"{URL}ko/start/").json()["status"] == "running"
    t = Tournament.objects.get()
    out = Entry.objects.filter(tournament=t).order_by("id").first()
    Entry.objects.filter(pk=out.pk).update(eliminated_in=1)  # as the round's end would set it
    Tournament.objects.filter(pk=t.pk).update(version=F("version") + 1)

    data, rows = export(as_user(None), "ko")
    assert data["tournament"]["format"] == "knockout" and data["tournament"]["advance_count"] == 1
    assert "duration_minutes" not in data["tournament"]
    by_entry = {row["entry"]: row for row in data["standings"]}
    assert len(by_entry) == 4 and all(row["round_reached"] == 1 for row in by_entry.values())
    assert by_entry[out.pk]["eliminated_in"] == 1
    assert [row["eliminated_in"] for e, row in by_entry.items() if e != out.pk] == [None] * 3
    header = list(rows[0])
    assert header[header.index("rating") + 1 :] == ["round_reached", "eliminated_in", "round_1"]
    assert sorted(row["eliminated_in"] for row in rows) == ["", "", "", "1"]
    api = as_user(None).get(f"{URL}ko/standings/").json()["results"]
    assert {row["entry"]: row["eliminated_in"] for row in api}[out.pk] == 1


def test_a_swiss_export_has_no_other_formats_fields(as_user, cast):
    dave = as_user(cast["dave"])
    dave.post(URL, body(name="Plain"), format="json")
    as_user(cast["bob"]).post(f"{URL}plain/register/")
    data, rows = export(dave, "plain")
    assert data["tournament"]["format"] == "swiss"
    assert not {"duration_minutes", "advance_count", "ends_at"} & set(data["tournament"])
    assert not {"streak", "paused", "round_reached", "eliminated_in"} & set(data["standings"][0])
    assert not {"streak", "round_reached"} & set(rows[0])
    standings = dave.get(f"{URL}plain/standings/").json()["results"]
    assert not {"streak", "paused", "round_reached", "eliminated_in"} & set(standings[0])
