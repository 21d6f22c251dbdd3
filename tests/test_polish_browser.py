"""Site-wide polish in a real browser on a live site: a finished tournament's Players tab,
registering for a tournament with check-in, notifications and stock descriptions in the
reader's language, flag images, the accuracy page's link to How to play, and the home
page's miniature of the Europe board. Screenshots go to $SHOTS_DIR when it is set (desktop
and phone)."""

import os
import re
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games import engine
from ladder import stock_texts
from tests.browser import chromium, log_in, text_contrast, watched
from tests.live import LiveSite

DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}
PHONE = {"viewport": {"width": 390, "height": 844}, "reduced_motion": "reduce"}
SHOTS = os.environ.get("SHOTS_DIR", "")

# A one-round tournament of the demo players at a table of three: dave withdrew before it
# started, the others finished in seat order. Made in the site's own database.
FINISHED_CUP = """
from datetime import timedelta
from django.utils import timezone
from ladder import services
from tests.ladder.factories import finish_round
from ttr_site.accounts.models import User
u = {x.username: x for x in User.objects.all()}
t = services.tournament_create(by=u["admin"], name="Finished Cup", table_size=3, round_count=1,
    starts_at=timezone.now() + timedelta(hours=1), round_break_seconds=0, checkin_minutes=120)
for name in ("alice", "bob", "carol", "dave"):
    services.tournament_register(tournament_id=t.pk, user=u[name])
services.tournament_withdraw(tournament_id=t.pk, user=u["dave"])
services.tournament_start_now(tournament_id=t.pk, by=u["admin"])
finish_round(t)
t.refresh_from_db()
assert t.status == "finished", t.status
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    live = LiveSite("embedded", tmp_path_factory.mktemp("polish")).start()
    live.manage("seed_demo")
    live.manage("shell", "-c", FINISHED_CUP)
    yield live
    live.stop()


def shoot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        width = page.viewport_size["width"]
        page.screenshot(path=f"{SHOTS}/{name}-{width}.png", full_page=True)


def german(msgid: str, **params) -> str:
    with translation.override("de"):
        text = translation.gettext(msgid)
    assert text != msgid, f"{msgid!r} has no German translation yet"
    return text.format(**params)


@pytest.mark.browser
@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_finished_tournaments_players_show_their_final_places(site, device):
    with chromium() as browser:
        page = browser.new_context(**device).new_page()
        errors = watched(page, console=True)
        page.goto(site.url + "/tournaments/finished-cup/players/")
        statuses = page.locator("#players td.entry-status")
        expect(statuses).to_have_text(
            ["Final place: 1 of 4", "Final place: 2 of 4", "Final place: 3 of 4", "Withdrawn"]
        )
        expect(page.locator("#players")).not_to_contain_text("Playing")
        assert text_contrast(statuses.first) >= 4.5
        if device is DESKTOP:  # check-in times carry the date (the column is hidden on phones)
            expect(page.locator("#players td.checked-in time").first).to_have_text(
                re.compile(r"^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d$")
            )
        shoot(page, "tournament-finished-players")
    assert errors == []


@pytest.mark.browser
def test_registering_for_a_tournament_with_check_in_says_when_to_check_in(site):
    date = re.compile(r"\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d")
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watched(page, console=True)
        log_in(page, site.url, "dave")  # the demo Sunday Swiss: check-in, dave not entered
        page.goto(site.url + "/tournaments/sunday-swiss/")
        note = page.locator("#checkin-note")
        expect(note).to_contain_text("Check-in required.")
        expect(note).to_have_text(re.compile(rf"between {date.pattern} and {date.pattern}"))
        assert text_contrast(note) >= 4.5
        shoot(page, "tournament-checkin-note")
        page.locator("#register").click()
        message = page.locator(".message.success")
        expect(message).to_contain_text("This tournament needs check-in")
        expect(message).to_have_text(re.compile(rf"between {date.pattern} and {date.pattern}"))
        expect(page.locator("#checkin-note")).to_be_visible()  # a reminder until checked in
        shoot(page, "tournament-registered-checkin")
        page.set_viewport_size(PHONE["viewport"])
        shoot(page, "tournament-registered-checkin")
    assert errors == []


@pytest.mark.browser
@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_profile_shows_the_country_as_a_flag_image(site, device):
    with chromium() as browser:
        page = browser.new_context(**device).new_page()
        errors = watched(page, console=True)
        page.goto(site.url + "/u/alice/")
        flag = page.locator(".country img.flag")
        expect(flag).to_have_attribute("alt", "Netherlands")
        expect(flag).to_be_visible()
        assert flag.evaluate("(img) => img.complete && img.naturalWidth") > 0
        box = flag.bounding_box()
        assert 16 <= box["width"] <= 32 and box["height"] >= 10
        shoot(page, "profile-flag")
    assert errors == []


@pytest.mark.browser
@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_home_pages_hero_shows_the_europe_board_in_miniature(site, device):
    board = engine.board("europe")
    label = "A miniature of the Europe board: its cities and the coloured routes between them"
    with chromium() as browser:
        page = browser.new_context(**device).new_page()
        errors = watched(page, console=True)
        page.goto(site.url + "/")
        picture = page.locator(".hero svg.hero-map[role=img]")
        expect(picture).to_have_attribute("aria-label", label)
        spaces = sum(r["length"] for r in board["routes"])  # a polygon per car space: 300
        expect(picture.locator("polygon.hero-map__space")).to_have_count(spaces)
        expect(picture.locator("circle.hero-map__city")).to_have_count(len(board["cities"]))
        if device is DESKTOP:  # beside the text, as big as it
            expect(picture).to_be_visible()
            text, box = page.locator(".hero-text").bounding_box(), picture.bounding_box()
            assert box["x"] >= text["x"] + text["width"] and box["width"] >= 400
            assert box["height"] >= 0.8 * text["height"]
        else:  # decorative: phones keep the hero short
            expect(picture).to_be_hidden()
        shoot(page, "home")
        german_page = browser.new_context(locale="de-DE", **device).new_page()
        german_page.goto(site.url + "/")
        expect(german_page.locator(".hero-map")).to_have_attribute("aria-label", german(label))
    assert errors == []


@pytest.mark.browser
def test_a_notice_sent_in_english_reads_in_german(site):
    """Alice's notice that the Finished Cup is over was stored while nobody read German."""
    (row,) = site.sql(
        "SELECT n.text FROM accounts_notification n JOIN accounts_user u ON u.id = n.user_id "
        "WHERE u.username = 'alice' AND n.text LIKE %s",
        ("Finished Cup is over%",),
    )
    place = re.fullmatch(r"Finished Cup is over: you finished (\d) of 4\.", row[0]).group(1)
    with chromium() as browser:
        for device in (DESKTOP, PHONE):
            page = browser.new_context(locale="de-DE", **device).new_page()
            errors = watched(page, console=True)
            log_in(page, site.url, "alice")
            page.goto(site.url + "/notifications/")
            expect(page.locator("html")).to_have_attribute("lang", "de")
            expected = german(
                "{name} is over: you finished {place} of {count}.",
                name="Finished Cup", place=place, count=4,
            )  # fmt: skip
            expect(page.locator(".notification-list")).to_contain_text(expected)
            expect(page.locator(".notification-list")).not_to_contain_text("is over")
            expect(page.locator(".notification-list time").first).to_have_text(
                re.compile(r"^\d{1,2}\. \w{3} \d{4}, \d\d:\d\d$")
            )
            shoot(page, "notifications-de")
            assert errors == []


@pytest.mark.browser
def test_the_accuracy_page_links_to_how_ratings_work(site):
    with chromium() as browser:
        for device in (DESKTOP, PHONE):
            page = browser.new_context(**device).new_page()
            errors = watched(page, console=True)
            page.goto(site.url + "/leagues/europe/accuracy/")
            expect(page.locator("body")).not_to_contain_text("docs/")
            link = page.locator("#ratings-explained a")
            expect(link).to_have_text("How to play")
            shoot(page, "league-accuracy")
            with page.expect_response(re.compile(r"/rules/$")) as response:
                link.click()
            assert response.value.status == 200
            expect(page).to_have_url(re.compile(r"/rules/#site$"))
            expect(page.locator("#site")).to_contain_text("Ratings")
            assert errors == []


@pytest.mark.browser
def test_the_default_leagues_description_reads_in_german(site):
    with chromium() as browser:
        page = browser.new_context(locale="de-DE", **DESKTOP).new_page()
        page.goto(site.url + "/leagues/")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        shoot(page, "leagues-de")
        expect(page.locator("main")).to_contain_text(german(stock_texts.EUROPE_LADDER))
        expect(page.locator("main")).not_to_contain_text(stock_texts.EUROPE_LADDER)
