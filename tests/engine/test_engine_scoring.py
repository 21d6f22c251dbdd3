"""Longest trail and station assignment against brute force; ranking tie-breaks."""

import random
from collections import deque
from itertools import product

import pytest
from engine_testkit import give_routes, route_id, started

import games.engine as E
from games.engine.graph import longest_trail
from games.engine.rules.turns import finish
from games.engine.scoring import best_assignment


def brute_trail(edges) -> int:
    """Longest trail by trying every walk (each edge at most once)."""
    best = 0

    def walk(v, used, length):
        nonlocal best
        best = max(best, length)
        for i, (_, a, b, w) in enumerate(edges):
            if not used >> i & 1 and v in (a, b):
                walk(b if v == a else a, used | 1 << i, length + w)

    for v in {x for e in edges for x in e[1:3]}:
        walk(v, 0, 0)
    return best


def check_trail(edges, length, path):
    by_route = {e[0]: e for e in edges}
    assert len(set(path)) == len(path)
    assert sum(by_route[r][3] for r in path) == length
    if not path:
        return

    def walks_from(v):
        for r in path:
            _, a, b, _ = by_route[r]
            if v not in (a, b):
                return False
            v = b if v == a else a
        return True

    first = by_route[path[0]]
    assert walks_from(first[1]) or walks_from(first[2])


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ([], 0),
        ([(0, 0, 1, 3)], 3),
        # triangle with a tail: the tail plus the whole loop
        ([(0, 0, 1, 1), (1, 1, 2, 1), (2, 2, 0, 1), (3, 0, 3, 1)], 4),
        # figure eight through city 0 twice
        ([(0, 0, 1, 2), (1, 1, 2, 2), (2, 2, 0, 2), (3, 0, 3, 2), (4, 3, 4, 2), (5, 4, 0, 2)], 12),
        # a star: only two arms can be used
        ([(0, 0, 1, 4), (1, 0, 2, 3), (2, 0, 3, 6)], 10),
        # two parallel routes between the same cities (a loop of two)
        ([(0, 0, 1, 3), (1, 0, 1, 3), (2, 1, 2, 1)], 7),
        # two components
        ([(0, 0, 1, 2), (1, 2, 3, 5)], 5),
    ],
)
def test_longest_trail_hand_made(edges, expected):
    length, path = longest_trail(edges)
    assert length == expected == brute_trail(edges)
    check_trail(edges, length, path)


def test_longest_trail_random_graphs_against_brute_force():
    rng = random.Random(42)
    for _ in range(400):
        n = rng.randint(2, 8)
        m = rng.randint(1, 8)
        edges = []
        for r in range(m):
            a, b = rng.sample(range(n), 2)
            edges.append((r, a, b, rng.choice([1, 2, 3, 4, 6, 8])))
        length, path = longest_trail(edges)
        assert length == brute_trail(edges), edges
        check_trail(edges, length, path)


def test_longest_trail_on_europe_positions():
    s = started()
    ids = [
        route_id(s, "Paris", "Bruxelles", "red"),
        route_id(s, "Bruxelles", "Frankfurt"),
        route_id(s, "Frankfurt", "Paris", "white"),  # loop Paris-Bruxelles-Frankfurt
        route_id(s, "Paris", "Dieppe"),
        route_id(s, "Dieppe", "Brest"),
        route_id(s, "Brest", "Paris"),  # second loop through Paris
        route_id(s, "Frankfurt", "Munchen"),  # a branch
        route_id(s, "Essen", "Frankfurt"),  # another branch
    ]
    give_routes(s, 0, ids)
    from games.engine.scoring import own_edges

    edges = own_edges(s, 0)
    length, path = longest_trail(edges)
    # in by one branch, both loops (through Paris twice), out by the other: 2+7+6+2
    assert length == brute_trail(edges) == 17
    check_trail(edges, length, path)


def _bfs_connected(n, edges, a, b):
    adj = [[] for _ in range(n)]
    for x, y in edges:
        adj[x].append(y)
        adj[y].append(x)
    seen, todo = {a}, deque([a])
    while todo:
        v = todo.popleft()
        for w in adj[v]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return b in seen


def brute_assignment(s, seat, tickets):
    """Best (ticket points, completed) over every route choice for every station."""
    routes = s.board.routes
    own = [(routes[r].a, routes[r].b) for r in s.routes_of[seat]]
    choices = []
    for c in s.stations_of[seat]:
        options = [r for r in s.board.city_routes[c] if s.owner[r] not in (-1, seat)]
        choices.append(options + [None])
    best = None
    for combo in product(*choices):
        edges = own + [(routes[r].a, routes[r].b) for r in combo if r is not None]
        total = done = 0
        for t in tickets:
            if _bfs_connected(len(s.board.cities), edges, t.a, t.b):
                total, done = total + t.points, done + 1
            else:
                total -= t.points
        if best is None or (total, done) > best:
            best = (total, done)
    return best


def test_station_assignment_against_brute_force_on_random_europe_positions():
    rng = random.Random(7)
    for trial in range(150):
        s = started(seed=trial, seats=4)
        for r in range(len(s.board.routes)):
            if rng.random() < 0.6:
                s.owner[r] = rng.randrange(4)
        s.routes_of = [[r for r, o in enumerate(s.owner) if o == seat] for seat in range(4)]
        cities = rng.sample(range(len(s.board.cities)), 3)
        s.stations_of[0] = cities[: rng.randint(0, 3)]
        tickets = [s.board.tickets[i] for i in rng.sample(range(46), rng.randint(1, 6))]
        combo, total, done = best_assignment(s, 0, tickets)
        assert (total, done) == brute_assignment(s, 0, tickets)


def test_a_station_lends_one_route_for_every_ticket_and_the_best_one_is_chosen():
    s = started(seats=2)
    # seat 0 owns nothing but a station in Wien; seat 1 owns Wien-Budapest and Wien-Munchen
    give_routes(s, 1, [route_id(s, "Budapest", "Wien", "red"), route_id(s, "Munchen", "Wien")])
    s.stations_of[0] = [s.board.city_index["Wien"]]
    s.stations_left[0] = 2
    from games.engine.mapdata import Ticket

    ci = s.board.city_index
    wb = Ticket(0, "T1", ci["Wien"], ci["Budapest"], 5, "tickets", "regular", False)
    wm = Ticket(1, "T2", ci["Wien"], ci["Munchen"], 8, "tickets", "regular", False)
    combo, total, done = best_assignment(s, 0, [wb, wm])
    assert total == 8 - 5 and done == 1  # one route only: the 8-point ticket wins
    assert s.board.routes[combo[0]].id == route_id(s, "Munchen", "Wien")


def test_unclaimed_routes_give_a_station_nothing():
    s = started(seats=2)
    s.stations_of[0] = [s.board.city_index["Wien"]]
    s.tickets = [[s.board.ticket_index["E1"]], []]
    finish(s, "last_round")
    p0 = E.final_result(s)["players"][0]
    assert p0["station_routes"] == [{"city": "Wien", "route": None}]
    assert p0["tickets"][0]["completed"] is False


def _result(s):
    finish(s, "last_round")
    return E.final_result(s)["players"]


def test_longest_path_tie_gives_every_tied_player_the_bonus():
    s = started(seats=3)
    give_routes(s, 0, [route_id(s, "Brest", "Paris")])  # 3
    give_routes(s, 1, [route_id(s, "Berlin", "Wien")])  # 3
    give_routes(s, 2, [route_id(s, "Roma", "Venezia")])  # 2
    s.tickets = [[], [], []]
    p = _result(s)
    assert [x["longest_path_bonus"] for x in p] == [10, 10, 0]
    assert [x["rank"] for x in p] == [1, 1, 3]


def test_rank_tie_breaks_tickets_then_fewer_stations_then_longest_path():
    s = started(seats=4)
    s.tickets = [[], [], [], []]
    # all four end at equal scores with different tie-break keys
    give_routes(s, 0, [route_id(s, "Amsterdam", "Bruxelles")])  # Amsterdam-Bruxelles 1
    give_routes(s, 1, [route_id(s, "Budapest", "Wien", "red")])
    give_routes(s, 2, [route_id(s, "Dieppe", "Paris")])
    give_routes(s, 3, [route_id(s, "Marseille", "Zurich")])  # 2 cars, 2 points
    s.scores = [0, 0, 0, 0]
    p = _result(s)
    base = [x["score"] for x in p]
    assert base[3] == 2 + 12 + 10 and base[0] == 1 + 12
    assert [x["rank"] for x in p] == [2, 2, 2, 1]
    # same score: more completed tickets first, then fewer stations, then longest path
    s2 = started(seats=3)
    s2.tickets = [[], [], []]
    from games.engine.scoring import final_scores

    players = final_scores(s2, "x")["players"]
    assert [x["rank"] for x in players] == [1, 1, 1]  # nobody did anything: shared place
    s2.stations_of[2] = [s2.board.city_index["Wien"]]  # built one station: 8 bonus, not 12
    s2.stations_left[2] = 2
    s2.stations_left[1] = 2  # also one built (its score is lower by 4)
    s2.stations_of[1] = [s2.board.city_index["Roma"]]
    players = final_scores(s2, "x")["players"]
    assert [x["rank"] for x in players] == [1, 2, 2]


def test_ranking_key_order_is_score_tickets_stations_path():
    from games.engine import scoring

    s = started(seats=4)
    fake = [
        {"score": 50, "completed_tickets": 3, "stations_built": 1, "longest_path": 5},
        {"score": 50, "completed_tickets": 3, "stations_built": 0, "longest_path": 1},
        {"score": 50, "completed_tickets": 4, "stations_built": 3, "longest_path": 1},
        {"score": 50, "completed_tickets": 3, "stations_built": 1, "longest_path": 9},
    ]
    players = [{
        **fake[seat], "route_points": 50, "ticket_points": 0, "station_bonus": 0,
        "longest_path_bonus": 0, "attraction_points": 0, "depots_left": 0, "depot_bonus": 0,
    } for seat in range(4)]  # fmt: skip
    out = scoring.ranked(s, players, "x")["players"]
    # longest path bonus goes to seat 3 (9 cars), which then outscores everyone
    assert out[3]["score"] == 60 and out[3]["rank"] == 1
    assert [x["rank"] for x in out[:3]] == [4, 3, 2]
