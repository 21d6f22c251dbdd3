"""``benchmarks/expert_chart.py``: the recorded arena runs read, summed up and drawn."""

from __future__ import annotations

import importlib.util
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


def test_the_chart_has_a_bar_per_4_player_run_and_a_mark_per_run():
    chart = load()
    rows = chart.runs()
    root = ET.fromstring(chart.svg(rows))
    marks = [*root.iter(f"{SVG}circle"), *root.iter(f"{SVG}polygon")]
    marks += [e for e in root.iter(f"{SVG}rect") if e.get("width") == "8"]
    assert len(marks) == len(rows) + len({r["code"] for r in rows})  # and one in the legend
    bars = [e for e in root.iter(f"{SVG}rect") if e.get("fill-opacity")]
    assert len(bars) == sum(r["players"] == 4 for r in rows)
    labels = [e.text for e in root.iter(f"{SVG}text")]
    assert "target 65%" in labels and "target 40%" in labels and "par 25%" in labels
    four = [r["rate"] for r in rows if r["players"] == 4]
    heights = [float(b.get("height")) for b in bars]
    assert sorted(range(len(four)), key=four.__getitem__) == sorted(
        range(len(heights)), key=heights.__getitem__
    )  # the bars in the runs' order, as tall as their win rates rank
    assert all(f"{rate:.1%}" in labels for rate in four)
