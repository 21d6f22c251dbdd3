"""The home page's miniature of the Europe board: the engine's own map as SVG shapes.

Terms: a *space* is one car space of a route (a route of length 4 has four); a *lane* is one
of the parallel tracks of a double route; the *layout* is where the table page's board puts
each city, ``layout.js``'s ``layout()`` (projection, then the spring relaxation that gives
routes room), in its viewBox (VIEW_W wide).

The layout is the board's own, not a second projection: ``manage.py build_board_miniature``
runs games/static/games/layout.js in the browser and stores its points in LAYOUT. The fills
are cards.js's COLOR_FILLS. tests/games/test_table_client.py checks both against those
modules, so a change to the board's layout or colours that is not rebuilt here fails there.

The shapes are drawn once per process (the map is fixed data); the page wraps them in its
``<svg>`` with the translated label. Fills are presentation attributes, not ``style=``: the
Content-Security-Policy (ttr_site/csp.py) allows them.
"""

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games import engine

LAYOUT = Path(__file__).with_name("board_miniature_europe.json")
SPACE_W = 13  # a space's thickness
LANE = 17  # between the middles of a double route's lanes
GAP = 4  # between two spaces of a route
CLEAR = 6  # between a city's edge and its routes' first space
RADIUS = {False: 7.5, True: 10.5}  # a city's, by big_city
# cards.js COLOR_FILLS (route colours; gray routes take any one colour)
FILLS = {
    "pink": "#f29bc4",
    "white": "#f8f8f4",
    "blue": "#2b6fd8",
    "yellow": "#f6d21b",
    "orange": "#f0861c",
    "black": "#26262b",
    "red": "#d8322b",
    "green": "#2f9a48",
    "gray": "#a9a9a6",
}


@dataclass(frozen=True)
class Miniature:
    """A board drawn in a ``0 0 width height`` viewBox: ``shapes`` holds one polygon per
    space and one circle per city."""

    width: int
    height: int
    shapes: SafeString


@cache
def europe() -> Miniature:
    """The Europe board in miniature (built on first use, then kept)."""
    return miniature(engine.board("europe"), json.loads(LAYOUT.read_text()))


def miniature(board: dict, layout: dict) -> Miniature:
    """``board`` (``engine.board``'s shape) drawn at ``layout`` (``{"width", "height",
    "cities": {name: [x, y]}}``): the routes' spaces under the cities."""
    at = {name: (x, y) for name, (x, y) in layout["cities"].items()}
    radius = {c["name"]: RADIUS[bool(c["big_city"])] for c in board["cities"]}
    spaces = [
        s for route, lane in _lanes(board["routes"]) for s in _spaces(route, lane, at, radius)
    ]
    cities = format_html_join(
        "",
        '<circle class="hero-map__city" cx="{}" cy="{}" r="{}"/>',
        ((_n(at[c][0]), _n(at[c][1]), radius[c]) for c in at),
    )
    shapes = format_html("{}{}", SafeString("".join(spaces)), cities)
    return Miniature(layout["width"], math.ceil(layout["height"]), shapes)


def _lanes(routes: list[dict]):
    """Each route with its lane offset: a double route's lanes side by side, centred."""
    corridors: dict[tuple[str, str], list[dict]] = {}
    for route in sorted(routes, key=lambda r: r["id"]):
        corridors.setdefault(tuple(sorted((route["a"], route["b"]))), []).append(route)
    for lanes in corridors.values():
        for i, route in enumerate(lanes):
            yield route, (i - (len(lanes) - 1) / 2) * LANE


def _spaces(route: dict, offset: float, at: dict, radius: dict) -> list[str]:
    """The route's spaces as polygons, evenly along its lane between the two cities' edges."""
    a, b = sorted((route["a"], route["b"]))  # one direction per corridor: one normal for its lanes
    (ax, ay), (bx, by) = at[a], at[b]
    d = math.hypot(bx - ax, by - ay) or 1
    ux, uy = (bx - ax) / d, (by - ay) / d
    ox, oy = -uy * offset, ux * offset
    start = radius[a] + CLEAR
    n = route["length"]
    size = max(2.0, (d - start - radius[b] - CLEAR - GAP * (n - 1)) / n)
    # the outline is light (it shows dark fills on the blue hero) but white spaces get a
    # dark one, and tunnels too (as on the board)
    kind = " hero-map__space--white" if route["color"] == "white" else ""
    kind += " hero-map__space--tunnel" if route["tunnel"] else ""
    hx, hy = -uy * SPACE_W / 2, ux * SPACE_W / 2
    shapes = []
    for i in range(n):
        s0 = start + i * (size + GAP)
        x0, y0 = ax + ox + ux * s0, ay + oy + uy * s0
        x1, y1 = x0 + ux * size, y0 + uy * size
        corners = ((x0 + hx, y0 + hy), (x1 + hx, y1 + hy), (x1 - hx, y1 - hy), (x0 - hx, y0 - hy))
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in corners)
        fill = FILLS[route["color"]]
        shapes.append(f'<polygon class="hero-map__space{kind}" fill="{fill}" points="{points}"/>')
    return shapes


def _n(v: float) -> str:
    """A coordinate to one decimal, without a trailing ``.0``."""
    return f"{v:.1f}".removesuffix(".0")
