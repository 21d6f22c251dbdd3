"""The table page's pure ES modules, unit-tested in the browser the suite already drives:
each test imports modules from a live site's static files into a page of that site and
calls their functions. The log speaks every event the engine writes (none falls back to
the raw event name) from the fields a seat or a spectator receives; the card colours live
in one module; the layout, payment grouping, clocks and socket backoff do their sums; the
home page's miniature board is drawn at the layout's points in the cards' colours."""

import json
import math
import random
import re
from pathlib import Path

import pytest

from games import engine
from tests.browser import chromium
from tests.live import LiveSite
from ttr_site import board_miniature

STATIC = Path(__file__).resolve().parents[2]
GAMES = [
    {"ruleset": "europe", "variant": "classic", "seats": 4, "options": {"warehouses": True}},
    {"ruleset": "europe", "variant": "classic", "seats": 3},
    {"ruleset": "europe", "variant": "mega_europe", "seats": 3},  # its two-step set-up
    {"ruleset": "new_york", "variant": "standard", "seats": 2},
]
pytestmark = pytest.mark.browser
IMPORTS = """(async () => {
  const m = {};
  for (const n of ["cards", "model", "log", "layout", "clocks"]) {
    m[n] = await import(`/static/games/${n}.js`);
  }
  m.socket = await import("/static/js/socket.js");
  return m;
})()"""


def played_logs(seed: int):
    """Each game played to the end with random legal moves: (ruleset, a spectator's log)."""
    for params in GAMES:
        rng = random.Random(seed)
        state = engine.new_game(seed=seed, **params)
        while not engine.is_terminal(state):
            seat = engine.current_seats(state)[0]
            engine.apply_action(state, seat, rng.choice(engine.legal_actions(state, seat)))
        yield params["ruleset"], engine.log_for(state, None)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    site = LiveSite("embedded", tmp_path_factory.mktemp("client")).start()
    try:
        with chromium() as browser:
            page = browser.new_page()
            errors = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(site.url + "/rules/")  # a page of the site: same origin, its catalogue

            def run(body: str, arg=None):
                """Run `body` (an async function body) with the site's modules as `m`."""
                # A function declaration Playwright calls as it is (no eval in the page,
                # which the Content-Security-Policy refuses).
                script = f"async (arg) => {{ const m = await ({IMPORTS}); {body} }}"
                return page.evaluate(script, arg)

            page.run = run
            yield page
            assert errors == []
    finally:
        site.stop()


def test_modules_are_served_as_javascript(page):
    for path in ["/static/games/table.js", "/static/js/socket.js", "/static/ladder/tournament.js"]:
        response = page.request.get(page.url.split("/rules/")[0] + path)
        assert response.ok and response.headers["content-type"].startswith("text/javascript")


def test_every_engine_log_event_has_its_own_line(page):
    lines = page.run(
        """
        const out = [];
        for (const [ruleset, board, log] of arg) {
          const ctx = { idx: m.model.indexBoard(board), name: (s) => `Seat${s}`, you: null,
                        taxis: ruleset === "new_york" };
          for (const e of log) {
            const text = m.log.describeLog(e, ctx).node.textContent;
            out.push([e.type, text, ctx.name(e.seat)]);
          }
        }
        return out;
        """,
        [[r, engine.board(r), log] for seed in (1, 2) for r, log in played_logs(seed)],
    )
    seen = {kind for kind, _, _ in lines}
    fallbacks = {kind for kind, text, who in lines if text == f"{who}: {kind}"}
    assert seen and fallbacks == set()
    broken = [(kind, text) for kind, text, _ in lines if "undefined" in text or "%(" in text]
    assert broken == []


def test_other_seats_see_counts_the_engine_puts_in_their_entries(page):
    fields = {}
    for _, log in played_logs(3):
        for entry in log:
            fields.setdefault(entry["type"], set()).update(entry)
    assert {"hand_count", "ticket_count"} <= fields["deal"]
    assert {"kept_count", "returned_count"} <= fields["keep_tickets"]
    texts = page.run(
        """
        const ctx = { idx: m.model.indexBoard(arg), name: (s) => `Seat${s}`, you: null };
        const say = (e) => m.log.describeLog(e, ctx).node.textContent;
        return [
          say({ type: "deal", seat: 1, hand_count: 4, ticket_count: 5 }),
          say({ type: "keep_tickets", seat: 0, kept_count: 2, returned_count: 1 }),
          say({ type: "keep_tickets", seat: 0, tickets: [], returned: [] }),
        ];
        """,
        engine.board("europe"),
    )
    assert texts == [
        "Seat1 is dealt 4 cards and 5 tickets.",
        "Seat0 keeps 2 tickets and returns 1.",
        "Seat0 keeps 0 tickets",
    ]


def test_card_colours_come_from_one_module(page):
    got = page.run(
        """
        const c = m.cards;
        return {
          order: c.COLOR_ORDER, fills: c.COLOR_ORDER.map(c.fillOf),
          symbols: c.COLOR_ORDER.map(c.symbolOf), text: c.COLOR_ORDER.map(c.textOf),
          unknown: [c.fillOf("teal"), c.symbolOf("teal"), c.textOf("teal"), c.colorLabel("teal")],
          sorted: c.sortedCards({ locomotive: 1, red: 2, pink: 0, blue: 3 }),
          text2: c.cardsText({ locomotive: 1, red: 2 }),
        };
        """
    )
    assert got["order"][0] == "pink" and got["order"][-1] == "locomotive"
    assert got["fills"][:3] == ["#f29bc4", "#f8f8f4", "#2b6fd8"] and got["fills"][-1] == "#7b5aa6"
    assert got["symbols"] == ["P", "W", "B", "Y", "O", "K", "R", "G", "✦"]
    assert got["text"][:2] == ["#1d1d1d", "#1d1d1d"] and got["text"][2] == "#ffffff"
    assert got["unknown"] == ["#999", "", "#fff", "teal"]
    assert got["sorted"] == [["blue", 3], ["red", 2], ["locomotive", 1]]
    assert got["text2"] == "2 red + 1 locomotive"
    # no copies: the fills are written down in cards.js and nowhere else in the site's script
    scripts = [*STATIC.glob("games/static/**/*.js"), *STATIC.glob("ttr_site/static/**/*.js"),
               *STATIC.glob("ladder/static/**/*.js")]  # fmt: skip
    holders = {p.name for p in scripts if re.search(r"#f29bc4", p.read_text(), re.I)}
    assert holders == {"cards.js"}


def test_the_layout_fits_the_view_and_turns_tall_maps(page):
    got = page.run(
        """
        const out = {};
        for (const [name, board] of Object.entries(arg)) {
          const cities = (board.cities || board.locations)
            .map((c) => ({ name: c.name, lat: c.lat, lon: c.lon }));
          const L = m.layout.layout(cities, board.routes, {});
          const xs = L.pts.map((p) => p[0]), ys = L.pts.map((p) => p[1]);
          let closest = Infinity;
          for (let i = 0; i < L.pts.length; i++)
            for (let j = i + 1; j < L.pts.length; j++)
              closest = Math.min(
                closest, Math.hypot(L.pts[i][0] - L.pts[j][0], L.pts[i][1] - L.pts[j][1]));
          out[name] = {
            n: L.pts.length, cities: cities.length,
            minX: Math.min(...xs), maxX: Math.max(...xs),
            minY: Math.min(...ys), maxY: Math.max(...ys),
            height: L.height, rot: L.G.rot, pad: L.G.pad, closest,
          };
        }
        const square = [[0, 0], [2, 0], [2, 1], [0, 1]];
        out.fit = m.layout.fit(square, 10);
        out.tallRot = m.layout.rotationFor([[0, 0], [0.1, 5], [0, 10], [-0.1, 3]], "auto");
        out.wideRot = m.layout.rotationFor(square, "auto");
        out.fixedRot = m.layout.rotationFor(square, 90);
        out.VIEW_W = m.layout.VIEW_W;
        return out;
        """,
        {"europe": engine.board("europe"), "new_york": engine.board("new_york")},
    )
    width = got["VIEW_W"]
    for name in ("europe", "new_york"):
        lay = got[name]
        assert lay["n"] == lay["cities"]
        assert lay["minX"] == pytest.approx(lay["pad"])
        assert lay["maxX"] == pytest.approx(width - lay["pad"])
        assert lay["minY"] == pytest.approx(lay["pad"]) and lay["maxY"] <= lay["height"]
        assert lay["closest"] > 20  # cities repel each other
    assert got["europe"]["rot"] == 0 and got["new_york"]["rot"] != 0  # Manhattan is turned
    assert got["fit"]["pts"] == [[10, 10], [990, 10], [990, 500], [10, 500]]
    assert got["fit"]["h"] == 510 and got["wideRot"] == 0
    assert got["tallRot"] != 0 and got["fixedRot"] == pytest.approx(3.14159265 / 2)


def test_the_home_pages_miniature_is_the_boards_layout_in_the_cards_colours(page):
    """ttr_site/board_miniature.py draws at points stored from layout.js; after a change to
    the layout, ``manage.py build_board_miniature`` stores them again."""
    board = engine.board("europe")
    got = page.run(
        """
        const L = m.layout.layout(arg.cities, arg.routes, {});
        return { width: m.layout.VIEW_W, height: L.height, pts: L.pts, fills: m.cards.COLOR_FILLS };
        """,
        board,
    )
    stored = json.loads(board_miniature.LAYOUT.read_text())
    assert (stored["width"], stored["height"]) == (got["width"], math.ceil(got["height"]))
    for city, (x, y) in zip(board["cities"], got["pts"], strict=True):
        assert stored["cities"][city["name"]] == pytest.approx([x, y], abs=0.06), city["name"]
    assert {c: got["fills"][c] for c in board_miniature.FILLS} == board_miniature.FILLS


def test_payment_options_are_grouped_and_ordered(page):
    got = page.run(
        """
        const legal = [
          { type: "draw_card", source: "deck" },
          { type: "draw_card", source: "faceup", slot: 2 },
          { type: "claim_route", route: 7, cards: { locomotive: 2, red: 1 } },
          { type: "claim_route", route: 7, cards: { red: 3 } },
          { type: "claim_route", route: 7, cards: { locomotive: 1, red: 2 } },
          { type: "claim_route", route: 9, cards: { blue: 2 } },
          { type: "build_station", city: "Wien", cards: { red: 1 } },
          { type: "keep_tickets", tickets: [12, 3] },
          { type: "keep_tickets", tickets: [3] },
          { type: "pass" },
        ];
        const ix = m.model.legalIndex(legal);
        const keeps = m.model.keepsBySet(ix.keep);
        return {
          deck: ix.deck[0].source, faceup: [...ix.faceup.keys()], routes: [...ix.claims.keys()],
          stations: [...ix.stations.keys()], pass: !!ix.pass, decline: ix.decline,
          order: m.model.paymentOrder(ix.claims.get("7")).map((a) => a.cards),
          keep: keeps.get(m.model.ticketSetKey(["3", "12"])).tickets,
          none: keeps.get(m.model.ticketSetKey(["12"])) || null,
          signed: [m.model.signed(3), m.model.signed(-2), m.model.signed(0)],
          canonical: m.model.canonical({ b: 1, a: [2, { d: 1, c: 0 }] }),
        };
        """
    )
    assert got["deck"] == "deck" and got["faceup"] == [2] and got["routes"] == ["7", "9"]
    assert got["stations"] == ["Wien"] and got["pass"] and got["decline"] is None
    assert got["order"] == [{"red": 3}, {"locomotive": 1, "red": 2}, {"locomotive": 2, "red": 1}]
    assert got["keep"] == [12, 3] and got["none"] is None
    assert got["signed"] == ["+3", "−2", "0"]
    assert got["canonical"] == '{"a":[2,{"c":0,"d":1}],"b":1}'


def test_warehouse_choices_are_the_players_to_make(page):
    """Warehouses & Depots: the draws of one source are grouped with one per warehouse (the
    page asks which), and a claim's choices split into payments and warehouses, from which
    only a combination the server listed can be picked."""
    got = page.run(
        """
        const legal = [
          { type: "draw_card", source: "deck", warehouse: 0 },
          { type: "draw_card", source: "deck", warehouse: 1 },
          { type: "draw_card", source: "faceup", slot: 3, color: "red", warehouse: 0 },
          { type: "draw_card", source: "faceup", slot: 3, color: "red", warehouse: 1 },
          { type: "place_depot", city: "Wien" },
          { type: "place_depot", city: "Riga" },
          { type: "claim_route", route: 7, cards: { red: 2, locomotive: 1 } },
          { type: "claim_route", route: 7, cards: { red: 2, locomotive: 1 }, warehouses: [1] },
          { type: "claim_route", route: 7, cards: { red: 3 } },
          { type: "claim_route", route: 7, cards: { red: 3 }, warehouses: [1] },
          { type: "claim_route", route: 7, cards: { red: 3 }, warehouses: [0, 1] },
        ];
        const ix = m.model.legalIndex(legal);
        const c = m.model.claimChoices(ix.claims.get("7"));
        return {
          deck: ix.deck.map((a) => a.warehouse), faceup: ix.faceup.get(3).map((a) => a.warehouse),
          depots: [...ix.depots.keys()], payments: c.payments, warehouses: c.warehouses,
          takes: c.takes,
          both: c.find({ red: 3 }, [1, 0]), none: c.find({ locomotive: 1, red: 2 }, []),
          illegal: c.find({ red: 2, locomotive: 1 }, [0, 1]),
          unknown: c.find({ red: 4 }, []),
        };
        """
    )
    assert got["deck"] == [0, 1] and got["faceup"] == [0, 1]
    assert got["depots"] == ["Wien", "Riga"]
    assert got["payments"] == [{"red": 3}, {"red": 2, "locomotive": 1}]
    assert got["warehouses"] == [0, 1]
    assert sorted(map(tuple, got["takes"])) == [(), (0, 1), (1,)]
    assert got["both"] == {
        "type": "claim_route", "route": 7, "cards": {"red": 3}, "warehouses": [0, 1]
    }  # fmt: skip
    assert got["none"] == {"type": "claim_route", "route": 7, "cards": {"red": 2, "locomotive": 1}}
    assert got["illegal"] is None and got["unknown"] is None


def test_clocks_count_down_to_each_seats_deadline(page):
    got = page.run(
        """
        const seats = [{ position: 0 }, { position: 1, is_bot: true }, { position: 2 }];
        const clock = { time_control: "realtime", turn_started_at: "2025-01-01T00:00:00Z",
                        move_seconds: 30, banks: { "0": 10, "2": -5 } };
        const start = Date.parse(clock.turn_started_at);
        const c = m.clocks;
        return {
          mine: c.seatDeadline(clock, seats, 0) - start, bot: c.seatDeadline(clock, seats, 1),
          other: c.seatDeadline(clock, seats, 2) - start,
          correspondence: c.seatDeadline({ time_control: "correspondence", turn_hours: 24,
            turn_started_at: clock.turn_started_at }, seats, 0) - start,
          shown: c.shownDeadline(clock, seats, [0, 1, 2], null) - start,
          shownMine: c.shownDeadline(clock, seats, [0, 2], 0) - start,
          none: c.seatDeadline(null, seats, 0),
          texts: [
            c.formatTimeLeft(67), c.formatTimeLeft(3 * 3600 + 125),
            c.formatTimeLeft(2 * 86400 + 7200),
          ],
        };
        """
    )
    assert got["mine"] == 40_000 and got["bot"] is None and got["other"] == 30_000
    assert got["correspondence"] == 24 * 3600 * 1000 and got["none"] is None
    assert got["shown"] == 30_000 and got["shownMine"] == 40_000
    assert got["texts"] == ["1:07", "3 h 2 min", "2 d 2 h"]


def test_each_seats_panel_clock_shows_its_bank_and_the_deciders_move_time(page):
    got = page.run(
        """
        const seats = [{ position: 0 }, { position: 1, is_bot: true }, { position: 2 }];
        const clock = { time_control: "realtime", turn_started_at: "2025-01-01T00:00:00Z",
                        move_seconds: 30, banks: { "0": 100, "1": 100, "2": 50 } };
        const start = Date.parse(clock.turn_started_at);
        const at = (s) => start + s * 1000;
        const c = m.clocks;
        const turnBased = { time_control: "turn_based", turn_hours: 24,
                            turn_started_at: clock.turn_started_at };
        return {
          early: [0, 1, 2].map((s) => c.seatTime(clock, seats, [0, 1], s, at(10))),
          overtime: c.seatTime(clock, seats, [0], 0, at(50)),
          spent: c.seatTime(clock, seats, [0], 0, at(500)),
          turnBased: [0, 2].map((s) => c.seatTime(turnBased, seats, [0], s, at(3600))),
          none: c.seatTime(null, seats, [0], 0, at(1)),
          noBank: c.seatTime({ ...clock, bank_seconds: 0 }, seats, [0], 0, at(10)),
        };
        """
    )
    assert got["noBank"] == {"bank": None, "move": 20}  # a table without a bank shows none
    # The deciding human: move time ticking, bank untouched; a bot decides without a clock.
    assert got["early"] == [{"bank": 100, "move": 20}, {"bank": 100, "move": None},
                            {"bank": 50, "move": None}]  # fmt: skip
    # Past the move time the bank drains (games/clocks.py bank_after_move), down to zero.
    assert got["overtime"] == {"bank": 80, "move": 0}
    assert got["spent"] == {"bank": 0, "move": 0}
    assert got["turnBased"] == [{"bank": None, "move": 23 * 3600}, None]
    assert got["none"] is None


def test_the_socket_backs_off_with_jitter_and_stops_on_final_codes(page):
    got = page.run(
        """
        const s = m.socket;
        const d = (attempt, r, opts) =>
          s.backoffDelay(attempt, { random: () => r, ...(opts || {}) });
        return {
          first: [d(0, 0), d(0, 0.5), d(0, 0.999999)],
          growth: [1, 2, 3].map((k) => d(k, 0.5)),
          capped: [d(10, 0), d(10, 0.999999), d(30, 0.5, { cap: 30000 })],
          final: [4401, 4403, 4404, 4429].map(s.isFinalClose),
          retried: [1000, 1001, 1006, 1011, 1012, 1013, 4000].map(s.isFinalClose),
          url: [s.socketUrl("/ws/lobby/", { protocol: "https:", host: "ttr.example" }),
                s.socketUrl("/ws/table/3/", { protocol: "http:", host: "127.0.0.1:8000" })],
        };
        """
    )
    assert got["first"][0] == 750 and got["first"][1] == 1000 and got["first"][2] < 1250
    assert got["growth"] == [2000, 4000, 8000]
    assert got["capped"][0] == 11250 and 18749 < got["capped"][1] < 18750
    assert got["capped"][2] == 30000
    assert got["final"] == [True] * 4 and got["retried"] == [False] * 7
    assert got["url"] == ["wss://ttr.example/ws/lobby/", "ws://127.0.0.1:8000/ws/table/3/"]


def test_every_page_socket_goes_through_the_one_client():
    sources = {
        p: p.read_text()
        for pattern in ("games/static/**/*.js", "ttr_site/static/**/*.js", "ladder/static/**/*.js")
        for p in STATIC.glob(pattern)
    }
    opened = {p.name for p, text in sources.items() if "new WebSocket(" in text}
    assert opened == {"socket.js"}
    shared = re.compile(r"from \"[./]+js/socket\.js\"")
    users = {p.name for p, text in sources.items() if shared.search(text)}
    assert {"table.js", "lobby.js", "tournament.js"} <= users
    users |= {p.name for p, text in sources.items() if 'from "./socket.js"' in text}
    assert "notifications.js" in users
