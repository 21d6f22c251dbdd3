"""The board on the table page, in a real browser against three bots: the whole map fits a
laptop screen beside the cards; claimed routes are train cars with their owner's symbol, not
slots; every seat's last move stays marked (map and panel) until it moves again; the claim
and draw animations run, and none does under reduced motion; on a phone a whole turn is
played without scrolling the page."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import chromium, log_in, watched
from tests.games.test_table_client import played_logs
from tests.games.test_table_page_browser import version, wait_for_my_turn, wait_past
from tests.live import LiveSite

pytestmark = pytest.mark.browser

FAST = {"BOT_MOVE_DELAY": "0.02"}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# Each element's box in the window, [left, top, right, bottom].
BOXES = """els => els.map(e => { const r = e.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; })"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    live = LiveSite("embedded", tmp_path_factory.mktemp("board"), extra_env=FAST).start()
    live.manage("seed_demo")
    yield live
    live.stop()


def sign_in(page, url):
    """Log in as alice (on a phone the menu holding her name is folded away)."""
    page.goto(url + "/accounts/login/")
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", "ticket-to-ride")
    page.get_by_role("button", name="Sign In").click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))


def start_against_bots(page, url, ruleset="europe", seats="4"):
    """A table of ``seats`` (alice and medium bots) that starts at once; keep every ticket."""
    page.goto(url + "/play/new/")
    page.select_option("select[name=ruleset]", ruleset)
    page.select_option("select[name=seat_count]", seats)
    page.select_option("select[name=bots]", "medium")
    page.locator("#table-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/table/\d+/$"))
    dialog = page.locator("#ticket-dialog")
    expect(dialog).to_be_visible(timeout=20_000)
    assert_in_window(page, dialog)
    boxes = dialog.locator("[data-ticket-id]")
    for i in range(boxes.count()):
        boxes.nth(i).check()
    before = version(page)
    page.locator("#ticket-confirm").click()
    wait_past(page, before)
    wait_for_my_turn(page)


def draw_two(page):
    before = version(page)
    page.locator("#deck").click()
    wait_past(page, before)
    page.locator("#deck").click()
    wait_past(page, before + 1)
    wait_for_my_turn(page)


def window_size(page):
    size = page.viewport_size
    return size["width"], size["height"]


def assert_in_window(page, locator, what=""):
    width, height = window_size(page)
    for left, top, right, bottom in locator.evaluate_all(BOXES):
        assert left >= -0.5 and top >= -0.5, (what, left, top)
        assert right <= width + 0.5 and bottom <= height + 0.5, (what, right, bottom)


def assert_no_page_scroll(page):
    scroll = page.evaluate("() => [document.documentElement.scrollHeight, innerHeight, scrollY]")
    assert scroll[0] <= scroll[1] and scroll[2] == 0, scroll


@pytest.mark.parametrize("ruleset", ["europe", "new_york"])
def test_the_whole_map_fits_a_laptop_beside_the_hand_and_the_cards(site, ruleset):
    with chromium() as browser:
        page = browser.new_context(**LAPTOP, reduced_motion="reduce").new_page()
        errors = watched(page)
        log_in(page, site.url, "alice")
        start_against_bots(page, site.url, ruleset)
        cities = page.locator("#board .city")
        assert cities.count() >= 15  # New York has 15 locations
        assert page.evaluate("() => scrollY") == 0
        assert_in_window(page, cities, "cities")
        assert_in_window(page, page.locator("#board [data-city-label]"), "city names")
        assert_in_window(page, page.locator("#faceup"), "face-up cards")
        assert_in_window(page, page.locator("#hand"), "hand")
        expect(page.locator("#hand [data-color]").first).to_be_visible()
        assert not errors, errors


def test_claims_are_train_cars_and_every_seats_last_move_stays_marked(site):
    with chromium() as browser:
        page = browser.new_context(**LAPTOP, reduced_motion="reduce").new_page()
        errors = watched(page, console=True)  # console: the CSP refuses inline styles
        log_in(page, site.url, "alice")
        start_against_bots(page, site.url)
        me = int(page.locator("#players li.player.is-you").get_attribute("data-seat"))
        marked = page.locator(f'.route.route--last:not([data-last-seat="{me}"])')
        for _ in range(20):  # draw until a bot's last move is a claim
            if marked.count():
                break
            draw_two(page)
        assert marked.count(), "no bot claimed a route"

        # Every other seat's last move is on its panel, in place since my last turn;
        # one of them made the latest move.
        panels = page.locator(f'#players li.player:not([data-seat="{me}"])')
        expect(panels.locator(".player-last")).to_have_count(3)
        expect(page.locator("#players li.player.is-last-mover")).to_have_count(1)

        route = marked.first
        owner = route.get_attribute("data-last-seat")
        assert route.get_attribute("data-seat") == owner  # claimed by the seat it is marked for
        expect(
            page.locator(f'#players li.player[data-seat="{owner}"] .player-last')
        ).to_contain_text("claimed")
        # A claimed route is drawn as cars, one per space, each with the owner's symbol ...
        symbol = page.locator(f'#players li.player[data-seat="{owner}"] .seat-token').first
        cars = route.locator(".route__car")
        expect(cars).to_have_count(route.locator(".route__space").count())
        expect(cars.first.locator(".route__owner")).to_have_text(symbol.inner_text())
        expect(route.locator(".route__space").first).to_be_hidden()
        # each car knows its place in the roll-in (set without a style attribute)
        places = route.evaluate(
            "r => [...r.querySelectorAll('.route__car')]"
            ".map((c) => c.style.getPropertyValue('--i'))"
        )
        assert places == [str(i) for i in range(len(places))] and places  # a route may be 1 long
        # ... an unclaimed one of the same colour as slots with no car and no owner.
        color = route.get_attribute("data-color")
        free = page.locator(f'.route:not(.route--claimed)[data-color="{color}"]').first
        expect(free.locator(".route__car")).to_have_count(0)
        expect(free.locator(".route__space").first).to_be_visible()
        assert not errors, errors


def test_draws_and_claims_animate_unless_motion_is_reduced(site):
    with chromium() as browser:
        for motion in ["no-preference", "reduce"]:
            page = browser.new_context(**LAPTOP, reduced_motion=motion).new_page()
            log_in(page, site.url, "alice")
            start_against_bots(page, site.url, seats="2")
            before = version(page)
            page.locator("#deck").click()
            wait_past(page, before)
            drawn = page.locator("#hand .hand-card.is-new")
            expect(drawn).to_have_count(1)
            name = drawn.evaluate("e => getComputedStyle(e).animationName")
            if motion == "reduce":
                assert name == "none"
                assert page.evaluate("() => document.getAnimations().length") == 0
            else:
                assert name == "ttr-card-pop"
            page.locator("#deck").click()
            wait_for_my_turn(page)
            claim = page.locator(".route--latest .route__car-body")
            for _ in range(20):  # until the latest move is a claim
                if claim.count():
                    break
                draw_two(page)
            assert claim.count(), "the bot never claimed a route"
            name = claim.first.evaluate("e => getComputedStyle(e).animationName")
            assert name == ("none" if motion == "reduce" else "ttr-car-in"), name
            if motion == "reduce":
                assert page.evaluate("() => document.getAnimations().length") == 0
            page.context.close()


def test_a_phone_plays_a_turn_without_scrolling_the_page(site):
    with chromium() as browser:
        page = browser.new_context(**PHONE, reduced_motion="reduce").new_page()
        errors = watched(page)
        sign_in(page, site.url)
        start_against_bots(page, site.url)
        assert_no_page_scroll(page)
        for what in ["#faceup", "#deck", "#hand", "#phone-tabs", "#players", "#turn-banner"]:
            expect(page.locator(what)).to_be_visible()
            assert_in_window(page, page.locator(what), what)
        assert_in_window(page, page.locator("#board .ttr-board"), "the map's box")

        # Draw a face-up card and one from the deck: taps, no scrolling.
        slot = page.locator("#faceup [data-slot]:not([disabled]):not(.card--loco)").first
        before = version(page)
        slot.tap()
        wait_past(page, before)
        page.locator("#deck").tap()
        wait_for_my_turn(page)
        assert_no_page_scroll(page)

        # Claim a route: it is in the map's box (which pans), the payment dialog fits.
        claimed = None
        for _ in range(15):
            selectable = page.locator(".route.route--selectable:not(.route--tunnel)")
            if selectable.count():
                claimed = selectable.first.get_attribute("data-route-id")
                before = version(page)
                selectable.first.click()
                dialog = page.locator("#payment-dialog")
                expect(dialog).to_be_visible()
                assert_in_window(page, dialog, "payment dialog")
                dialog.locator("[data-payment-index]").first.tap()
                wait_past(page, before)
                break
            draw_two(page)
        assert claimed is not None, "never able to claim a route"
        expect(page.locator(f'.route[data-route-id="{claimed}"]')).to_have_class(
            re.compile("route--claimed")
        )
        assert_no_page_scroll(page)

        # The log, the tickets and the chat take the map's place, still without scrolling.
        for sheet, panel in [("log", "#log"), ("tickets", "#my-tickets"), ("chat", "#chat-input")]:
            page.locator(f'#phone-tabs [data-sheet="{sheet}"]').tap()
            expect(page.locator(panel)).to_be_visible()
            expect(page.locator("#board")).to_be_hidden()
            assert_no_page_scroll(page)
        page.locator('#phone-tabs [data-sheet="map"]').tap()
        expect(page.locator("#board")).to_be_visible()
        assert not errors, errors


ACTIONS = {"draw_card", "claim_route", "tunnel_attempt", "pay_tunnel", "decline_tunnel",
           "draw_tickets", "keep_tickets", "build_station", "place_depot", "warehouse_card",
           "take_warehouse", "pass"}  # fmt: skip
LAST_MOVES = """async (log) => {
  const m = await import("/static/games/lastmove.js");
  return [...m.lastMoves(log).values()]
    .map((x) => [x.seat, x.latest, x.routes.map(String), x.stations]);
}"""


def test_each_seats_last_turn_is_the_last_run_of_its_actions_in_the_log(site):
    """Whole random games: a seat's last turn holds the claims and stations of its last run
    of actions in the log, and the seat that acted last made the latest move."""
    with chromium() as browser:
        page = browser.new_page()
        page.goto(site.url + "/rules/")  # a page of the site, for its static files
        for _ruleset, log in played_logs(5):
            runs, last_seat = {}, None
            for e in log:
                if e["type"] not in ACTIONS or e.get("seat") is None:
                    continue
                if e["seat"] != last_seat:
                    runs[e["seat"]] = {"routes": [], "stations": []}
                last_seat = e["seat"]
                if e["type"] in ("claim_route", "pay_tunnel"):
                    runs[e["seat"]]["routes"].append(str(e["route"]))
                if e["type"] == "build_station":
                    runs[e["seat"]]["stations"].append(e["city"])
            turns = page.evaluate(LAST_MOVES, log)
            assert sorted(seat for seat, *_ in turns) == sorted(runs)
            assert [seat for seat, latest, *_ in turns if latest] == [last_seat]
            for seat, _latest, routes, stations in turns:
                assert routes == runs[seat]["routes"] and stations == runs[seat]["stations"]


def test_chat_times_are_written_as_the_site_writes_times_whatever_the_browsers_locale(site):
    """en-US would write "02:05 PM"; every page of the site writes 14:05 (ttr_site/formats)."""
    with chromium() as browser:
        page = browser.new_context(**LAPTOP, locale="en-US", reduced_motion="reduce").new_page()
        log_in(page, site.url, "alice")
        start_against_bots(page, site.url, seats="2")
        page.locator("#chat-input").fill("good luck")
        page.locator("#chat-send").click()
        line = page.locator("#chat .chat-line", has_text="good luck")
        expect(line.locator(".chat-time")).to_have_text(re.compile(r"^\d\d:\d\d$"))
