"""Tournaments in a real browser on a live site: an organizer announces one through the form
and fills it with bots; a player registers; the organizer starts it; the player's open page
shows their table without a reload, and the link takes them to their seat."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import chromium
from tests.live import LiveSite

DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}


@pytest.fixture
def site(tmp_path):
    live = LiveSite("embedded", tmp_path, extra_env={"BOT_MOVE_DELAY": "0.05"}).start()
    live.manage("seed_demo")
    yield live
    live.stop()


def log_in(page, url, username):
    page.goto(url + "/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", "ticket-to-ride")
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("link", name=username.capitalize(), exact=True)).to_be_visible()


@pytest.mark.browser
def test_an_organizer_runs_a_tournament_and_a_player_is_sent_to_their_table(site, tmp_path):
    with chromium() as browser:
        organizer = browser.new_context(**DESKTOP).new_page()
        player = browser.new_context(**DESKTOP).new_page()
        errors = []
        for page in (organizer, player):
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(organizer, site.url, "alice")
        log_in(player, site.url, "bob")

        organizer.goto(site.url + "/tournaments/")
        organizer.get_by_role("link", name="Organize a tournament").click()
        organizer.fill("input[name=name]", "Browser Cup")
        organizer.select_option("select[name=table_size]", "3")
        organizer.fill("input[name=round_count]", "2")
        organizer.get_by_role("button", name="Announce the tournament").click()
        expect(organizer).to_have_url(re.compile(r"/tournaments/browser-cup/$"))
        expect(organizer.locator(".message.success")).to_contain_text("registration is open")

        organizer.get_by_role("link", name="Players", exact=True).click()
        for level in ("hard", "medium"):
            organizer.select_option("select[name=level]", level)
            organizer.locator("#add-bot").click()
            expect(organizer.locator(".message.success")).to_contain_text("A bot is entered")

        player.goto(site.url + "/tournaments/browser-cup/")
        player.locator("#register").click()
        expect(player.locator(".message.success")).to_contain_text("You are registered")
        expect(player.locator("body")).to_have_attribute("data-tournament-live", "1")

        organizer.goto(site.url + "/tournaments/browser-cup/")
        organizer.locator("#start-now").click()
        expect(organizer.locator("#tournament-status")).to_have_text("Round 1 of 2")

        # The player's page was open all along: the socket brings the table to it.
        go = player.locator("#go-to-table")
        expect(go).to_be_visible(timeout=15_000)
        expect(player.locator("#tournament-status")).to_have_text("Round 1 of 2")
        player.screenshot(path=str(tmp_path / "tournament-player.png"), full_page=True)
        go.click()
        expect(player).to_have_url(re.compile(r"/table/\d+/$"))
        expect(player.locator("#players li.player.is-you")).to_be_visible(timeout=15_000)

        organizer.get_by_role("link", name="Crosstable").click()
        expect(organizer.get_by_role("heading", name="Crosstable")).to_be_visible()
    assert errors == []
    assert "Traceback" not in site.output(), site.output()[-3000:]
