"""The expert bot's strength over time: a table and a chart of every recorded arena run.

Run from the repository root::

    python benchmarks/expert_chart.py [--svg docs/expert_strength.svg]

Reads ``benchmarks/expert_strength.csv`` (one row per ``bot_arena`` run recorded in
docs/benchmarks.md, *Expert bot strength*), prints each run's win rate with its 95% Wilson
interval, and writes an SVG chart (no plotting library needed): on the left, 2 players
against hard by CPU budget per decision, a line per stop's code; on the right, 4 players
against three hard at 0.25 s, a bar per stop's code. Whiskers are the 95% intervals; the
dashed lines are issue 26's targets (65% and 40%) and, at 4 players, par (25%). A run is
labelled by the stop whose code played (``code``); ``stop`` is when it was measured.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.bots.arena import wilson  # noqa: E402

DATA = Path(__file__).resolve().parent / "expert_strength.csv"
BUDGETS = (0.1, 0.25, 0.5, 1.0, 2.0)
PALETTE = ("#9e9e9e", "#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756")
# a mark per stop besides its colour (colour-blind readers): circle, square, diamond, ...
MARKS = ("circle", "square", "diamond", "triangle")


def runs(path: Path = DATA) -> list[dict]:
    """The recorded runs, each with its win rate and interval."""
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    out = []
    for row in csv.DictReader(lines):
        games, wins = int(row["games"]), int(row["wins"])
        low, high = wilson(wins, games)
        out.append({
            "stop": int(row["stop"]),
            "code": int(row["code"]),
            "players": int(row["players"]),
            "budget": float(row["budget_s"]),
            "games": games,
            "wins": wins,
            "rate": wins / games,
            "low": low,
            "high": high,
            "note": row["note"],
        })  # fmt: skip
    return out


def table(rows: list[dict]) -> str:
    head = f"{'stop':>4} {'code':>4} {'players':>7} {'budget':>7} {'games':>5} {'wins':>4}"
    lines = [head + f"  {'win rate':>8}  95% interval      what the code does", "-" * 90]
    for r in rows:
        lines.append(
            f"{r['stop']:>4} {r['code']:>4} {r['players']:>7} {r['budget']:>6}s"
            f" {r['games']:>5} {r['wins']:>4}  {r['rate']:>8.1%}"
            f"  [{r['low']:.1%}, {r['high']:.1%}]  {r['note']}"
        )
    return "\n".join(lines)


def _mark(kind: str, x: float, y: float, color: str) -> str:
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{color}"/>'
    if kind == "square":
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{color}"/>'
    if kind == "diamond":
        pts = f"{x:.1f},{y - 5:.1f} {x + 5:.1f},{y:.1f} {x:.1f},{y + 5:.1f} {x - 5:.1f},{y:.1f}"
        return f'<polygon points="{pts}" fill="{color}"/>'
    pts = f"{x:.1f},{y - 5:.1f} {x + 5:.1f},{y + 4:.1f} {x - 5:.1f},{y + 4:.1f}"
    return f'<polygon points="{pts}" fill="{color}"/>'


def svg(rows: list[dict]) -> str:
    """The chart (see module docstring) as an SVG document."""
    width, height, top, bottom = 820, 340, 40, 290
    left_panel, right_panel = (50, 470), (540, 800)

    def y_of(rate: float) -> float:
        return bottom - rate * (bottom - top)

    def x_of(budget: float) -> float:
        lo, hi = math.log(BUDGETS[0]), math.log(BUDGETS[-1])
        a, b = left_panel
        return a + 20 + (math.log(budget) - lo) / (hi - lo) * (b - a - 100)  # labels right

    stops = sorted({r["code"] for r in rows})
    style = {s: (PALETTE[i % len(PALETTE)], MARKS[i % len(MARKS)]) for i, s in enumerate(stops)}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for a, b in (left_panel, right_panel):
        for k in range(0, 11, 2):
            y = y_of(k / 10)
            out.append(f'<line x1="{a}" y1="{y:.1f}" x2="{b}" y2="{y:.1f}" stroke="#e0e0e0"/>')
            out.append(f'<text x="{a - 6}" y="{y + 4:.1f}" text-anchor="end">{k * 10}%</text>')
        out.append(f'<line x1="{a}" y1="{top}" x2="{a}" y2="{bottom}" stroke="#444"/>')

    def dashed(a: int, b: int, rate: float, label: str) -> None:
        y = y_of(rate)
        out.append(
            f'<line x1="{a}" y1="{y:.1f}" x2="{b}" y2="{y:.1f}" stroke="#d62728"'
            ' stroke-dasharray="5,4"/>'
        )
        out.append(f'<text x="{b}" y="{y - 4:.1f}" text-anchor="end" fill="#d62728">{label}</text>')

    # left: 2 players by budget
    a, b = left_panel
    out.append(f'<text x="{a}" y="22" font-size="13">2 players, expert against hard</text>')
    dashed(a, b, 0.65, "target 65%")
    for budget in BUDGETS:
        x = x_of(budget)
        out.append(f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">{budget:g} s</text>')
    out.append(
        f'<text x="{(a + b) / 2}" y="{bottom + 32}" text-anchor="middle">'
        "CPU budget per decision (log scale)</text>"
    )
    for s in stops:
        color, mark = style[s]
        pts = sorted((r for r in rows if r["code"] == s and r["players"] == 2),
                     key=lambda r: r["budget"])  # fmt: skip
        if len(pts) > 1:
            path = " ".join(f"{x_of(r['budget']):.1f},{y_of(r['rate']):.1f}" for r in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
        for r in pts:
            x = x_of(r["budget"]) + (stops.index(s) - (len(stops) - 1) / 2) * 3
            out.append(
                f'<line x1="{x:.1f}" y1="{y_of(r["low"]):.1f}" x2="{x:.1f}"'
                f' y2="{y_of(r["high"]):.1f}" stroke="{color}"/>'
            )
            out.append(_mark(mark, x, y_of(r["rate"]), color))
    # right: 4 players at 0.25 s, a bar per stop
    a, b = right_panel
    out.append(f'<text x="{a}" y="22" font-size="13">4 players, against three hard, 0.25 s</text>')
    dashed(a, b, 0.40, "target 40%")
    dashed(a, b, 0.25, "par 25%")
    bars = [r for r in rows if r["players"] == 4 and r["budget"] == 0.25]
    slot = (b - a - 70) / max(1, len(bars))  # the dashed lines' labels on the right
    for i, r in enumerate(bars):
        color, mark = style[r["code"]]
        x0 = a + i * slot + slot * 0.2
        w = slot * 0.6
        y = y_of(r["rate"])
        out.append(
            f'<rect x="{x0:.1f}" y="{y:.1f}" width="{w:.1f}" height="{bottom - y:.1f}"'
            f' fill="{color}" fill-opacity="0.8"/>'
        )
        mid = x0 + w / 2
        out.append(
            f'<line x1="{mid:.1f}" y1="{y_of(r["low"]):.1f}" x2="{mid:.1f}"'
            f' y2="{y_of(r["high"]):.1f}" stroke="#222"/>'
        )
        out.append(_mark(mark, mid, y, "#222"))
        out.append(
            f'<text x="{mid:.1f}" y="{bottom + 16}" text-anchor="middle">stop {r["code"]}</text>'
        )
        out.append(f'<text x="{x0 + 3:.1f}" y="{y + 14:.1f}" fill="white">{r["rate"]:.1%}</text>')
    # legend: one entry per stop
    x = left_panel[0]
    for s in stops:
        color, mark = style[s]
        note = next(r["note"] for r in rows if r["code"] == s)
        out.append(_mark(mark, x + 4, height - 10, color))
        out.append(f'<text x="{x + 12}" y="{height - 6}">code of stop {s}: {note}</text>')
        x += 250
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--svg", default=None, help="write the chart here")
    args = parser.parse_args()
    rows = runs()
    print(table(rows))
    if args.svg:
        Path(args.svg).write_text(svg(rows))
        print(f"chart written to {args.svg}")


if __name__ == "__main__":
    main()
