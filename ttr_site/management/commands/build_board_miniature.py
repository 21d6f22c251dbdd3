"""``manage.py build_board_miniature``: store where the table page's board puts Europe's
cities, for the home page's miniature (ttr_site/board_miniature.py).

The board's layout is JavaScript (games/static/games/layout.js: a projection, then a spring
relaxation), so rather than keep a second one in Python this runs that module once in the
browser the test suite drives (Debian's chromium, through Playwright: development tools,
not needed to serve the site) and writes its points to ``board_miniature.LAYOUT``. Run it
after changing layout.js; tests/games/test_table_client.py fails until then.
"""

import json
import math
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import engine
from ttr_site import board_miniature

STATIC = Path(__file__).resolve().parents[3] / "games" / "static"
ORIGIN = "http://board.invalid"  # never fetched: the page's requests are answered here
LAYOUT = """async ([cities, routes]) => {
  const m = await import("/games/layout.js");
  const L = m.layout(cities, routes, {});
  return { width: m.VIEW_W, height: L.height, pts: L.pts };
}"""


class Command(BaseCommand):
    help = "Store the table page's layout of the Europe board for the home page's miniature."

    def handle(self, *args, **options):
        board = engine.board("europe")
        width, height, pts = _run_layout(board["cities"], board["routes"])
        cities = {
            c["name"]: [round(x, 1), round(y, 1)]
            for c, (x, y) in zip(board["cities"], pts, strict=True)
        }
        lines = ",\n".join(f"  {json.dumps(name)}: {json.dumps(xy)}" for name, xy in cities.items())
        head = f'{{"width": {width}, "height": {math.ceil(height)}, "cities": {{\n'
        board_miniature.LAYOUT.write_text(head + lines + "\n}}\n")  # a city a line: short diffs
        self.stdout.write(f"{board_miniature.LAYOUT.name}: {len(cities)} cities")


def _run_layout(cities: list, routes: list) -> tuple[int, float, list]:
    """layout.js's ``layout(cities, routes, {})`` in a page of its own."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # a production install has no development tools
        raise CommandError("needs Playwright (pip install -e '.[dev]')") from exc
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.route(f"{ORIGIN}/**", _serve)
            page.goto(ORIGIN + "/")
            out = page.evaluate(LAYOUT, [cities, routes])
        finally:
            browser.close()
    return out["width"], out["height"], out["pts"]


def _serve(route):
    """An empty page at the origin's root, the static files under it."""
    path = route.request.url.removeprefix(ORIGIN + "/")
    if not path:
        return route.fulfill(body="<!doctype html><title>layout</title>", content_type="text/html")
    file = (STATIC / path).resolve()
    if not file.is_relative_to(STATIC) or not file.is_file():
        return route.fulfill(status=404)
    return route.fulfill(body=file.read_text(), content_type="text/javascript")
