"""A new visitor signs up, confirms, logs in and sees their profile, in a real browser, on a
live site in both modes; a password change pushed by the Celery worker reaches an open page."""

import pytest
from playwright.sync_api import expect

from tests.browser import chromium
from tests.live import LiveSite

PASSWORD = "a-long-enough-passphrase"
MODES = [
    pytest.param("embedded", marks=[pytest.mark.browser]),
    pytest.param(
        "production", marks=[pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]
    ),
]


@pytest.fixture(params=MODES)
def site(request, tmp_path):
    live = LiveSite(request.param, tmp_path).start()
    yield live
    live.stop()


def test_a_visitor_signs_up_confirms_logs_in_and_gets_live_notices(site, tmp_path):
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(site.url + "/")
        page.get_by_role("link", name="Create a free account").click()

        page.fill("input[name=username]", "erin")
        page.fill("input[name=email]", "erin@example.com")
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.get_by_role("button", name="Sign Up").click()
        expect(page.get_by_role("heading", name="Verify Your Email Address")).to_be_visible()

        # The console e-mail backend prints the message to the site's output.
        link = site.wait_for_output(r"http://127\.0\.0\.1:\d+/accounts/confirm-email/[^\s]+/")
        page.goto(link.group(0))
        page.get_by_role("button", name="Confirm").click()

        # Log out and back in through the form, as a returning player would.
        page.get_by_role("button", name="Log out").click()
        page.get_by_role("link", name="Log in").first.click()
        page.fill("input[name=login]", "erin")
        page.fill("input[name=password]", PASSWORD)
        page.get_by_role("button", name="Sign In").click()

        page.get_by_role("link", name="erin", exact=True).click()
        expect(page.get_by_role("heading", name="erin")).to_be_visible()
        expect(page.get_by_text("Member since")).to_be_visible()
        # The welcome notice came from the Celery worker after the confirmation.
        expect(page.locator("#notification-count")).to_have_text("1", timeout=15_000)
        expect(page.locator("body")).to_have_attribute("data-notifications", "live")
        page.screenshot(path=str(tmp_path / "profile.png"))

        # A second tab changes the password; the open profile page hears of it live.
        other = context.new_page()
        other.goto(site.url + "/accounts/password/change/")
        other.fill("input[name=oldpassword]", PASSWORD)
        other.fill("input[name=password1]", PASSWORD + "-2")
        other.fill("input[name=password2]", PASSWORD + "-2")
        other.get_by_role("button", name="Change Password").click()
        expect(page.locator(".toast")).to_contain_text("password was changed", timeout=15_000)
        expect(page.locator("#notification-count")).to_have_text("2")
        context.close()

    assert "Traceback" not in site.output(), site.output()


@pytest.mark.browser
def test_the_site_works_on_a_phone_sized_screen(tmp_path):
    site = LiveSite("embedded", tmp_path).start()
    try:
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(site.url + "/")
            nav = page.get_by_role("navigation", name="Main")
            expect(nav).to_be_hidden()
            page.locator("label.nav-toggle-label").click()
            expect(nav.get_by_role("link", name="Tournaments")).to_be_visible()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, "nothing sticks out sideways"
    finally:
        site.stop()
