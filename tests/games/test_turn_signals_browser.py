"""Turn signals of the table page (issue 23), in a real browser on a live site: a signal when
each of the player's decisions starts (never for the opponent's, never twice in one turn),
a sound toggle that is remembered over a reload, notifications only when asked for and only
while the tab is hidden, and a flashing title while hidden during the player's decision."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import chromium, log_in, text_contrast, watched
from tests.live import LiveSite

FAST = {"BOT_MOVE_DELAY": "0.05"}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}
# The test decides whether the tab is hidden: headless pages are always visible otherwise.
HIDDEN_SWITCH = """
(() => {
  window.__ttrHidden = false;
  Object.defineProperty(Document.prototype, "hidden", {
    get: () => window.__ttrHidden, configurable: true });
  Object.defineProperty(Document.prototype, "visibilityState", {
    get: () => (window.__ttrHidden ? "hidden" : "visible"), configurable: true });
})();
"""
SET_HIDDEN = """(hidden) => {
  window.__ttrHidden = hidden;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


@pytest.fixture
def site(tmp_path):
    live = LiveSite("embedded", tmp_path, extra_env=FAST).start()
    live.manage("seed_demo")
    yield live
    live.stop()


def html_data(page, name: str):
    return page.locator("html").get_attribute(f"data-{name}")


def version(page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


def wait_for_my_turn(page):
    expect(page.locator("#players li.player.is-current.is-you")).to_be_visible(timeout=20_000)
    expect(page.locator("body")).to_have_attribute("data-phase", "turn", timeout=20_000)


def draw_two(page, signals=None):
    """A whole turn: two blind cards. The second continues the same decision: no signal
    (``signals``: the count expected meanwhile)."""
    before = version(page)
    page.locator("#deck").click()
    expect(page.locator("body")).not_to_have_attribute("data-version", str(before))
    expect(page.locator("body")).to_have_attribute("data-phase", "draw2")
    if signals is not None:
        assert html_data(page, "turn-signal") == str(signals)
    page.locator("#deck").click()
    expect(page.locator("body")).not_to_have_attribute("data-version", str(before + 1))


def keep_tickets(page):
    dialog = page.locator("#ticket-dialog")
    expect(dialog).to_be_visible(timeout=20_000)
    boxes = dialog.locator("[data-ticket-id]")
    for i in range(boxes.count()):
        boxes.nth(i).check()
    before = version(page)
    page.locator("#ticket-confirm").click()
    expect(page.locator("body")).not_to_have_attribute("data-version", str(before))


@pytest.mark.browser
def test_the_turn_signal_fires_once_per_own_decision(site, tmp_path):
    with chromium() as browser:
        context = browser.new_context(**DESKTOP)
        context.grant_permissions(["notifications"], origin=site.url)
        context.add_init_script(HIDDEN_SWITCH)
        page = context.new_page()
        errors = watched(page)
        log_in(page, site.url, "alice")
        page.goto(site.url + "/play/new/")
        page.select_option("select[name=seat_count]", "2")
        page.get_by_role("button", name="Create table").click()
        expect(page).to_have_url(re.compile(r"/table/\d+/$"))
        page.locator("#add-bot").click()

        # The set-up's ticket choice is the first decision: one signal.
        expect(page.locator("#ticket-dialog")).to_be_visible(timeout=20_000)
        expect(page.locator("html")).to_have_attribute("data-turn-signal", "1")
        controls = page.locator("#turn-signals")
        expect(controls).to_be_visible()
        sound = page.locator("#sound-toggle")
        expect(sound).to_have_attribute("aria-pressed", "true")
        expect(page.locator("html")).to_have_attribute("data-sound", "on")
        assert text_contrast(sound) >= 4.5
        keep_tickets(page)

        # Each turn of hers is one more signal: the opponent's turns and her second card
        # add none.
        signals = 1
        for _turn in range(3):
            wait_for_my_turn(page)
            signals += 1
            expect(page.locator("html")).to_have_attribute("data-turn-signal", str(signals))
            draw_two(page, signals)
        wait_for_my_turn(page)
        signals += 1
        expect(page.locator("html")).to_have_attribute("data-turn-signal", str(signals))
        # Clicks unlocked the audio: the signals since played their tone.
        assert int(html_data(page, "turn-tones")) >= 1
        page.screenshot(path=str(tmp_path / "turn-signals.png"))

        # Notifications: asked for by a click (permission granted above), none while visible.
        page.locator("#notify-toggle").click()
        expect(page.locator("html")).to_have_attribute("data-notify", "on")
        expect(page.locator("#notify-toggle")).to_have_attribute("aria-pressed", "true")
        assert html_data(page, "turn-notified") == "0"

        # Hidden during her decision: the title flashes; shown again: it stops.
        expect(page.locator("body")).to_have_attribute("data-title-flash", "off")
        page.evaluate(SET_HIDDEN, True)
        expect(page.locator("body")).to_have_attribute("data-title-flash", "on")
        expect(page).to_have_title(re.compile("Your turn"))
        page.evaluate(SET_HIDDEN, False)
        expect(page.locator("body")).to_have_attribute("data-title-flash", "off")
        expect(page).to_have_title(re.compile(r"^● Table \d+"))

        # Hidden while she ends her turn: no flash during the bot's turn; her next decision
        # flashes the title and notifies once.
        page.evaluate(SET_HIDDEN, True)
        draw_two(page)
        wait_for_my_turn(page)
        signals += 1
        expect(page.locator("html")).to_have_attribute("data-turn-signal", str(signals))
        expect(page.locator("html")).to_have_attribute("data-turn-notified", "1")
        expect(page.locator("body")).to_have_attribute("data-title-flash", "on")
        page.evaluate(SET_HIDDEN, False)
        expect(page.locator("body")).to_have_attribute("data-title-flash", "off")

        # The sound toggle turns the tone off, and the choice outlives a reload.
        sound.click()
        expect(page.locator("html")).to_have_attribute("data-sound", "off")
        expect(sound).to_have_attribute("aria-pressed", "false")
        expect(sound).to_have_text(re.compile("Sound: off"))
        tones = int(html_data(page, "turn-tones"))
        draw_two(page)
        wait_for_my_turn(page)
        signals += 1
        expect(page.locator("html")).to_have_attribute("data-turn-signal", str(signals))
        assert int(html_data(page, "turn-tones")) == tones
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-phase", "turn", timeout=20_000)
        expect(page.locator("html")).to_have_attribute("data-sound", "off")
        expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
        expect(page.locator("html")).to_have_attribute("data-notify", "on")
    assert errors == [], errors


@pytest.mark.browser
def test_a_spectator_gets_no_turn_signals(site, tmp_path):
    with chromium() as browser:
        player = browser.new_context(**DESKTOP).new_page()
        log_in(player, site.url, "bob")
        player.goto(site.url + "/play/new/")
        player.select_option("select[name=seat_count]", "2")
        player.get_by_role("button", name="Create table").click()
        expect(player).to_have_url(re.compile(r"/table/\d+/$"))
        player.locator("#add-bot").click()
        expect(player.locator("#ticket-dialog")).to_be_visible(timeout=20_000)

        spectator = browser.new_context(**DESKTOP).new_page()
        errors = watched(spectator)
        spectator.goto(player.url)
        expect(spectator.locator("body")).to_have_attribute("data-phase", "setup", timeout=20_000)
        keep_tickets(player)
        wait_for_my_turn(player)
        expect(spectator.locator("body")).to_have_attribute("data-version", str(version(player)))
        expect(spectator.locator("#turn-signals")).to_be_hidden()
        assert html_data(spectator, "turn-signal") == "0"
    assert errors == []


HELPERS = """async () => {
  const signals = await import("/static/games/signals.js");
  const call = await import("/static/js/tablecall.js");
  const queue = await import("/static/ladder/queue.js");
  const key = signals.decisionKey;
  return {
    keys: [key({phase: "setup", turn: 0}), key({phase: "turn", turn: 0}),
           key({phase: "draw2", turn: 0}), key({phase: "tunnel", turn: 3}), key(null)],
    local: ["/table/12/", "//evil.example/", "https://evil.example/", "javascript:x", 12, "/a b"]
      .map(call.isLocalPath),
    clocks: [0, 9.7, 61, 3599, 3600, 3725, -5].map(queue.clockText),
  };
}"""


@pytest.mark.browser
def test_the_signal_helpers_do_their_sums(site):
    with chromium() as browser:
        page = browser.new_page()
        errors = watched(page, console=True)
        page.goto(site.url + "/rules/")
        out = page.evaluate(HELPERS)
    # A turn's steps are one decision; the set-up's choice and the first turn are two.
    assert out["keys"] == ["setup", "turn:0", "turn:0", "turn:3", None]
    # A push may only send the page to a path of this site.
    assert out["local"] == [True, False, False, False, False, False]
    assert out["clocks"] == ["0:00", "0:09", "1:01", "59:59", "1:00:00", "1:02:05", "0:00"]
    assert errors == []
