"""``benchmarks/expert_chart.py``: the recorded arena runs read, summed up and drawn."""

from __future__ import annotations

import importlib.util
import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

from games.engine.bots.arena import wilson

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "expert_chart.py"
SVG = "{http://www.w3.org/2000/svg}"


def load():
    spec = importlib.util.spec_from_file_location("expert_chart", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_recorded_run_is_read_with_its_interval():
    chart = load()
    rows = chart.runs()
    assert rows and all(0 <= r["wins"] <= r["games"] for r in rows)
    assert {r["players"] for r in rows} == {2, 4}
    for r in rows:
        assert (r["low"], r["high"]) == wilson(r["wins"], r["games"])
        assert r["low"] <= r["rate"] <= r["high"]
    assert "[65.4%, 77.8%]" in chart.table(rows)  # 144 of 200, stop 28


def test_the_chart_has_a_mark_per_run_and_a_line_per_code_and_player_count():
    chart = load()
    rows = chart.runs()
    root = ET.fromstring(chart.svg(rows))
    marks = [*root.iter(f"{SVG}circle"), *root.iter(f"{SVG}polygon")]
    marks += [e for e in root.iter(f"{SVG}rect") if e.get("width") == "8"]
    assert len(marks) == len(rows) + len({r["code"] for r in rows})  # and one in the legend
    groups: dict[tuple, list] = {}
    for r in rows:
        groups.setdefault((r["players"], r["code"]), []).append(r)  # the chart's order
    lines = [e.get("points") for e in root.iter(f"{SVG}polyline")]
    joined = {key: chart._line(group) for key, group in groups.items()}
    assert len(lines) == sum(len(line) > 1 for line in joined.values())
    for _, group in sorted(g for g in joined.items() if len(g[1]) > 1):
        assert len({r["budget"] for r in group}) == len(group)  # one run a budget
        ys = [float(p.split(",")[1]) for p in lines.pop(0).split()]
        # left to right by budget, higher on the chart (smaller y) for a higher win rate
        marked = list(zip(group, ys, strict=True))
        assert all(
            (a["rate"] > b["rate"]) == (ya < yb)
            for (a, ya), (b, yb) in itertools.pairwise(marked)
            if a["rate"] != b["rate"]
        )
    labels = [e.text for e in root.iter(f"{SVG}text")]
    assert "target 65%" in labels and "target 40%" in labels and "par 25%" in labels


def test_the_legend_keeps_each_code_under_a_panel_inside_the_chart():
    """Two legend entries a line, one under each panel, the chart as tall as its lines (four
    codes in one line ran past the right edge)."""
    chart = load()
    rows = chart.runs()
    root = ET.fromstring(chart.svg(rows))
    height = float(root.get("height"))
    entries = [e for e in root.iter(f"{SVG}text") if (e.text or "").startswith("code of stop")]
    codes = sorted({r["code"] for r in rows})
    assert [e.text.split(":")[0] for e in entries] == [f"code of stop {c}" for c in codes]
    starts = {float(e.get("x")) for e in entries}
    assert starts == {chart.PANELS[2][0] + 12, chart.PANELS[4][0] + 12} or len(codes) == 1
    lines = sorted({float(e.get("y")) for e in entries})
    assert len(lines) == (len(codes) + 1) // 2 and all(chart.BOTTOM < y < height for y in lines)
