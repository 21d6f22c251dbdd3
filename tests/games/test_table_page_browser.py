"""The table page in a real browser on a live site: a player creates a table with a bot,
starts it and plays through the UI while a spectator watches without reloading."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import chromium, log_in
from tests.live import LiveSite

FAST = {"BOT_MOVE_DELAY": "0.05"}
# Reduced motion also turns off the pulsing of clickable routes, which Playwright would
# otherwise wait on as "not stable".
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}
MODES = [
    pytest.param("embedded", marks=[pytest.mark.browser]),
    pytest.param(
        "production", marks=[pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]
    ),  # fmt: skip
]


@pytest.fixture(params=MODES)
def site(request, tmp_path):
    live = LiveSite(request.param, tmp_path, extra_env=FAST).start()
    live.manage("seed_demo")
    yield live
    live.stop()


def wait_for_my_turn(page):
    expect(page.locator("#players li.player.is-current.is-you")).to_be_visible(timeout=20_000)
    expect(page.locator("body")).to_have_attribute("data-phase", "turn", timeout=20_000)


def version(page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


def wait_past(page, before: int):
    # The version only grows. (Not wait_for_function: it evaluates a string in the page,
    # which the site's Content-Security-Policy refuses, as it should.)
    expect(page.locator("body")).not_to_have_attribute("data-version", str(before), timeout=20_000)


def keep_tickets(page, how_many=None):
    dialog = page.locator("#ticket-dialog")
    expect(dialog).to_be_visible(timeout=20_000)
    boxes = dialog.locator("[data-ticket-id]")
    count = boxes.count() if how_many is None else how_many
    for i in range(count):
        boxes.nth(i).check()
    before = version(page)
    page.locator("#ticket-confirm").click()
    wait_past(page, before)


def test_a_player_plays_through_the_ui_and_a_spectator_sees_it_live(site, tmp_path):
    with chromium() as browser:
        player = browser.new_context(**DESKTOP).new_page()
        errors = []
        player.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(player, site.url, "alice")

        # Create a three-seat table, add one bot, start with two seats.
        player.goto(site.url + "/play/new/")
        player.select_option("select[name=seat_count]", "3")
        player.get_by_role("button", name="Create table").click()
        expect(player).to_have_url(re.compile(r"/table/\d+/$"))
        table_url = player.url
        player.locator("#add-bot").click()
        player.locator("#start-game").click()

        spectator = browser.new_context(**DESKTOP).new_page()
        spectator.goto(table_url)
        expect(spectator.locator("#players li.player")).to_have_count(2, timeout=20_000)

        # Set-up: keep every starting ticket.
        keep_tickets(player)

        # Draw two cards blind.
        wait_for_my_turn(player)
        before = version(player)
        player.locator("#deck").click()
        wait_past(player, before)
        player.locator("#deck").click()
        wait_past(player, before + 1)

        # Draw tickets and keep one.
        wait_for_my_turn(player)
        player.locator("#ticket-deck").click()
        keep_tickets(player, how_many=1)

        # Claim a route: draw until one is affordable, then click it on the map.
        claimed = None
        for _ in range(12):
            wait_for_my_turn(player)
            selectable = player.locator(".route.route--selectable:not(.route--tunnel)")
            if selectable.count():
                claimed = selectable.first.get_attribute("data-route-id")
                before = version(player)
                selectable.first.click()
                # Cards are spent only once a way to pay is picked, even if there is one.
                expect(player.locator("#payment-dialog")).to_be_visible()
                assert version(player) == before
                player.locator("#payment-dialog [data-payment-index]").first.click()
                wait_past(player, before)
                break
            before = version(player)
            player.locator("#deck").click()
            wait_past(player, before)
            player.locator("#deck").click()
            wait_past(player, before + 1)
        assert claimed is not None, "never able to claim a route"
        route = f'.route[data-route-id="{claimed}"]'
        expect(player.locator(route)).to_have_class(re.compile("route--claimed"))
        # The spectator's page shows it too, without a reload.
        expect(spectator.locator(route)).to_have_class(re.compile("route--claimed"),
                                                       timeout=10_000)  # fmt: skip

        # Build a station.
        wait_for_my_turn(player)
        player.locator("#build-station").click()
        city = player.locator(".city.city--selectable").first
        expect(city).to_be_visible()
        name = city.get_attribute("data-city")
        before = version(player)
        city.click()
        expect(player.locator("#payment-dialog")).to_be_visible()
        player.locator("#payment-dialog [data-payment-index]").first.click()
        wait_past(player, before)
        expect(player.locator(f'g.station[data-station-city="{name}"]')).to_have_count(1)
        expect(spectator.locator(f'g.station[data-station-city="{name}"]')).to_have_count(
            1, timeout=10_000
        )
        expect(player.locator("#log")).to_contain_text(name)
        player.screenshot(path=str(tmp_path / "table-midgame.png"))
        assert not errors, errors
    assert "Traceback" not in site.output(), site.output()[-3000:]


def test_the_waiting_room_keeps_the_bot_level_of_the_last_bot_added(site):
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        log_in(page, site.url, "alice")
        page.goto(site.url + "/play/new/")
        page.select_option("select[name=seat_count]", "4")
        page.get_by_role("button", name="Create table").click()
        expect(page).to_have_url(re.compile(r"/table/\d+/$"))
        expect(page.locator("#bot-level")).to_have_value("easy")  # nothing added yet
        page.select_option("#bot-level", "hard")
        page.locator("#add-bot").click()
        expect(page.locator("#seat-list")).to_contain_text("(hard bot)")
        expect(page.locator("#bot-level")).to_have_value("hard")
        # The fresh page's socket open first, as the other tests here wait for it: a click
        # while the page was still starting was lost once in a clean-clone CI run (one bot
        # after 15 s, 2026-11-26; not reproduced, the cause not found: a self-reload of the
        # page over the form post would do it).
        expect(page.locator("body")).to_have_attribute("data-ws", "open")
        page.locator("#add-bot").click()  # a second one without choosing again
        # a form post, its redirect and a fresh page: more than expect's 5 s default on a
        # loaded CI machine once (2026-11-25), with one navigation and no reload seen here
        expect(page.locator("#seat-list li", has_text="(hard bot)")).to_have_count(
            2, timeout=15_000
        )
        expect(page.locator("#bot-level")).to_have_value("hard")


def test_the_lobby_shows_a_new_table_without_a_reload(site):
    with chromium() as browser:
        watcher = browser.new_context(**DESKTOP).new_page()
        watcher.goto(site.url + "/play/")
        watcher.wait_for_timeout(500)  # the lobby socket connects
        creator = browser.new_context(**DESKTOP).new_page()
        log_in(creator, site.url, "bob")
        creator.goto(site.url + "/play/new/")
        creator.get_by_role("button", name="Create table").click()
        table_id = re.search(r"/table/(\d+)/", creator.url).group(1)
        expect(watcher.locator(f'#open-tables [data-table-id="{table_id}"]')).to_be_visible(
            timeout=10_000
        )


@pytest.mark.browser
def test_a_player_removed_from_a_private_table_sees_it_taken_down(tmp_path):
    """The page of a player the owner removes stops showing the table at once (its socket is
    closed with 4403), instead of a seat they no longer hold."""
    site = LiveSite("embedded", tmp_path, extra_env=FAST).start()
    try:
        site.manage("seed_demo")
        with chromium() as browser:
            alice = browser.new_context(**DESKTOP).new_page()
            log_in(alice, site.url, "alice")
            alice.goto(site.url + "/play/new/")
            alice.select_option("select[name=seat_count]", "3")
            alice.check("input[name=is_private]")
            alice.locator("#table-form button[type=submit]").click()
            link = alice.locator("#invite-link").input_value()
            bob = browser.new_context(**DESKTOP).new_page()
            log_in(bob, site.url, "bob")
            bob.goto(link)
            bob.get_by_role("button", name="Take a seat").click()
            expect(bob.locator("body")).to_have_attribute("data-ws", "open")
            alice.reload()
            alice.locator("[data-remove-seat='1']").click()
            expect(bob.locator("#table-gone")).to_contain_text("You can no longer see this table")
            expect(bob.locator("#invite-link")).to_have_count(0)
            assert bob.goto(re.sub(r"invite/.*", "", link)).status == 404  # the table page
    finally:
        site.stop()
