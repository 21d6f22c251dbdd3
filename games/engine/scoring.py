"""Final scoring (docs/rules.md 1.5) and the ranking.

Terms:
- *route points*: the scoring table summed over the seat's routes (recounted at the end).
- *station assignment*: for each station of the seat, one route of ANOTHER player touching
  the station's city (or none). The same route serves every ticket. **Decision** (1.5.2): the
  engine picks the assignment maximising the ticket total, ties to the one completing more
  tickets, then to the first in route-index order.
- *candidate*: a route worth trying for a station. Two routes leading from the station's city
  into the same component of the seat's own network connect exactly the same cities, so only
  the lowest-index one per component is tried, and routes into the city's own component are
  skipped: the search is exact but small.
- *longest path*: ``graph.longest_trail`` over the seat's own routes only (1.5.4); +bonus to
  every seat tied at the maximum (when the maximum is above 0: engine decision).
- *attractions* (New York, docs/rules.md §3): the tourist attractions touched by at least one of
  the seat's routes, ``attraction_points`` (1) each. Rule sets without a longest-path bonus
  (New York) report ``longest_path`` 0 and no routes.
- *depot bonus* (Warehouses & Depots, docs/rules.md 2.7): ``depot_bonus`` (10) to every seat
  with the most depots left beside its warehouse, as the rulebook says, even when that most
  is 0 (then every seat is tied and gets it). Rules edition 1 (``editions``) gave it to
  nobody when the most was 0.
- *rank*: 1 + the number of seats strictly better by (score, completed tickets, fewer
  stations built, longest path) (1.5.5 Decision; New York: score, completed tickets, as
  nobody builds stations or has a longest path); equal keys share a rank.
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from .graph import components_of, find, longest_trail, union

if TYPE_CHECKING:
    from .state import GameState


def own_edges(state: GameState, seat: int) -> list:
    routes = state.board.routes
    return [(i, routes[i].a, routes[i].b, routes[i].length) for i in state.routes_of[seat]]


def ticket_total(parent: list, tickets) -> tuple[int, int]:
    """(ticket points, completed count) for ``tickets`` = ticket objects."""
    total = completed = 0
    for t in tickets:
        # graph.find twice, inline (path halving): called for every station assignment tried
        a = t.a
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        b = t.b
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        if a == b:
            total += t.points
            completed += 1
        else:
            total -= t.points
    return total, completed


def station_candidates(state: GameState, seat: int, city: int, base: list) -> list:
    """Route indexes worth lending at a station of ``seat`` in ``city`` (see docstring)."""
    routes = state.board.routes
    owner = state.owner
    home = find(base, city)
    seen = set()
    out = []
    for r in state.board.city_routes[city]:
        if owner[r] == -1 or owner[r] == seat:
            continue
        route = routes[r]
        other = route.b if route.a == city else route.a
        comp = find(base, other)
        if comp == home or comp in seen:
            continue
        seen.add(comp)
        out.append(r)
    return sorted(out)


def best_assignment(state: GameState, seat: int, ticket_objs) -> tuple[tuple, int, int]:
    """(route index or -1 per station, ticket points, completed) maximising the tickets."""
    return _best_assignment(state, seat, ticket_objs)[:3]


def _best_assignment(state: GameState, seat: int, ticket_objs) -> tuple[tuple, int, int, list]:
    """``best_assignment`` and the union-find parent list of the seat's network with it (so
    the tickets it completes are read off without joining it all again)."""
    n = len(state.board.cities)
    base = components_of(n, own_edges(state, seat))
    cities = state.stations_of[seat]
    choices = [station_candidates(state, seat, c, base) or [-1] for c in cities]
    routes = state.board.routes
    best = None
    for combo in product(*choices):
        parent = base[:]
        for r in combo:
            if r >= 0:
                union(parent, routes[r].a, routes[r].b)
        total, completed = ticket_total(parent, ticket_objs)
        if best is None or (total, completed) > (best[1], best[2]):
            best = (combo, total, completed, parent)
    assert best is not None  # every choice is non-empty: product() yields a combo
    return best


def _player_result(state: GameState, seat: int) -> dict:
    board = state.board
    ticket_objs = [board.tickets[i] for i in state.tickets[seat]]
    combo, total, completed, parent = _best_assignment(state, seat, ticket_objs)
    flags = [find(parent, t.a) == find(parent, t.b) for t in ticket_objs]
    if state.cfg.longest_path_bonus:
        length, trail = longest_trail(own_edges(state, seat))
    else:
        length, trail = 0, []
    built = len(state.stations_of[seat])
    names = [c.name for c in board.cities]
    reached = attractions_of(state, seat)
    return {
        "seat": seat,
        "route_points": sum(board.scoring[board.routes[i].length] for i in state.routes_of[seat]),
        "tickets": [
            {
                "id": t.id,
                "a": names[t.a],
                "b": names[t.b],
                "points": t.points,
                "completed": done,
            }
            for t, done in zip(ticket_objs, flags, strict=True)
        ],
        "ticket_points": total,
        "completed_tickets": completed,
        "stations_built": built,
        "station_bonus": state.cfg.station_bonus * (state.cfg.stations - built),
        "station_routes": [
            {"city": names[c], "route": board.routes[r].id if r >= 0 else None}
            for c, r in zip(state.stations_of[seat], combo, strict=True)
        ],
        "longest_path": length,
        "longest_path_routes": [board.routes[r].id for r in trail],
        "longest_path_bonus": 0,
        "attractions": [names[c] for c in reached],
        "attraction_points": state.cfg.attraction_points * len(reached),
        "depots": [names[c] for c in state.depots_of[seat]],
        "depots_left": state.depots_left[seat],
        "depot_bonus": 0,
    }


def attractions_of(state: GameState, seat: int) -> list:
    """City indexes of the tourist attractions the seat's routes touch, in map order."""
    attractions = state.board.attractions
    if not attractions:
        return []
    routes = state.board.routes
    touched = {c for r in state.routes_of[seat] for c in (routes[r].a, routes[r].b)}
    return sorted(touched & attractions)


def final_scores(state: GameState, reason: str) -> dict:
    """The final result (see ``games.engine.final_result``)."""
    return ranked(state, [_player_result(state, s) for s in range(state.n)], reason)


def ranked(state: GameState, players: list, reason: str) -> dict:
    """The final result from each seat's own result (``_player_result``): the bonuses
    decided between seats (longest path, most depots), the totals and the ranks."""
    bonus = state.cfg.longest_path_bonus
    longest = max(p["longest_path"] for p in players)
    most_depots = max(p["depots_left"] for p in players)
    depot_bonus_due = most_depots > 0 or state.edition_rules.depot_bonus_at_zero
    for p in players:
        if bonus and longest > 0 and p["longest_path"] == longest:
            p["longest_path_bonus"] = bonus
        if state.wh and p["depots_left"] == most_depots and depot_bonus_due:
            p["depot_bonus"] = state.cfg.depot_bonus
        p["score"] = (
            p["route_points"]
            + p["ticket_points"]
            + p["station_bonus"]
            + p["longest_path_bonus"]
            + p["attraction_points"]
            + p["depot_bonus"]
        )
    keys = [
        (p["score"], p["completed_tickets"], -p["stations_built"], p["longest_path"])
        for p in players
    ]
    for p, key in zip(players, keys, strict=True):
        p["rank"] = 1 + sum(1 for other in keys if other > key)
    return {"reason": reason, "players": players}
