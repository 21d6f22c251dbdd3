"""Whole games played by clicking, in a real browser against a bot, on a live site: the final
table must show exactly the score parts of the table's rule set, and they must be the
engine's ``final_result`` (every column and the total of every player), adding up.

New York has no stations and no longest path but tourist-attraction points; its page shows
no station button, no station legend and only its own card colours."""

import re
import time

import pytest
from playwright.sync_api import expect

from games import engine
from tests.browser import chromium, watched
from tests.games.test_table_page_browser import DESKTOP, log_in, version, wait_past
from tests.live import LiveSite

FAST = {"BOT_MOVE_DELAY": "0.02"}
PARTS = {
    "new_york": ["route_points", "ticket_points", "attraction_points"],
    "europe": ["route_points", "ticket_points", "station_bonus", "longest_path_bonus"],
}


@pytest.fixture
def site(tmp_path):
    live = LiveSite("embedded", tmp_path, extra_env=FAST).start()
    live.manage("seed_demo")
    yield live
    live.stop()


def create_table_against_a_bot(page, url, ruleset, variant):
    page.goto(url + "/play/new/")
    page.select_option("select[name=ruleset]", ruleset)
    page.select_option("select[name=variant]", variant)
    page.select_option("select[name=seat_count]", "2")
    page.select_option("select[name=bots]", "easy")
    page.locator("#table-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/table/\d+/$"))
    if page.locator("#start-game").count():  # the bots fill the seats: it starts by itself
        page.locator("#start-game").click()
    expect(page.locator("#players li.player")).to_have_count(2, timeout=20_000)
    return int(re.search(r"/table/(\d+)/", page.url).group(1))


def _enabled(locator):
    return locator.count() and locator.first.is_enabled()


def _click_and_wait(page, locator):
    before = version(page)
    locator.click()
    for dialog in ("#payment-dialog", "#tunnel-dialog"):
        if page.locator(dialog).is_visible():
            _settle_dialog(page, dialog)
    wait_past(page, before)


def _settle_dialog(page, dialog):
    if dialog == "#payment-dialog":
        page.locator("#payment-dialog [data-payment-index]").first.click()
        return
    options = page.locator("#tunnel-options [data-payment-index]")
    if options.count():
        options.first.check()
    if page.locator("#tunnel-pay").is_enabled():
        page.locator("#tunnel-pay").click()
    else:
        page.locator("#tunnel-decline").click()


def play_until_over(page, ruleset, max_seconds=240):
    """Choose a legal action by clicking whenever the player has a decision: keep every
    offered ticket, claim the longest affordable route, else draw from the deck (a face-up
    card when the deck is empty), else draw tickets, else pass. Returns the clicks made."""
    lengths = {str(r["id"]): r["length"] for r in engine.board(ruleset)["routes"]}
    body = page.locator("body")
    mine = page.locator("#players li.player.is-current.is-you")
    deadline = time.monotonic() + max_seconds
    clicks = 0
    while body.get_attribute("data-phase") != "over":
        assert time.monotonic() < deadline, f"the game did not end in {max_seconds}s"
        if page.locator("#ticket-dialog").is_visible():
            boxes = page.locator("#ticket-dialog [data-ticket-id]")
            for i in range(boxes.count()):
                boxes.nth(i).check()
            _click_and_wait(page, page.locator("#ticket-confirm"))
            clicks += 1
            continue
        if page.locator("#tunnel-dialog").is_visible():
            before = version(page)
            _settle_dialog(page, "#tunnel-dialog")
            wait_past(page, before)
            clicks += 1
            continue
        phase = body.get_attribute("data-phase")
        if not mine.count() or phase not in ("turn", "draw2"):
            page.wait_for_timeout(30)
            continue
        enabled_faceup = page.locator("#faceup [data-slot]:not([disabled])")
        selectable = page.locator(".route.route--selectable")
        ids = [selectable.nth(i).get_attribute("data-route-id") for i in range(selectable.count())]
        if phase == "turn" and ids:
            best = max(ids, key=lambda i: lengths[i])
            target = page.locator(f'.route[data-route-id="{best}"]')
        elif _enabled(page.locator("#deck")):
            target = page.locator("#deck")
        elif enabled_faceup.count():
            target = enabled_faceup.first
        elif phase == "turn" and _enabled(page.locator("#ticket-deck")):
            target = page.locator("#ticket-deck")
        elif page.locator("#pass-turn").count():
            target = page.locator("#pass-turn")
        else:  # a frame is still on its way
            page.wait_for_timeout(30)
            continue
        _click_and_wait(page, target)
        clicks += 1
    return clicks


def read_final_table(page):
    """{seat: {"parts": {key: points}, "total": n}} and the column keys, from the page."""
    table = page.locator("#final-scores")
    expect(table.locator("tbody tr")).not_to_have_count(0)
    keys = [
        table.locator("thead th[data-part]").nth(i).get_attribute("data-part")
        for i in range(table.locator("thead th[data-part]").count())
    ]
    rows = {}
    for i in range(table.locator("tbody tr").count()):
        row = table.locator("tbody tr").nth(i)
        parts = {}
        for key in keys:
            text = row.locator(f'td[data-part="{key}"] .part-points').inner_text()
            parts[key] = int(text.replace("−", "-").replace("+", ""))
        total = int(row.locator("td.total").inner_text())
        rows[int(row.get_attribute("data-seat"))] = {"parts": parts, "total": total}
    return keys, rows


def final_from_server(page, url, table_id):
    response = page.request.get(f"{url}/api/v1/tables/{table_id}/game/")
    assert response.ok, response.text()
    final = response.json()["view"]["final"]
    assert final, "the server's view has no final result"
    return final


def assert_final_table_matches(page, url, table_id, ruleset):
    final = final_from_server(page, url, table_id)
    keys, rows = read_final_table(page)
    assert keys == PARTS[ruleset]
    assert set(rows) == {p["seat"] for p in final["players"]}
    for p in final["players"]:
        shown = rows[p["seat"]]
        assert shown["parts"] == {k: p[k] for k in keys}, (p["seat"], shown, p)
        assert shown["total"] == p["score"]
        assert sum(shown["parts"].values()) == shown["total"], shown
    return final


@pytest.mark.browser
def test_a_whole_new_york_game_played_by_clicking_shows_the_engines_final_table(site, tmp_path):
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watched(page)
        log_in(page, site.url, "alice")
        table_id = create_table_against_a_bot(page, site.url, "new_york", "standard")

        # New York has no stations and only its own card colours.
        expect(page.locator("#build-station")).to_have_count(0)
        expect(page.locator(".ttr-board__legend")).to_be_visible()
        expect(page.locator(".ttr-board__legend")).not_to_contain_text("station")
        expect(page.locator(".ttr-board__legend")).to_contain_text("tourist attraction")
        colors = set(engine.board("new_york")["cards"]["colors"]) | {"locomotive"}
        expect(page.locator("#hand .hand-card")).to_have_count(len(colors))
        shown = page.locator("#hand .hand-card")
        assert {shown.nth(i).get_attribute("data-color") for i in range(shown.count())} == colors
        for color in ("white", "yellow"):
            expect(page.locator(f'#hand [data-color="{color}"]')).to_have_count(0)
        # Every location label lies inside the map.
        svg_box = page.locator(".ttr-board__svg").bounding_box()
        labels = page.locator(".city-label")
        for i in range(labels.count()):
            box = labels.nth(i).bounding_box()
            assert box["x"] >= svg_box["x"] - 0.5, labels.nth(i).text_content()
            assert box["x"] + box["width"] <= svg_box["x"] + svg_box["width"] + 0.5, labels.nth(
                i
            ).text_content()

        started = time.monotonic()
        clicks = play_until_over(page, "new_york")
        print(f"New York: {clicks} clicks in {time.monotonic() - started:.1f}s")
        final = assert_final_table_matches(page, site.url, table_id, "new_york")
        assert any(p["attraction_points"] for p in final["players"])
        expect(page.locator("#build-station")).to_have_count(0)
        page.locator("#final-section").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "new-york-final.png"))
        assert not errors, errors
    assert "Traceback" not in site.output(), site.output()[-3000:]


@pytest.mark.browser
def test_a_whole_europe_game_played_by_clicking_shows_the_engines_final_table(site, tmp_path):
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watched(page)
        log_in(page, site.url, "alice")
        table_id = create_table_against_a_bot(page, site.url, "europe", "classic")
        expect(page.locator("#build-station")).to_be_visible()
        expect(page.locator('#hand [data-color="white"]')).to_have_count(1)

        started = time.monotonic()
        clicks = play_until_over(page, "europe", max_seconds=420)
        print(f"Europe: {clicks} clicks in {time.monotonic() - started:.1f}s")
        assert_final_table_matches(page, site.url, table_id, "europe")
        page.screenshot(path=str(tmp_path / "europe-final.png"))
        assert not errors, errors
    assert "Traceback" not in site.output(), site.output()[-3000:]
