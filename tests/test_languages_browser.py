"""German and Dutch in a real browser: a visitor switches the language with the footer's
switcher, logs in, opens a table against a bot and plays a few actions; the dialogs, the
turn banner and the game log are in the chosen language. The expected texts are read from
the catalogues, so the test follows the translations rather than copying them."""

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation
from playwright.sync_api import expect

from tests.browser import chromium, watched
from tests.live import LiveSite

ROOT = Path(__file__).resolve().parent.parent
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}


def js_text(lang: str, msgid: str, **params) -> str:
    """The browser-side translation of ``msgid`` (singular), with its placeholders filled."""
    po = polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "djangojs.po"))
    entry = po.find(msgid)
    text = (entry.msgstr or entry.msgstr_plural.get(0, "")) if entry is not None else ""
    assert text, f"{msgid!r} has no {lang} translation"
    for name, value in params.items():
        text = text.replace(f"%({name})s", str(value))
    return text


def page_text(lang: str, msgid: str) -> str:
    with translation.override(lang):
        return translation.gettext(msgid)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    live = LiveSite("embedded", tmp_path_factory.mktemp("languages"),
                    extra_env={"BOT_MOVE_DELAY": "0.05"}).start()  # fmt: skip
    live.manage("seed_demo")
    yield live
    live.stop()


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["de", "nl"])
def test_a_player_switches_language_and_plays_in_it(site, lang, tmp_path):
    with chromium() as browser:
        page = browser.new_context(locale="en-US", **DESKTOP).new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(site.url + "/")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        with page.expect_navigation():
            page.select_option("#lang-select", lang)  # the switcher submits itself
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.get_by_role("navigation", name=page_text(lang, "Main"))).to_contain_text(
            page_text(lang, "Tournaments")
        )

        page.goto(site.url + "/accounts/login/")
        page.fill("input[name=login]", "alice")
        page.fill("input[name=password]", "ticket-to-ride")
        page.locator("main form button[type=submit]").first.click()
        expect(page.locator("a.me")).to_have_text("Alice")

        page.goto(site.url + "/play/new/")
        page.select_option("select[name=seat_count]", "2")
        page.select_option("select[name=bots]", "easy")
        page.locator("main form button[type=submit]").first.click()
        expect(page).to_have_url(re.compile(r"/table/\d+/$"))

        dialog = page.locator("#ticket-dialog")
        expect(dialog).to_be_visible(timeout=20_000)
        expect(dialog.locator("h2")).to_have_text(js_text(lang, "Choose your starting tickets"))
        hint = "Keep at least %(min)s of these %(n)s tickets. Unfinished tickets count against you at the end."  # noqa: E501
        expect(dialog).to_contain_text(js_text(lang, hint, min=2, n=4))
        for box in dialog.locator("[data-ticket-id]").all():
            box.check()
        page.locator("#ticket-confirm").click()

        banner = page.locator("#turn-banner")
        yours = "Your turn: draw cards, claim a route, draw tickets or build a station"
        expect(banner).to_contain_text(js_text(lang, yours), timeout=20_000)
        before = int(page.locator("body").get_attribute("data-version"))
        page.locator("#deck").click()
        # (Not wait_for_function: the site's Content-Security-Policy refuses its eval.)
        expect(page.locator("body")).not_to_have_attribute("data-version", str(before))
        page.locator("#deck").click()
        log = page.locator("#log")
        expect(log).to_contain_text(js_text(lang, "You are dealt:"))
        expect(log).to_contain_text(js_text(lang, "%(name)s draws from the deck:", name="Alice"))
        page.screenshot(path=str(tmp_path / f"table-{lang}.png"))
    assert errors == []


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["de", "nl"])
def test_the_scripts_speak_the_new_language_at_once_and_the_rating_chart_draws(site, lang):
    """The JavaScript catalogue has an address per language: after switching, the page's
    scripts translate into the new language at once (one cached address served the first
    language fetched for an hour), and the profile's rating chart, whose SVG numbers were
    written with decimal commas in German and Dutch, draws without an error."""
    with chromium() as browser:
        page = browser.new_context(locale="en-US", **DESKTOP).new_page()
        problems = watched(page, console=True)
        page.goto(site.url + "/")
        translate = "() => window.gettext('Back to the lobby')"
        assert page.evaluate(translate) == "Back to the lobby"
        with page.expect_navigation():
            page.select_option("#lang-select", lang)
        assert page.evaluate(translate) == js_text(lang, "Back to the lobby")
        page.goto(site.url + "/u/alice/")
        chart = page.locator("svg.rating-chart").first
        expect(chart).to_be_visible()
        labels = chart.locator(".grid text").all_text_contents()
        assert len(labels) >= 2 and len(set(labels)) == len(labels), labels
        for y in chart.locator(".grid line").evaluate_all("ls => ls.map(l => l.y1.baseVal.value)"):
            assert y > 0
        assert problems == []
