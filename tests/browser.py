"""Playwright driving Debian's chromium (never a downloaded browser)."""

import re
from contextlib import contextmanager

from playwright.sync_api import expect, sync_playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def log_in(page, url, username, password="ticket-to-ride"):
    """Sign ``username`` in through the log-in form (a demo user's password by default) and
    wait until the site has taken the page on; in any language, on a phone too."""
    page.goto(url + "/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.locator("input[name=password]").press("Enter")  # the button's name is translated
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))


def watched(page, *, console: bool = False) -> list[str]:
    """The list the page's script errors are recorded in (with ``console``, its console
    errors too): a test asserts it stays empty."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if console:
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


# The WCAG contrast ratio of an element's text against the first opaque background behind it.
CONTRAST = """(el) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const fg = rgb(getComputedStyle(el).color);
  let node = el, bg = [255, 255, 255];
  while (node && node.nodeType === 1) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length >= 3 && (c.length === 3 || c[3] > 0.5)) { bg = c; break; }
    node = node.parentElement;
  }
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def text_contrast(locator) -> float:
    """The contrast ratio (1 to 21) of ``locator``'s text on what lies behind it."""
    return locator.evaluate(CONTRAST)
