"""The expert bot's strength over time: a table and a chart of every recorded arena run.

Run from the repository root::

    python benchmarks/expert_chart.py [--svg docs/expert_strength.svg]

Reads ``benchmarks/expert_strength.csv`` (one row per ``bot_arena`` run recorded in
docs/benchmarks.md, *Expert bot strength*), prints each run's win rate with its 95% Wilson
interval, and writes an SVG chart (no plotting library needed): on the left 2 players against
hard, on the right 4 players against three hard, each by CPU budget per decision, a line per
stop's code (through the run of most games where a budget has several). Whiskers are the 95%
intervals; the dashed lines are issue 26's targets (65% and 40%) and, at 4 players, par
(25%). A run is labelled by the stop whose code played (``code``); ``stop`` is when it was
measured.
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
PALETTE = ("#9e9e9e", "#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756", "#72b7b2", "#8c6d31")
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


WIDTH, HEIGHT, TOP, BOTTOM = 940, 340, 40, 290
PANELS = {2: (50, 470), 4: (530, 930)}  # players -> the panel's left and right x
LEGEND_LINE = 16  # px between the legend's lines (two entries a line, one under each panel)


def _y(rate: float) -> float:
    return BOTTOM - rate * (BOTTOM - TOP)


def _x(budget: float, bounds: tuple[int, int]) -> float:
    lo, hi = math.log(BUDGETS[0]), math.log(BUDGETS[-1])
    a, b = bounds
    return a + 20 + (math.log(budget) - lo) / (hi - lo) * (b - a - 100)  # labels right


def _frame(bounds: tuple[int, int], title: str, lines: list[tuple[float, str]]) -> list[str]:
    """A panel's grid, axes, title and dashed target lines."""
    a, b = bounds
    out = [f'<text x="{a}" y="22" font-size="13">{title}</text>']
    for k in range(0, 11, 2):
        y = _y(k / 10)
        out.append(f'<line x1="{a}" y1="{y:.1f}" x2="{b}" y2="{y:.1f}" stroke="#e0e0e0"/>')
        out.append(f'<text x="{a - 6}" y="{y + 4:.1f}" text-anchor="end">{k * 10}%</text>')
    out.append(f'<line x1="{a}" y1="{TOP}" x2="{a}" y2="{BOTTOM}" stroke="#444"/>')
    for rate, label in lines:
        y = _y(rate)
        out.append(
            f'<line x1="{a}" y1="{y:.1f}" x2="{b}" y2="{y:.1f}" stroke="#d62728"'
            ' stroke-dasharray="5,4"/>'
        )
        out.append(f'<text x="{b}" y="{y - 4:.1f}" text-anchor="end" fill="#d62728">{label}</text>')
    for budget in BUDGETS:
        x = _x(budget, bounds)
        out.append(f'<text x="{x:.1f}" y="{BOTTOM + 16}" text-anchor="middle">{budget:g} s</text>')
    out.append(
        f'<text x="{(a + b) / 2}" y="{BOTTOM + 32}" text-anchor="middle">'
        "CPU budget per decision (log scale)</text>"
    )
    return out


def _curves(rows: list[dict], players: int, style: dict) -> list[str]:
    """Win rate by budget at ``players``: a line per stop's code, a mark and whisker per run."""
    bounds, codes = PANELS[players], list(style)
    out = []
    for code, (color, mark) in style.items():
        pts = sorted((r for r in rows if r["code"] == code and r["players"] == players),
                     key=lambda r: r["budget"])  # fmt: skip
        line = _line(pts)
        if len(line) > 1:
            path = " ".join(f"{_x(r['budget'], bounds):.1f},{_y(r['rate']):.1f}" for r in line)
            out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
        for r in pts:
            x = _x(r["budget"], bounds) + (codes.index(code) - (len(codes) - 1) / 2) * 3
            out.append(
                f'<line x1="{x:.1f}" y1="{_y(r["low"]):.1f}" x2="{x:.1f}"'
                f' y2="{_y(r["high"]):.1f}" stroke="{color}"/>'
            )
            out.append(_mark(mark, x, _y(r["rate"]), color))
    return out


def _line(runs: list[dict]) -> list[dict]:
    """The runs a code's line joins, by budget: at each budget the one of most games (other
    runs at that budget are drawn as marks only)."""
    best: dict[float, dict] = {}
    for r in runs:
        if r["budget"] not in best or r["games"] > best[r["budget"]]["games"]:
            best[r["budget"]] = r
    return [best[b] for b in sorted(best)]


def svg(rows: list[dict]) -> str:
    """The chart (see module docstring) as an SVG document."""
    codes = sorted({r["code"] for r in rows})
    style = {s: (PALETTE[i % len(PALETTE)], MARKS[i % len(MARKS)]) for i, s in enumerate(codes)}
    height = HEIGHT + LEGEND_LINE * ((len(codes) - 1) // 2)  # a legend line per two codes
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}"'
        f' viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
    ]
    out += _frame(PANELS[2], "2 players, expert against hard", [(0.65, "target 65%")])
    out += _curves(rows, 2, style)
    four = [(0.40, "target 40%"), (0.25, "par 25%")]
    out += _frame(PANELS[4], "4 players, expert against three hard", four)
    out += _curves(rows, 4, style)
    for i, (code, (color, mark)) in enumerate(style.items()):  # the legend: one per code
        note = next(r["note"] for r in rows if r["code"] == code)
        line, right = divmod(i, 2)
        x = PANELS[4 if right else 2][0]
        y = HEIGHT + LEGEND_LINE * line
        out.append(_mark(mark, x + 4, y - 10, color))
        out.append(f'<text x="{x + 12}" y="{y - 6}">code of stop {code}: {note}</text>')
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
