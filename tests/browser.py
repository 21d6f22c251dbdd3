"""Playwright driving Debian's chromium (never a downloaded browser)."""

from contextlib import contextmanager

from playwright.sync_api import sync_playwright

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


def watched(page, *, console: bool = False) -> list[str]:
    """The list the page's script errors are recorded in (with ``console``, its console
    errors too): a test asserts it stays empty."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if console:
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors
