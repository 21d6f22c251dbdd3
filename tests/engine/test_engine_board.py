"""The map copy, its totals, ticket ids and the package's purity."""

import ast
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import games.engine as E
from games.engine.mapdata import load_map

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "games" / "engine"


def test_importing_the_engine_loads_no_django():
    code = "import sys, games.engine; print('django' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_the_engine_imports_only_the_standard_library_and_itself():
    allowed = set(sys.stdlib_module_names) | {"games"}
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, (path, name)


def test_the_engine_never_reads_the_shared_folder():
    for path in ENGINE.rglob("*.py"):
        text = path.read_text()
        assert "/shared" not in text and "shared/" not in text, path


def test_europe_totals():
    b = load_map("europe")
    routes = b.routes
    assert len(b.cities) == 47
    assert len(routes) == 101
    assert len({r.double_group for r in routes if r.double_group is not None}) == 11
    assert sum(r.tunnel for r in routes) == 18
    assert sum(r.ferry_locomotives > 0 for r in routes) == 13
    assert sum(r.ferry_locomotives for r in routes) == 17
    assert sum(r.length for r in routes) == 300
    assert sum(c.big_city for c in b.cities) == 9
    base = [t for t in b.tickets if t.source == "base"]
    x1912 = [t for t in b.tickets if t.source == "1912"]
    assert len(base) == 46 and len(x1912) == 55
    assert Counter(t.kind for t in base) == {"long": 6, "regular": 40}
    assert sum(t.big_logo for t in base) == 15
    assert Counter(t.kind for t in x1912) == {"long": 6, "regular": 19, "big_city": 30}


def test_twins_point_at_each_other_and_have_equal_length():
    b = load_map("europe")
    for r in b.routes:
        if r.twin >= 0:
            t = b.routes[r.twin]
            assert t.twin == r.index and t.length == r.length and {t.a, t.b} == {r.a, r.b}


def test_board_objects_are_immutable():
    b = load_map("europe")
    with pytest.raises(AttributeError):
        b.routes[0].length = 9
    with pytest.raises(TypeError):
        b.city_index["Atlantis"] = 1
    assert load_map("europe") is b


def test_board_dict_is_json_ready_with_unique_ticket_ids():
    d = E.board("europe")
    assert len(d["cities"]) == 47 and len(d["routes"]) == 101
    ids = [t["id"] for t in d["tickets"]]
    assert len(ids) == len(set(ids)) == 101
    assert ids[0] == "E1" and ids[46] == "X1"
    assert set(d["routes"][0]) == {
        "id", "a", "b", "length", "color", "tunnel", "ferry_locomotives", "double_group",
    }  # fmt: skip
    assert set(d["cities"][0]) == {
        "name", "display_name", "lat", "lon", "big_city", "tourist_attraction",
    }  # fmt: skip
    assert not any(c["tourist_attraction"] for c in d["cities"])
    wien = next(c for c in d["cities"] if c["name"] == "Athina")
    assert wien["display_name"] == "Athína" and wien["big_city"] is True


def test_new_york_map_copy_loads():
    b = load_map("new_york")
    assert len(b.cities) == 15 and len(b.routes) == 41 and len(b.tickets) == 18
    assert sum(r.length for r in b.routes) == 84
    assert len(b.attractions) == 9


@pytest.mark.parametrize(
    ("variant", "long", "regular"),
    [
        ("classic", 6, 40),
        ("europa_1912", 6, 49),
        ("europe_extended", 6, 59),
        ("mega_europe", 12, 89),
        ("big_cities", 0, 45),
    ],
)
def test_variant_ticket_pools(variant, long, regular):
    cfg = E.RULESETS["europe"]
    b = load_map("europe")
    lo, re = cfg.variants[variant].select_tickets(b)
    assert (len(lo), len(re)) == (long, regular)
    assert all(b.tickets[i].kind == "long" for i in lo)
    assert not any(b.tickets[i].kind == "long" for i in re)


def test_exports():
    assert E.COLORS == ("pink", "white", "blue", "yellow", "orange", "black", "red", "green")
    assert E.VARIANTS["europe"] == (
        "classic", "europa_1912", "europe_extended", "mega_europe", "big_cities",
    )  # fmt: skip
    assert "europe" in E.RULESETS
    assert issubclass(E.IllegalAction, E.EngineError)
    assert all(code.islower() and " " not in code for code in E.REASON_CODES)
