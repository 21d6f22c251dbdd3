"""Server-side SVG geometry for rating charts: PURE (no Django), no JavaScript, no CDN.

A *series* is a list of ratings, one per game, oldest first; a chart maps it into a box of
``width`` x ``height`` user units with a margin for the axis labels.
"""

import math
from collections.abc import Sequence


def _nice_step(span: float, ticks: int) -> float:
    raw = max(span, 1.0) / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(power * m for m in (1, 2, 2.5, 5, 10) if power * m >= raw)


def sparkline(values: Sequence[float], width: int = 80, height: int = 20) -> str:
    """The ``points`` of a polyline for a small trend line ('' for fewer than two values)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    return " ".join(
        f"{i * step:.1f},{height - 2 - (v - low) / span * (height - 4):.1f}"
        for i, v in enumerate(values)
    )


def _coord(value: float) -> str:
    """An SVG coordinate as text: a float in a template is localized (``12,5`` in German and
    Dutch), which SVG cannot read."""
    return f"{value:.1f}"


def rating_chart(
    values: Sequence[float], width: int = 600, height: int = 220, left: int = 44, bottom: int = 22
) -> dict:
    """Everything a template needs to draw a rating history: line, points, grid, labels."""
    if not values:
        return {}
    low, high = min(values), max(values)
    step = _nice_step(high - low, 4)
    axis_low = math.floor(low / step) * step
    axis_high = max(math.ceil(high / step) * step, axis_low + step)
    plot_w, plot_h = width - left - 8, height - bottom - 8

    def x(i: int) -> float:
        return left + (i * plot_w / (len(values) - 1) if len(values) > 1 else plot_w / 2)

    def y(v: float) -> float:
        return 8 + plot_h - (v - axis_low) / (axis_high - axis_low) * plot_h

    grid = []
    tick = axis_low
    while tick <= axis_high + 1e-9:
        grid.append({"y": _coord(y(tick)), "label": f"{tick:.0f}"})
        tick += step
    points = [(round(x(i), 1), round(y(v), 1)) for i, v in enumerate(values)]
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - 8,
        "bottom": height - bottom,
        "grid": grid,
        "line": " ".join(f"{px},{py}" for px, py in points),
        "last": {
            "x": _coord(points[-1][0]),
            "y": _coord(points[-1][1]),
            "value": round(values[-1]),
        },
        "games": len(values) - 1,
    }
