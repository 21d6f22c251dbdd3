"""Random-playout invariants (ARCHITECTURE example 13) over many seeds, variants and sizes.

After every step: every train card (110 in Europe, 44 in New York; warehouses included) and
every ticket are accounted for, cars, stations and depots are conserved, the face-up row
shows fewer than 3 locomotives unless no better row can come, the new log entries
leak nothing (as each viewer sees them) and are JSON-ready (as ``"all"`` sees them: every
other viewer gets a subset of the same keys), seats that are not deciding have no legal
action, and (every few steps) mutated copies of the chosen action are refused with the state
unchanged. The full ``to_json(from_json(s)) == s`` round trip (and the JSON check of the
legal actions) runs after every step in some games and every 7th/10th step in the others (a
full round trip costs ~1 ms late in a game, dominated by the log). Sampled steps check full
views for every viewer. At the end: the game is over, nobody can act, the round trip holds
and the scores add up.

Games: Europe, every variant x 2-5 players (540); the same with Warehouses & Depots (320);
New York at 2, 3 and 4 players (303 each).
"""

import json
import random
import re

import pytest
from engine_testkit import cards_total, deck_size

import games.engine as E
from games.engine.rules.cards import _refresh_possible

VARIANTS = E.VARIANTS["europe"]
TICKET_ID = re.compile(r'"([EXOMT]\d+)"')
MAX_STEPS = 4000


def reorder(action):
    """The same action with keys (and card keys) in reverse order."""
    out = {}
    for key in reversed(list(action)):
        value = action[key]
        out[key] = dict(reversed(list(value.items()))) if isinstance(value, dict) else value
    return out


def mutations(action, rng):
    """Likely-illegal variants of a legal action."""
    out = [dict(action, junk=1), {k: v for k, v in action.items() if k != "type"}]
    if "cards" in action:
        cards = dict(action["cards"])
        name = rng.choice(list(cards))
        out.append(dict(action, cards=dict(cards, **{name: cards[name] + 1})))
        out.append(dict(action, cards=dict(cards, **{name: -1})))
        out.append(dict(action, cards=dict(cards, **{name: True})))
        out.append(dict(action, cards={"purple": 1}))
    if "route" in action:
        out.append(dict(action, route=str(action["route"])))
        out.append(dict(action, route=action["route"] + 1000))
    if "slot" in action:
        out.append(dict(action, slot=True))
        out.append(dict(action, slot=7))
    if "tickets" in action:
        out.append(dict(action, tickets=action["tickets"] + action["tickets"][:1]))
        out.append(dict(action, tickets="E1"))
    if "city" in action:
        out.append(dict(action, city=action["city"].upper()))
    if "warehouse" in action:
        out.append(dict(action, warehouse=action["warehouse"] + 5))
        out.append({k: v for k, v in action.items() if k != "warehouse"})
    elif action["type"] == "draw_card":
        out.append(dict(action, warehouse=0))
    if "warehouses" in action:
        out.append(dict(action, warehouses=action["warehouses"] * 2))
        out.append(dict(action, warehouses=[w + 1 for w in action["warehouses"]]))
    return out


WH = {"warehouses": True}


def ticket_pool_size(s):
    long, regular = s.var.select_tickets(s.board)
    return len(long) + len(regular)


def core_json(s):
    """The state without its log, plus the log length: equal iff nothing changed (the log is
    append-only) and much cheaper than ``to_json`` late in a game."""
    core = {k: v for k, v in s.to_dict().items() if k != "log"}
    return json.dumps(core, sort_keys=True) + str(len(s.log))


def check_conservation(s):
    cfg = s.cfg
    assert cards_total(s) == DECK[s.ruleset]
    depots = cfg.depots if s.wh else 0
    for seat in range(s.n):
        cars = sum(s.board.routes[r].length for r in s.routes_of[seat])
        assert s.trains[seat] + cars == cfg.trains and s.trains[seat] >= 0
        assert s.stations_left[seat] + len(s.stations_of[seat]) == cfg.stations
        assert all(s.station_at[c] == seat for c in s.stations_of[seat])
        assert all(s.owner[r] == seat for r in s.routes_of[seat])
        assert min(s.hands[seat]) >= 0
        left, placed = s.depots_left[seat], s.depots_of[seat]
        assert left >= 0 and left + len(placed) + s.depots_spent[seat] == depots
    # docs/rules.md 1.3.1: after every step the row shows fewer than 3 locomotives, unless
    # no row with fewer could come from the cards left (the endless-refresh Decision)
    if s.faceup.count(s.wild) >= cfg.faceup_wild_limit:
        assert not _refresh_possible(s)
        assert all(s.depot_at[c] == seat for c in placed)
    assert len(s.owner) - s.owner.count(-1) == sum(map(len, s.routes_of))
    if s.wh:
        depot_cities = {c for cities in s.depots_of for c in cities}
        assert len(s.depot_at) - s.depot_at.count(-1) == len(depot_cities)
        assert not depot_cities & {c for cities in s.stations_of for c in cities}
    else:
        assert not any(s.warehouses) and not any(s.depots_of)
    tickets = (
        s.ticket_deck
        + s.boxed
        + s.setup_returned
        + [i for t in s.tickets for i in t]
        + [i for o in s.offers if o for i in o]
    )
    assert len(tickets) == len(set(tickets)) == POOL[s.ruleset, s.variant]


def visible_ticket_ids(s, seat):
    ids = {s.board.tickets[i].id for i in s.tickets[seat] + (s.offers[seat] or [])}
    for e in s.log:
        if e["seat"] == seat and "secret" in e:
            ids |= set(TICKET_ID.findall(json.dumps(e["secret"])))
    return ids


# log entries with a public side and private facts (tickets, hands, warehouse cards)
PRIVATE_TYPES = ("deal", "deal_tickets", "keep_tickets", "draw_tickets", "take_warehouse")


def check_entries(s, entries, viewer):
    """Redacted log entries hold no other seat's private facts."""
    for e in entries:
        assert "secret" not in e
        if e["seat"] != viewer:
            assert not (e["type"] == "draw_card" and e["source"] == "deck" and "color" in e)
            assert "hand" not in e
            if e["type"] in PRIVATE_TYPES:
                assert set(e) <= {"seq", "seat", "type", "hand_count", "ticket_count",
                                  "kept_count", "returned_count", "count", "warehouse",
                                  "depots_left"}  # fmt: skip
        if e["type"] == "warehouse_card":  # its colour is secret to everyone
            assert set(e) == {"seq", "seat", "type", "warehouse"}


def check_views(s):
    over = E.is_terminal(s)
    for viewer in [None, *range(s.n)]:
        view = E.view_for(s, viewer)
        text = json.dumps(view)
        assert json.loads(text) == view  # JSON-ready
        check_entries(s, view["log"], viewer)
        if viewer is None:
            assert "you" not in view and '"hand"' not in text
        else:
            assert view["you"]["seat"] == viewer and text.count('"hand"') == 2  # + own deal
        if not over:
            allowed = set() if viewer is None else visible_ticket_ids(s, viewer)
            assert set(TICKET_ID.findall(text)) <= allowed
        assert not any("warehouse" in p for p in view["players"])  # colours: nobody's
    everything = E.view_for(s, "all")
    assert all("hand" in p for p in everything["players"])
    for p, cards in zip(everything["players"], s.warehouses, strict=True):
        assert sum(p["warehouse"].values()) == p["warehouse_count"] == len(cards)


def check_final(s):
    assert E.is_terminal(s) and E.current_seats(s) == []
    assert all(E.legal_actions(s, seat) == [] for seat in range(s.n))
    result = E.final_result(s)
    assert [p["seat"] for p in result["players"]] == list(range(s.n))
    cfg = s.cfg
    best = max(p["longest_path"] for p in result["players"])
    most = max(s.depots_left)
    for p in result["players"]:
        tickets = sum(t["points"] if t["completed"] else -t["points"] for t in p["tickets"])
        assert tickets == p["ticket_points"]
        assert p["completed_tickets"] == sum(t["completed"] for t in p["tickets"])
        assert p["score"] == (
            p["route_points"]
            + tickets
            + p["station_bonus"]
            + p["longest_path_bonus"]
            + p["attraction_points"]
            + p["depot_bonus"]
        )
        seat = p["seat"]
        assert p["route_points"] == sum(
            s.board.scoring[s.board.routes[r].length] for r in s.routes_of[seat]
        )
        assert p["station_bonus"] == cfg.station_bonus * s.stations_left[seat]
        bonus = cfg.longest_path_bonus
        assert p["longest_path_bonus"] == (bonus if best > 0 and p["longest_path"] == best else 0)
        ends = {c for r in s.routes_of[seat] for c in (s.board.routes[r].a, s.board.routes[r].b)}
        assert p["attraction_points"] == len(ends & s.board.attractions) == len(p["attractions"])
        assert p["depots_left"] == s.depots_left[seat]
        # docs/rules.md 2.7: the most unused depots, ties all get it, 0 included
        assert p["depot_bonus"] == (10 if s.wh and s.depots_left[seat] == most else 0)
        if s.ruleset == "new_york":
            assert p["longest_path"] == 0 and p["stations_built"] == 0
        path_ids = p["longest_path_routes"]
        assert set(path_ids) <= {s.board.routes[r].id for r in s.routes_of[seat]}
        assert (
            sum(s.board.routes[s.board.route_index[i]].length for i in path_ids)
            == (p["longest_path"])
        )
        assert s.scores[seat] == p["score"]
    for p in result["players"]:
        better = sum(1 for q in result["players"] if q["score"] > p["score"])
        assert p["rank"] >= better + 1


def choose(rng, legal, by_type):
    if not by_type:
        return rng.choice(legal)
    kinds = sorted({a["type"] for a in legal})
    kind = rng.choice(kinds)
    return rng.choice([a for a in legal if a["type"] == kind])


def playout(
    seed, variant, seats, *, full_every=0, fuzz_every=5, trip_every=1, ruleset="europe",
    options=None,
):  # fmt: skip
    rng = random.Random(seed)
    s = E.new_game(ruleset=ruleset, variant=variant, seats=seats, seed=seed, options=options)
    by_type = seed % 2 == 1
    logged = dict.fromkeys(["all", None, *range(seats)], 0)
    for step in range(MAX_STEPS):
        if E.is_terminal(s):
            break
        current = E.current_seats(s)
        for other in set(range(seats)) - set(current):
            assert E.legal_actions(s, other) == []
        seat = rng.choice(current)
        legal = E.legal_actions(s, seat)
        assert legal
        if step % trip_every == 0:
            assert json.loads(json.dumps(legal)) == legal
        action = choose(rng, legal, by_type)
        if fuzz_every and step % fuzz_every == 0:
            before = core_json(s)
            for bad in mutations(action, rng):
                if bad in legal:
                    continue
                with pytest.raises(E.IllegalAction):
                    E.apply_action(s, seat, bad)
            assert core_json(s) == before
        E.apply_action(s, seat, reorder(action))
        check_conservation(s)
        if step % trip_every == 0:
            text = E.to_json(s)
            assert E.to_json(E.from_json(text)) == text
        for viewer, since in logged.items():
            new = E.log_for(s, viewer, since)
            if viewer == "all":  # the others see subsets of these keys
                assert json.loads(json.dumps(new)) == new
            else:
                check_entries(s, new, viewer)
            assert [e["seq"] for e in new] == list(range(since, len(s.log)))
            logged[viewer] = len(s.log)
        if full_every and step % full_every == 0:
            check_views(s)
    else:
        pytest.fail(f"seed {seed}: no end after {MAX_STEPS} steps")
    check_final(s)
    check_views(s)
    text = E.to_json(s)
    assert E.to_json(E.from_json(text)) == text
    return s


POOL = {("europe", v): ticket_pool_size(E.new_game(variant=v)) for v in VARIANTS}
POOL["new_york", "standard"] = 18
DECK = {name: deck_size(E.new_game(ruleset=name, seats=2)) for name in E.RULESETS}
CASES = [(variant, seats) for variant in VARIANTS for seats in (2, 3, 4, 5)]
NY_SEATS = (2, 3, 4)


@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_playouts_with_full_view_checks(variant, seats):
    for seed in range(2):
        playout(seed * 1000 + seats, variant, seats, full_every=15)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_playout_sweep(variant, seats):
    # 20 cases x 25 seeds = 500 games (plus the 40 above); 5 per case with every-step trips
    for seed in range(25):
        trip = 1 if seed < 5 else 7
        playout(10_000 + seed * 7 + seats, variant, seats, fuzz_every=9, trip_every=trip)


@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_warehouse_playouts_with_full_view_checks(variant, seats):
    playout(500 + seats, variant, seats, full_every=25, options=WH)


@pytest.mark.parametrize("seats", NY_SEATS)
def test_new_york_playouts_with_full_view_checks(seats):
    for seed in range(3):
        playout(seed * 1000 + seats, "standard", seats, full_every=5, ruleset="new_york")


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seats"), CASES)
def test_warehouse_playout_sweep(variant, seats):
    # 20 cases x 15 seeds = 300 games (plus the 20 above); 2 per case with every-step trips
    for seed in range(15):
        trip = 1 if seed < 2 else 10
        playout(
            20_000 + seed * 7 + seats, variant, seats, fuzz_every=11, trip_every=trip, options=WH
        )


@pytest.mark.slow
@pytest.mark.parametrize("seats", NY_SEATS)
def test_new_york_playout_sweep(seats):
    # 300 games per player count; 30 with every-step trips
    for seed in range(300):
        trip = 1 if seed < 30 else 10
        playout(
            30_000 + seed * 7 + seats, "standard", seats, fuzz_every=11, trip_every=trip,
            ruleset="new_york",
        )  # fmt: skip
