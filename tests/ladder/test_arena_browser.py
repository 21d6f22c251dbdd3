"""An arena played with bots in a real browser (issue 25): the organizer announces it on the
page (format "Arena", tables of 2), enters four bots and starts it; the bots play and are
seated again as their games end. A player joins late, pauses and plays on by clicking. The
organizer ends the arena now: no new table opens, the games in progress still count, and the
open page turns to "Finished" by itself with a final leaderboard (order, names, points) that
is what the site stored (``Tournament.standings`` and the JSON export)."""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from ladder.tournament_presenters import fmt_points
from tests.browser import chromium, log_in, watched
from tests.live import LiveSite

DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}
BOTS = ("easy", "easy", "medium", "easy")
PLAY_SECONDS = 300  # bot games on a shared two-core machine

STANDINGS = """
import json
from ladder.models import Tournament
t = Tournament.objects.get(slug="bot-arena")
print("ROWS", json.dumps([[r.player, r.rank, r.points] for r in t.standings()]))
"""


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
    return get_json(site, "/api/v1/tournaments/bot-arena/")["status"]


def tables(site) -> list[str]:
    """The status of every arena table so far, in opening order."""
    rows = site.sql(
        "SELECT p.status FROM ladder_pairing p JOIN ladder_round r ON p.round_id = r.id "
        "JOIN ladder_tournament t ON r.tournament_id = t.id WHERE t.slug = 'bot-arena' "
        "ORDER BY p.number"
    )
    return [status for (status,) in rows]


def page_standings(page) -> list[tuple[str, str, str, str]]:
    """(entry id, rank, name, points) of each row of the standings table, top first."""
    rows = page.locator("table.standings-table tbody:not(.pinned) tr")
    return [
        (
            row.get_attribute("data-player"),
            row.locator("td.rank").inner_text().strip(),
            row.locator("td").nth(1).inner_text().strip(),
            row.locator("td[data-f=points]").inner_text().strip(),
        )
        for row in rows.all()
    ]


@pytest.mark.browser
@pytest.mark.timeout(2 * PLAY_SECONDS + 180)
def test_an_arena_of_bots_is_played_ended_now_and_shows_the_stored_result(site, tmp_path):
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        player = browser.new_context(**DESKTOP).new_page()
        errors, player_errors = watched(page, console=True), watched(player, console=True)
        page.on("dialog", lambda dialog: dialog.accept())  # the "End the arena now?" check
        log_in(page, site.url, "alice")
        log_in(player, site.url, "bob")

        page.goto(site.url + "/tournaments/new/")
        page.fill("input[name=name]", "Bot Arena")
        page.select_option("select[name=format]", "arena")
        expect(page.locator("input[name=duration_minutes]")).to_be_visible()
        expect(page.locator("input[name=round_count]")).to_be_hidden()
        page.fill("input[name=duration_minutes]", "30")
        page.select_option("select[name=table_size]", "2")
        page.get_by_role("button", name="Announce the tournament").click()
        expect(page).to_have_url(re.compile(r"/tournaments/bot-arena/$"))
        expect(page.locator(".league-meta")).to_contain_text("Arena")
        expect(page.locator(".league-meta")).to_contain_text("30 minutes")

        page.get_by_role("link", name="Players", exact=True).click()
        for level in BOTS:
            page.select_option("select[name=level]", level)
            page.locator("#add-bot").click()
            expect(page.locator(".message.success")).to_contain_text("A bot is entered")

        page.goto(site.url + "/tournaments/bot-arena/")
        page.locator("#start-now").click()
        status = page.locator("#tournament-status")
        expect(status).to_have_text("Arena running")
        expect(page.locator("#arena-ends")).to_be_visible()
        expect(page.locator(".arena-rules")).to_contain_text("scores double")

        # The bots play; each finished game seats its players again at once.
        site.wait_for(lambda: "finished" in tables(site) and len(tables(site)) >= 3,
                      timeout=PLAY_SECONDS, what="a game finishing and a new table")  # fmt: skip
        page.locator("#pause").click()  # the organizer holds new tables for now
        expect(page.locator(".status-paused")).to_be_visible()

        # A player joins late, pauses and plays on (no table opens: the arena is paused).
        player.goto(site.url + "/tournaments/bot-arena/")
        player.locator("#register").click()
        expect(player.locator(".message.success")).to_contain_text("You are registered")
        player.locator("#arena-pause").click()
        expect(player.locator(".message.success")).to_contain_text("You are paused")
        expect(player.locator("#arena-paused")).to_be_visible()
        expect(player.locator("tr.me td[data-f=state]")).to_have_text("\u2016")
        player.locator("#arena-resume").click()
        expect(player.locator(".message.success")).to_contain_text("You are back")
        expect(player.locator("#arena-pause")).to_be_visible()
        expect(player.locator("tr.me td[data-f=state]")).to_have_text("")
        player.screenshot(path=str(tmp_path / "arena-player.png"), full_page=True)

        in_progress = tables(site).count("playing")
        page.locator("#end-now").click()
        expect(page.locator("#end-now")).to_have_count(0)
        opened = len(tables(site))
        site.wait_for(lambda: stored_status(site) == "finished", timeout=PLAY_SECONDS,
                      what="the games in progress finishing")  # fmt: skip
        expect(status).to_have_text("Finished", timeout=20_000)
        expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
        expect(page.locator("table.standings-table tbody tr")).to_have_count(len(BOTS) + 1)
        live = page_standings(page)
        page.screenshot(path=str(tmp_path / "arena-finished.png"), full_page=True)
        page.reload()
        assert page_standings(page) == live
    assert errors == [] and player_errors == []
    assert "Traceback" not in site.output(), site.output()[-3000:]

    # The page's final leaderboard is the stored one.
    out = site.manage("shell", "--no-imports", "-c", STANDINGS)
    stored = json.loads(out.split("ROWS", 1)[1])
    assert [(row[0], row[1], row[3]) for row in live] == [
        (str(player_id), str(rank), fmt_points(points)) for player_id, rank, points in stored
    ]
    export = get_json(site, "/api/v1/tournaments/bot-arena/results/")
    assert [row[2] for row in live] == [r["player"] for r in export["standings"]]
    # No table opened after the end, and the games in progress then were played out.
    statuses = tables(site)
    assert len(statuses) == opened and set(statuses) == {"finished"}
    (round_,) = export["rounds"]
    played = {s["player"]: 0 for t in round_["tables"] for s in t["seats"]}
    for table in round_["tables"]:
        for seat in table["seats"]:
            played[seat["player"]] += 1
    assert in_progress >= 1
    assert {r["player"]: r["games"] for r in export["standings"] if r["games"]} == played
    assert next(r for r in export["standings"] if r["username"] == "bob")["games"] == 0
