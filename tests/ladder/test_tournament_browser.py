"""Tournaments in a real browser on a live site: an organizer announces one through the form
and fills it with bots; a player registers; the organizer starts it; the player's open page
shows their table without a reload, and the link takes them to their seat."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser import chromium, log_in, text_contrast, watched
from tests.live import LiveSite

DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}


@pytest.fixture
def site(tmp_path):
    live = LiveSite("embedded", tmp_path, extra_env={"BOT_MOVE_DELAY": "0.05"}).start()
    live.manage("seed_demo")
    yield live
    live.stop()


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

        # The player's page was open all along: the round's start takes it to the table
        # (issue 23: its clock is running), and the tournament page links to it too.
        expect(player).to_have_url(re.compile(r"/table/\d+/$"), timeout=15_000)
        table_url = player.url
        player.goto(site.url + "/tournaments/browser-cup/")
        go = player.locator("#go-to-table")
        expect(go).to_be_visible(timeout=15_000)
        expect(player.locator("#tournament-status")).to_have_text("Round 1 of 2")
        player.screenshot(path=str(tmp_path / "tournament-player.png"), full_page=True)
        go.click()
        expect(player).to_have_url(table_url)
        expect(player.locator("#players li.player.is-you")).to_be_visible(timeout=15_000)

        # The organizer's controls can be read, also under the pointer (WCAG AA: 4.5).
        organizer.goto(site.url + "/tournaments/browser-cup/")
        cancel = organizer.get_by_role("button", name="Cancel", exact=True)
        assert text_contrast(cancel) >= 4.5
        cancel.hover()
        assert text_contrast(cancel) >= 4.5
        end = organizer.locator("[data-end-table]").first
        expect(end).to_be_visible()
        assert text_contrast(end) >= 4.5
        end.hover()
        assert text_contrast(end) >= 4.5

        organizer.get_by_role("link", name="Crosstable").click()
        expect(organizer.get_by_role("heading", name="Crosstable")).to_be_visible()
    assert errors == []
    assert "Traceback" not in site.output(), site.output()[-3000:]


@pytest.fixture
def warehouses_site(tmp_path):
    live = LiveSite("embedded", tmp_path).start()
    live.manage("seed_demo")
    yield live
    live.stop()


def tournament_options(site, slug) -> dict:
    (row,) = site.sql("SELECT options FROM ladder_tournament WHERE slug = %s", (slug,))
    return json.loads(row[0]) if isinstance(row[0], str) else row[0]


@pytest.mark.browser
def test_the_tournament_form_offers_warehouses_with_the_maps_that_have_them(
    warehouses_site, tmp_path
):
    site = warehouses_site
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watched(page, console=True)
        log_in(page, site.url, "alice")
        page.goto(site.url + "/tournaments/new/")
        warehouses = page.locator("input[name=warehouses]")
        expect(warehouses).to_be_visible()  # the first game is on the Europe map
        warehouses.check()
        page.select_option("select[name=game]", "new_york:standard")
        expect(warehouses).to_be_hidden()
        page.screenshot(path=str(tmp_path / "tournament-form-new-york.png"), full_page=True)
        page.select_option("select[name=game]", "europe:big_cities")
        expect(warehouses).to_be_visible()
        expect(warehouses).to_be_checked()
        page.screenshot(path=str(tmp_path / "tournament-form-europe.png"), full_page=True)
        page.fill("input[name=name]", "Depot Cup")
        page.fill("input[name=starts_at]", "2099-01-01T12:00")
        page.get_by_role("button", name="Announce the tournament").click()
        expect(page).to_have_url(re.compile(r"/tournaments/depot-cup/$"))
        expect(page.locator(".league-meta")).to_contain_text("Warehouses & Depots")
        page.screenshot(path=str(tmp_path / "tournament-page.png"))
        assert tournament_options(site, "depot-cup") == {"warehouses": True}

        # Checked, then New York chosen: the hidden box is not sent.
        page.goto(site.url + "/tournaments/new/")
        warehouses.check()
        page.select_option("select[name=game]", "new_york:standard")
        page.fill("input[name=name]", "Subway Cup")
        page.fill("input[name=starts_at]", "2099-01-01T12:00")
        page.get_by_role("button", name="Announce the tournament").click()
        expect(page).to_have_url(re.compile(r"/tournaments/subway-cup/$"))
        assert tournament_options(site, "subway-cup") == {}
        expect(page.locator(".league-meta")).not_to_contain_text("Warehouses")

        page.goto(site.url + "/tournaments/")
        depot, subway = (page.locator(".tournament-card", has_text=n) for n in ("Depot", "Subway"))
        expect(depot.locator("abbr.tag")).to_have_text("W&D")
        expect(subway.locator("abbr.tag")).to_have_count(0)
        page.screenshot(path=str(tmp_path / "tournament-list.png"))
    assert errors == []
