"""Live standings in a real browser (embedded site): a spectator's standings page follows an
organizer's result in place, rows entering and leaving its page, with no reload and no
request for the standings fragment; a page that missed a diff reloads the standings JSON
once; the diff/apply pair of the page's pure module agrees with the server's."""

import json
import random

import pytest
from playwright.sync_api import expect

from ladder.standings_diff import apply, diff
from tests.browser import chromium, log_in, watched
from tests.live import LiveSite

pytestmark = pytest.mark.browser
DESKTOP = {"viewport": {"width": 1280, "height": 900}, "reduced_motion": "reduce"}

# 60 bots, round 1 played at 15 tables: ranks 1-15 have 12 points, ..., 46-60 none. The
# standings show 50 a page, so the last ten are on page 2.
BUILD = """
import json, random
from django.utils import timezone
from ladder import standings
from ladder.models import Entry, Pairing, PairingSeat, Round, Tournament
from ttr_site.accounts.models import User

rng, now = random.Random(7), timezone.now()
t = Tournament.objects.create(name="Live Cup", slug="live-cup", starts_at=now, started_at=now,
    organizer=User.objects.get(username="alice"), status="running", round_count=3)
ids = [e.pk for e in Entry.objects.bulk_create(
    Entry(tournament=t, bot_level="easy", rating=1500 + i) for i in range(60))]
r = Round.objects.create(tournament=t, number=1, status="finished", roster=ids, starts_at=now)
tables = []
for n in range(15):
    p = Pairing.objects.create(round=r, number=n + 1, status="finished")
    group = ids[4 * n: 4 * n + 4]
    for seat, (entry, place) in enumerate(zip(group, [1, 2, 3, 4])):
        PairingSeat.objects.create(pairing=p, entry_id=entry, seat=seat, place=place,
            points=standings.placement_points([1, 2, 3, 4])[place - 1], score=100 - place)
    tables.append([p.pk, group])
print(json.dumps({"tables": tables}))
"""


# A standings table the size of a page, kept by live_standings.js: a stale frame is ignored,
# a frame that does not follow the page's version makes it fetch the standings JSON again.
GAP = """async (url) => {
  const { LiveStandings } = await import("/static/ladder/live_standings.js");
  const table = document.createElement("table");
  table.dataset.standingsUrl = url;
  table.dataset.pageSize = "50";
  const body = table.createTBody();
  const tr = body.insertRow();
  tr.dataset.player = "0";
  for (const f of ["place", "", "points"]) {
    const td = tr.insertCell();
    if (f) td.dataset.f = f;
  }
  document.body.append(table);
  const live = new LiveStandings(table, { spreadMs: 1 });
  await live.start();
  const counts = { first: live.loads };
  live.receive({ type: "standings", v: live.model.v, from: live.model.v - 1 });
  counts.stale = live.loads;
  live.receive({ type: "standings", v: live.model.v + 5, from: live.model.v + 4 });
  await live.loading;
  counts.gap = live.loads;
  counts.rows = body.rows.length;
  return counts;
}"""


@pytest.fixture
def site(tmp_path):
    live = LiveSite("embedded", tmp_path).start()
    live.manage("seed_demo")
    live.built = json.loads(live.manage("shell", "-c", BUILD).strip().splitlines()[-1])
    yield live
    live.stop()


def standings_json(page, url):
    return page.evaluate("async (u) => (await fetch(u)).json()", url)


def test_a_spectators_standings_follow_a_result_in_place(site, tmp_path):
    with chromium() as browser:
        spectator = browser.new_context(**DESKTOP).new_page()
        organizer = browser.new_context(**DESKTOP).new_page()
        errors = watched(spectator, console=True)
        requests = []
        spectator.on("request", lambda r: requests.append(r.url))
        spectator.goto(site.url + "/tournaments/live-cup/")
        expect(spectator.locator("body")).to_have_attribute("data-tournament-live", "1")
        expect(spectator.locator("body")).to_have_attribute("data-standings-loads", "1")
        model = standings_json(spectator, site.url + "/tournaments/live-cup/standings.json")
        rows = {row[0]: row for row in model["rows"]}
        place = model["fields"].index("place")
        # A table whose last player is on page 2: they win it now, its winner comes last.
        pairing, group = next((p, g) for p, g in site.built["tables"] if rows[g[3]][place] > 50)
        loser, winner = group[0], group[3]
        page_rows = spectator.locator("#standings tbody tr[data-player]")
        expect(page_rows).to_have_count(50)
        expect(spectator.locator(f'tr[data-player="{winner}"]')).to_have_count(0)
        expect(spectator.locator(f'tr[data-player="{loser}"] [data-f="points"]')).to_have_text("12")
        loads_before = [u for u in requests if "standings.json" in u or "partial=1" in u]
        dom_marker = spectator.evaluate("document.body.dataset.marker = 'same-page'")
        assert dom_marker == "same-page"

        log_in(organizer, site.url, "alice")
        organizer.goto(f"{site.url}/tournaments/live-cup/tables/{pairing}/result/")
        for entry, new_place in zip(group, [4, 2, 3, 1], strict=True):
            organizer.select_option(f"#place-{entry}", str(new_place))
        organizer.locator("form.stacked button[type=submit]").click()
        expect(organizer.locator(".message.success")).to_be_visible()

        row = spectator.locator(f'#standings tbody tr[data-player="{winner}"]')
        expect(row.locator('[data-f="points"]')).to_have_text("12", timeout=15_000)
        expect(row).to_contain_text(rows[winner][model["fields"].index("name")])
        rank = int(row.locator('[data-f="place"]').inner_text())
        assert rank <= 16
        expect(page_rows).to_have_count(50)
        # The old winner dropped to the last group; the places of the page run 1..50.
        places = [int(t) for t in page_rows.locator('[data-f="place"]').all_inner_texts()]
        assert places == list(range(1, 51))
        assert spectator.evaluate("document.body.dataset.marker") == "same-page"  # no reload
        spectator.screenshot(path="/tmp/shots/standings-live/after-result.png", full_page=True)
        later = [u for u in requests if "standings.json" in u or "partial=1" in u]
        assert later == loads_before, later  # the diff came over the socket, nothing fetched
        assert spectator.locator('body[data-standings-loads="1"]').count() == 1
        assert not errors, errors


def test_the_page_module_applies_the_servers_diffs(site):
    rng = random.Random(3)
    cases = []
    for _ in range(20):
        before = [
            {"player": i, "name": f"P{i}", "place": 0, "points": float(rng.choice([0, 4, 8]))}
            for i in range(rng.randint(0, 30))
        ]
        after = [dict(r) for r in before if rng.random() > 0.1]
        for row in after:
            row["points"] += rng.choice([0, 0, 4, 12])
        after += [{"player": 100 + i, "name": "new", "place": 0, "points": 0.0} for i in range(2)]
        for rows in (before, after):
            rows.sort(key=lambda r: (-r["points"], r["player"]))
            for place, row in enumerate(rows, start=1):
                row["place"] = place
        change = diff(before, after, key="player", rank="place")
        assert apply(before, change, key="player", rank="place") == after
        cases.append({"before": before, "frame": {"v": 2, **change}, "after": after})
    with chromium() as browser:
        page = browser.new_page()
        page.goto(site.url + "/rules/")
        results = page.evaluate(
            """async (cases) => {
              const m = await import("/static/ladder/standings_model.js");
              return cases.map(({ before, frame }) => {
                const fields = ["player", "name", "place", "points"];
                const model = m.fromJson({ v: 1, key: "player", rank: "place", fields,
                  rows: before.map((r) => fields.map((f) => r[f])) });
                const verdicts = [
                  m.decide(model, { v: 2, from: 1 }), m.decide(model, { v: 1, from: 0 }),
                  m.decide(model, { v: 3, from: 2 }), m.decide(model, { v: 2, from: null }),
                ];
                m.applyDiff(model, frame);
                return { rows: m.rowsOf(model), verdicts, v: model.v,
                  formats: [m.formatValue(12), m.formatValue(10.5), m.formatValue(6.6667),
                            m.formatValue(1534.6, "int"), m.formatValue(null)] };
              });
            }""",
            cases,
        )
        gap = page.evaluate(GAP, site.url + "/tournaments/live-cup/standings.json")
    assert gap == {"first": 1, "stale": 1, "gap": 2, "rows": 50}
    for case, result in zip(cases, results, strict=True):
        assert result["rows"] == case["after"]
        assert result["verdicts"] == ["apply", "ignore", "reload", "reload"]
        assert result["v"] == 2
        assert result["formats"] == ["12", "10.5", "6.67", "1535", ""]
