"""A Swiss played with bots to the end in a real browser (issue 25): the organizer announces
it on the page (tables of 3, 2 rounds, no break), enters five bots and starts it; the bots
play every table of both rounds. The open page turns to "Finished" by itself, and its final
standings (order, names, points) are what the site stored: the JSON export, whose every
table's places are the game's own ranks (the engine's final result, read from the API)."""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from ladder.tournament_presenters import fmt_points
from tests.browser import chromium, log_in, watched
from tests.live import LiveSite

DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}
BOTS = ("easy", "medium", "easy", "medium", "easy")
FINISH_SECONDS = 420  # two rounds of bot games on a shared two-core machine


@pytest.fixture
def site(tmp_path):
    live = LiveSite("embedded", tmp_path, extra_env={"BOT_MOVE_DELAY": "0.05"}).start()
    live.manage("seed_demo")
    yield live
    live.stop()


def get_json(site, path: str):
    with urllib.request.urlopen(site.url + path, timeout=20) as response:
        return json.loads(response.read())


def stored_status(site) -> str:
    return get_json(site, "/api/v1/tournaments/bot-swiss/")["status"]


def page_standings(page) -> list[tuple[str, str, str]]:
    """(rank, name, points) of each row of the standings table, top first."""
    rows = page.locator("table.standings-table tbody tr")
    return [
        (
            row.locator("td.rank").inner_text().strip(),
            row.locator("td").nth(1).inner_text().strip(),
            row.locator("td[data-f=points]").inner_text().strip(),
        )
        for row in rows.all()
    ]


def stored_standings(export: dict) -> list[tuple[str, str, str]]:
    return [(str(r["rank"]), r["player"], fmt_points(r["points"])) for r in export["standings"]]


@pytest.mark.browser
@pytest.mark.timeout(FINISH_SECONDS + 180)
def test_a_swiss_of_bots_is_played_to_the_end_and_the_page_shows_the_stored_result(site, tmp_path):
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watched(page, console=True)
        log_in(page, site.url, "alice")

        page.goto(site.url + "/tournaments/new/")
        page.fill("input[name=name]", "Bot Swiss")
        page.select_option("select[name=format]", "swiss")
        page.select_option("select[name=table_size]", "3")
        page.fill("input[name=round_count]", "2")
        page.fill("input[name=round_break_seconds]", "0")
        page.get_by_role("button", name="Announce the tournament").click()
        expect(page).to_have_url(re.compile(r"/tournaments/bot-swiss/$"))

        page.get_by_role("link", name="Players", exact=True).click()
        for level in BOTS:
            page.select_option("select[name=level]", level)
            page.locator("#add-bot").click()
            expect(page.locator(".message.success")).to_contain_text("A bot is entered")

        page.goto(site.url + "/tournaments/bot-swiss/")
        page.locator("#start-now").click()
        status = page.locator("#tournament-status")
        expect(status).to_have_text("Round 1 of 2")

        # The page stays open, unreloaded, while the bots play both rounds.
        site.wait_for(lambda: stored_status(site) == "finished", timeout=FINISH_SECONDS,
                      what="the bots finishing both rounds")  # fmt: skip
        expect(status).to_have_text("Finished", timeout=20_000)
        export = get_json(site, "/api/v1/tournaments/bot-swiss/results/")
        expected = stored_standings(export)
        expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
        expect(page.locator("table.standings-table tbody tr")).to_have_count(len(BOTS))
        live = page_standings(page)
        page.screenshot(path=str(tmp_path / "swiss-finished.png"), full_page=True)
        page.reload()
        expect(status).to_have_text("Finished")
        assert page_standings(page) == expected
        assert live == expected
    assert errors == []
    assert "Traceback" not in site.output(), site.output()[-3000:]

    assert export["tournament"]["format"] == "swiss" and export["tournament"]["rounds"] == 2
    assert [r["rank"] for r in export["standings"]] == [1, 2, 3, 4, 5]
    assert [r["games"] for r in export["standings"]] == [2] * len(BOTS)
    rounds = export["rounds"]
    assert [(r["number"], r["status"]) for r in rounds] == [(1, "finished"), (2, "finished")]
    totals: dict[int, float] = {}
    for r in rounds:  # five entrants at tables of 3: one of 3 and one of 2, no byes
        assert sorted(len(t["seats"]) for t in r["tables"]) == [2, 3]
        for table in r["tables"]:
            assert table["status"] == "finished" and not table["bye"]
            game = get_json(site, f"/api/v1/tables/{table['table_id']}/game/")
            final = game["view"]["final"]  # the engine's final result of the game
            assert [s["place"] for s in table["seats"]] == [p["rank"] for p in final["players"]]
            assert [s["score"] for s in table["seats"]] == [p["score"] for p in final["players"]]
            for seat in table["seats"]:
                totals[seat["entry"]] = totals.get(seat["entry"], 0) + seat["points"]
    assert {r["entry"]: r["points"] for r in export["standings"]} == pytest.approx(totals)
