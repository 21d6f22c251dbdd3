"""A knockout in a real browser on a live site: the organizer announces it on the page
(format, table size, how many go through), enters seven bots and starts it; the bots play it
to the end; the Bracket tab shows both rounds, who went through and the winner, and the
page's final standings are the stored results (the JSON export)."""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser import chromium, log_in, watched
from tests.live import LiveSite

DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}
PHONE = {"viewport": {"width": 390, "height": 844}, "reduced_motion": "reduce"}


@pytest.fixture
def site(tmp_path):
    live = LiveSite("embedded", tmp_path, extra_env={"BOT_MOVE_DELAY": "0.05"}).start()
    live.manage("seed_demo")
    yield live
    live.stop()


def status(site, slug) -> str:
    rows = site.sql("SELECT status FROM ladder_tournament WHERE slug = %s", (slug,))
    return rows[0][0] if rows else ""


@pytest.mark.browser
def test_an_organizer_runs_a_knockout_of_bots_to_the_final(site, tmp_path):
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watched(page, console=True)
        log_in(page, site.url, "alice")
        page.goto(site.url + "/tournaments/new/")
        page.fill("input[name=name]", "Browser Knockout")
        page.select_option("select[name=format]", "knockout")
        page.select_option("select[name=table_size]", "3")
        expect(page.locator("select[name=advance_count]")).to_be_visible()
        page.select_option("select[name=advance_count]", "1")
        page.get_by_role("button", name="Announce the tournament").click()
        expect(page).to_have_url(re.compile(r"/tournaments/browser-knockout/$"))
        expect(page.locator(".league-meta")).to_contain_text("1 goes through per table")

        page.get_by_role("link", name="Players", exact=True).click()
        for level in ("easy", "medium", "hard", "easy", "medium", "hard", "medium"):
            page.select_option("select[name=level]", level)
            page.locator("#add-bot").click()
            expect(page.locator(".message.success")).to_contain_text("A bot is entered")
        page.goto(site.url + "/tournaments/browser-knockout/")
        page.locator("#start-now").click()
        expect(page.locator("#tournament-status")).to_have_text("Round 1 of 2")
        page.locator("#bracket-tab").click()
        expect(page.locator(".bracket-round")).to_have_count(2)
        expect(page.locator(".bracket-planned")).to_have_count(1)  # the final, not paired yet
        expect(page.locator(".bracket-byes .bracket-player")).to_have_count(1)
        page.screenshot(path=str(tmp_path / "knockout-bracket-running.png"), full_page=True)

        site.wait_for(lambda: status(site, "browser-knockout") == "finished", timeout=600,
                      what="the bots finishing the knockout")  # fmt: skip
        with urllib.request.urlopen(f"{site.url}/tournaments/browser-knockout/results.json") as r:
            data = json.loads(r.read())
        names = [row["player"] for row in data["standings"]]
        assert len(names) == 7 and [row["rank"] for row in data["standings"]] == list(range(1, 8))

        page.goto(site.url + "/tournaments/browser-knockout/bracket/")
        expect(page.locator("#tournament-status")).to_have_text("Finished")
        expect(page.locator(".bracket-round")).to_have_count(2)
        expect(page.locator(".bracket-planned")).to_have_count(0)
        expect(page.locator(".bracket-final .bracket-table")).to_have_count(1)
        expect(page.locator(".bracket-final .bracket-player")).to_have_count(3)
        expect(page.locator(".mark-through")).to_have_count(3)  # two table winners, the bye
        expect(page.locator(".mark-out")).to_have_count(4)
        winner = page.locator(".bracket-final .bracket-winner")
        expect(winner).to_have_count(1)
        expect(winner.locator(".name")).to_contain_text(names[0])
        expect(page.locator("#knockout-rules")).to_contain_text("2 rounds in all")
        page.screenshot(path=str(tmp_path / "knockout-bracket.png"), full_page=True)

        page.get_by_role("link", name="Standings", exact=True).click()
        expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
        cells = page.locator("table.standings-table tbody tr td:nth-child(2)")
        expect(cells).to_have_count(7)
        assert [c.strip() for c in cells.all_inner_texts()] == names

        phone = browser.new_context(**PHONE).new_page()
        phone_errors = watched(phone, console=True)
        phone.goto(site.url + "/tournaments/browser-knockout/bracket/")
        expect(phone.locator(".bracket-winner")).to_have_count(1)
        scroller = phone.locator(".bracket-scroll")
        # The columns scroll sideways inside their box; the page itself does not.
        assert scroller.evaluate("(el) => el.scrollWidth > el.clientWidth")
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
        phone.screenshot(path=str(tmp_path / "knockout-bracket-phone.png"), full_page=True)
    assert errors == [] and phone_errors == []
    assert "Traceback" not in site.output(), site.output()[-3000:]
