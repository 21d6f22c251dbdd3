"""A started ranked or tournament table calls its players (issue 23), in a real browser on a
live site: two players queue in a league and both pages go to the same table by themselves;
the league page's queue panel counts the time waited and follows joins and leaves without a
reload; a tournament round's start takes an entrant from any page to their table, and asks
first (a 10-second countdown) a player who is in the middle of a game of their own."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import chromium, log_in, text_contrast, watched
from tests.live import LiveSite

DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}
FAST = {"BOT_MOVE_DELAY": "0.05"}
TABLE = re.compile(r"/table/(\d+)/$")
MODES = [
    pytest.param("embedded", marks=[pytest.mark.browser]),
    pytest.param(
        "production", marks=[pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]
    ),  # fmt: skip
]


def start_site(mode, tmp_path):
    live = LiveSite(mode, tmp_path, extra_env=FAST).start()
    live.manage("seed_demo")
    return live


@pytest.fixture(params=MODES)
def site(request, tmp_path):
    live = start_site(request.param, tmp_path)
    yield live
    live.stop()


@pytest.fixture
def embedded_site(tmp_path):
    live = start_site("embedded", tmp_path)
    yield live
    live.stop()


def open_league(page, url):
    """The New York ladder (no demo ratings: everyone starts equal), joined, socket live."""
    page.goto(url + "/leagues/new-york/")
    join = page.get_by_role("button", name="Join league")
    if join.count():
        join.first.click()
    expect(page.locator("#queue-panel")).to_have_attribute("data-state", "idle")
    expect(page.locator("body")).to_have_attribute("data-queue-live", "1")
    expect(page.locator("body")).to_have_attribute("data-notifications", "live")


def queue_for_two(page):
    page.select_option("#queue-panel select[name=size]", "2-2")
    page.locator("#queue-join").click()


def test_two_players_queue_and_both_pages_go_to_the_same_table(site, tmp_path):
    with chromium() as browser:
        alice = browser.new_context(**DESKTOP).new_page()
        bob = browser.new_context(**DESKTOP).new_page()
        errors = watched(alice)
        bob_errors = watched(bob)
        log_in(alice, site.url, "alice")
        log_in(bob, site.url, "bob")
        open_league(alice, site.url)
        open_league(bob, site.url)

        # Alice waits: the panel changes without a reload and the time waited counts up.
        alice.locator("html").evaluate("(el) => { el.dataset.sameDocument = 'yes'; }")
        queue_for_two(alice)
        panel = alice.locator("#queue-panel")
        expect(panel).to_have_attribute("data-state", "waiting")
        expect(panel).to_contain_text("Waiting for a table (Real time, 2–2 players).")
        waited = alice.locator("#queue-waited")
        expect(waited).to_have_text(re.compile(r"^0:\d\d$"))
        first = waited.text_content()
        expect(waited).not_to_have_text(first)  # it ticks
        expect(waited).to_have_text(re.compile(r"^\d+:\d\d$"))
        assert text_contrast(waited) >= 4.5
        alice.screenshot(path=str(tmp_path / "queue-waiting.png"))
        expect(alice.locator("html")).to_have_attribute("data-same-document", "yes")

        # Bob queues too: the matchmaker seats them, and both pages go to the table.
        queue_for_two(bob)
        expect(alice).to_have_url(TABLE, timeout=15_000)
        expect(bob).to_have_url(TABLE, timeout=15_000)
        assert alice.url == bob.url
        for page in (alice, bob):
            expect(page.locator("#players li.player.is-you")).to_be_visible(timeout=15_000)
    assert errors == [] and bob_errors == [], errors + bob_errors
    assert "Traceback" not in site.output(), site.output()[-3000:]


@pytest.mark.browser
def test_the_queue_panel_follows_a_leave_in_another_tab(embedded_site, tmp_path):
    site = embedded_site
    with chromium() as browser:
        context = browser.new_context(**DESKTOP)
        page = context.new_page()
        errors = watched(page, console=True)
        log_in(page, site.url, "carol")
        open_league(page, site.url)
        page.locator("html").evaluate("(el) => { el.dataset.sameDocument = 'yes'; }")
        queue_for_two(page)
        expect(page.locator("#queue-panel")).to_have_attribute("data-state", "waiting")
        expect(page.locator(".messages")).to_contain_text("You are in the queue")

        # Another tab leaves the queue: this page hears it and shows the form again.
        other = context.new_page()
        other.goto(site.url + "/leagues/new-york/")
        expect(other.locator("#queue-panel")).to_have_attribute("data-state", "waiting")
        other.locator("#queue-leave").click()
        expect(other.locator("#queue-panel")).to_have_attribute("data-state", "idle")
        expect(page.locator("#queue-panel")).to_have_attribute("data-state", "idle")
        expect(page.locator("#queue-join")).to_be_visible()
        expect(page.locator("html")).to_have_attribute("data-same-document", "yes")

        # Queue again and leave on this page: no reload either.
        queue_for_two(page)
        expect(page.locator("#queue-panel")).to_have_attribute("data-state", "waiting")
        page.locator("#queue-leave").click()
        expect(page.locator("#queue-panel")).to_have_attribute("data-state", "idle")
        expect(page.locator(".messages")).to_contain_text("You left the queue")
        expect(page.locator("html")).to_have_attribute("data-same-document", "yes")
    assert errors == []


def organize_cup(organizer, url, name, slug):
    """A tournament of tables of three, two bots entered; returns nothing."""
    organizer.goto(url + "/tournaments/")
    organizer.get_by_role("link", name="Organize a tournament").click()
    organizer.fill("input[name=name]", name)
    organizer.select_option("select[name=table_size]", "3")
    organizer.fill("input[name=round_count]", "1")
    organizer.get_by_role("button", name="Announce the tournament").click()
    expect(organizer).to_have_url(re.compile(rf"/tournaments/{slug}/$"))
    organizer.get_by_role("link", name="Players", exact=True).click()
    for level in ("hard", "medium"):
        organizer.select_option("select[name=level]", level)
        organizer.locator("#add-bot").click()
        expect(organizer.locator(".message.success")).to_contain_text("A bot is entered")


def register(player, url, slug):
    player.goto(url + f"/tournaments/{slug}/")
    player.locator("#register").click()
    expect(player.locator(".message.success")).to_contain_text("You are registered")


def start_cup(organizer, url, slug):
    organizer.goto(url + f"/tournaments/{slug}/")
    organizer.locator("#start-now").click()
    expect(organizer.locator("#tournament-status")).to_have_text("Round 1 of 1")


@pytest.mark.browser
def test_a_round_start_takes_an_entrant_from_another_page_to_their_table(embedded_site, tmp_path):
    site = embedded_site
    with chromium() as browser:
        organizer = browser.new_context(**DESKTOP).new_page()
        player = browser.new_context(**DESKTOP).new_page()
        errors = watched(player)
        log_in(organizer, site.url, "alice")
        log_in(player, site.url, "bob")
        organize_cup(organizer, site.url, "Call Cup", "call-cup")
        register(player, site.url, "call-cup")

        # Bob reads the rules while he waits; the round starts.
        player.goto(site.url + "/rules/")
        expect(player.locator("body")).to_have_attribute("data-notifications", "live")
        start_cup(organizer, site.url, "call-cup")
        expect(player).to_have_url(TABLE, timeout=15_000)
        expect(player.locator("#players li.player.is-you")).to_be_visible(timeout=15_000)
        expect(player.locator(".game-context")).to_contain_text("Call Cup")
    assert errors == []


@pytest.mark.browser
def test_a_player_in_a_game_of_their_own_is_asked_before_being_taken(embedded_site, tmp_path):
    site = embedded_site
    with chromium() as browser:
        organizer = browser.new_context(**DESKTOP).new_page()
        player = browser.new_context(**DESKTOP).new_page()
        errors = watched(player)
        log_in(organizer, site.url, "alice")
        log_in(player, site.url, "carol")
        organize_cup(organizer, site.url, "Ask Cup", "ask-cup")
        register(player, site.url, "ask-cup")

        # Carol plays a friendly game against a bot meanwhile.
        player.goto(site.url + "/play/new/")
        player.select_option("select[name=seat_count]", "2")
        player.get_by_role("button", name="Create table").click()
        expect(player).to_have_url(TABLE)
        own_table = player.url
        player.locator("#add-bot").click()
        expect(player.locator("#players li.player.is-you")).to_be_visible(timeout=15_000)
        expect(player.locator("#turn-signals")).to_be_visible()

        start_cup(organizer, site.url, "ask-cup")
        dialog = player.locator("#table-call")
        expect(dialog).to_be_visible(timeout=15_000)
        expect(player.locator("html")).to_have_attribute("data-table-call", "asking")
        expect(dialog).to_contain_text("Your tournament round has started")
        expect(dialog.locator(".table-call-count")).to_contain_text("Going to the table in")
        assert player.url == own_table
        for button in (dialog.locator("#table-call-go"), dialog.locator("#table-call-stay")):
            assert text_contrast(button) >= 4.5
        player.screenshot(path=str(tmp_path / "table-call.png"))

        # When the countdown ends, the page goes to the tournament table.
        expect(player).not_to_have_url(own_table, timeout=20_000)
        expect(player).to_have_url(TABLE)
        expect(player.locator(".game-context")).to_contain_text("Ask Cup", timeout=15_000)
    assert errors == []
