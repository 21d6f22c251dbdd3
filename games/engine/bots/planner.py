"""Route planning from a seat's knowledge: shortest paths, ticket plans, card needs.

Terms:
- *weights*: how a level prices an open route in a shortest path (``Weights``): its cars plus
  a per-route overhead (a claim costs a turn), tunnel and ferry penalties, minus a discount
  for the points a long route scores beyond its cars (docs/rules.md 1.3.2 table).
- *route costs*: per route index, ``0`` for a route the seat can already use (its own, one
  whose twin it owns, another player's route touching a city where the seat has a station:
  docs/rules.md 1.3.4, one route per station, approximated), ``None`` for a route it can never use
  (claimed by another, a closed twin, longer than its cars left), else the weight.
- *plan*: unclaimed routes the seat means to claim so that its open tickets are joined,
  built greedily: tickets by points (largest first), each joined by a cheapest path in which
  routes already planned cost 0 (a Steiner-tree heuristic). *cars*: their total length.
- *blocked* ticket: open, and no path of usable routes joins its cities.
- *deficit*: cards still missing to pay for a set of routes with a hand: coloured routes need
  their colour, gray routes any one colour each (greedily the colours in surplus), ferries
  their locomotives; locomotives cover any remaining gap. *gain* of a card: how much one more
  such card lowers the deficit.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from functools import cache

from ..graph import find, union


@dataclass(frozen=True)
class Weights:
    per_route: float = 0.5
    tunnel: float = 1.0
    ferry: float = 1.0
    value: float = 0.0  # discount per point a route scores above its cars (long routes)


@dataclass
class Plan:
    routes: list = field(default_factory=list)  # route indexes to claim
    cars: int = 0
    open: list = field(default_factory=list)  # tickets the plan joins (not yet complete)
    blocked: list = field(default_factory=list)
    done: list = field(default_factory=list)


@cache
def adjacency(board) -> tuple:
    """City index -> ((route index, other city), ...)."""
    adj: list[list[tuple[int, int]]] = [[] for _ in board.cities]
    for r in board.routes:
        adj[r.a].append((r.index, r.b))
        adj[r.b].append((r.index, r.a))
    return tuple(tuple(x) for x in adj)


@cache
def color_index(board, names: tuple) -> tuple:
    """Route index -> card index of its colour (-1 for gray)."""
    idx = {name: i for i, name in enumerate(names)}
    return tuple(idx.get(r.color, -1) for r in board.routes)


def usable(seen, r: int) -> bool | None:
    """True if the seat can use route r now (owns it), False if it may claim it, None never."""
    route = seen.board.routes[r]
    owner = seen.owner[r]
    me = seen.seat
    if owner == me:
        return True
    if owner != -1:
        return True if _lent(seen, route) else None
    closed = twin_closed(route.twin, seen.owner, me, seen.single_double)
    if closed or route.length > seen.trains[me]:
        return None
    return False


def _lent(seen, route) -> bool:
    at = seen.station_at
    return at[route.a] == seen.seat or at[route.b] == seen.seat


def route_costs(seen, weights: Weights) -> list:
    """Per route index: 0, None or a weight (see module docstring; ``usable`` for every
    route at once)."""
    board = seen.board
    out: list[float | None] = list(_open_costs(board, weights))
    owner = seen.owner
    me = seen.seat
    single = seen.single_double
    cars = seen.trains[me]
    for r in board.routes:
        i = r.index
        o = owner[i]
        if o == me:
            out[i] = 0.0
        elif o != -1:
            out[i] = 0.0 if _lent(seen, r) else None
        elif r.length > cars or twin_closed(r.twin, owner, me, single):
            out[i] = None
    return out


def twin_closed(twin: int, owner: list, me: int, single: bool) -> bool:
    """Whether a route whose twin is ``twin`` is closed to seat ``me`` (``usable``; the
    rollouts' fillers too)."""
    return twin >= 0 and owner[twin] != -1 and (owner[twin] == me or single)


@cache
def _open_costs(board, weights: Weights) -> tuple:
    """Per route index: its weight as an open route (``weight``)."""
    return tuple(weight(r, weights, board.scoring) for r in board.routes)


def weight(r, weights: Weights, scoring) -> float:
    """The price of open route ``r`` in a path (see module docstring)."""
    cost = r.length + weights.per_route + weights.ferry * r.ferry_locomotives
    cost -= weights.value * (scoring[r.length] - r.length)
    return max(0.1, cost + weights.tunnel if r.tunnel else cost)


def shortest(board, costs: list, a: int, b: int) -> tuple[float, list] | None:
    """(cost, route indexes) of a cheapest path from city a to b, or None."""
    adj = adjacency(board)
    inf = float("inf")
    dist = [inf] * len(board.cities)
    via = [-1] * len(board.cities)  # city -> the route it was reached by
    dist[a] = 0.0
    heap = [(0.0, a)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, u = pop(heap)
        if u == b:
            break
        if d > dist[u]:
            continue
        for r, v in adj[u]:
            c = costs[r]
            if c is not None and (e := d + c) < dist[v]:
                dist[v] = e
                via[v] = r
                push(heap, (e, v))
    if dist[b] == inf:
        return None
    path, v = [], b
    routes = board.routes
    while v != a:
        r = via[v]
        path.append(r)
        route = routes[r]
        v = route.a if route.b == v else route.b
    return dist[b], path


def owned_components(seen, costs: list) -> list:
    """Union-find parents joining the cities of every route of cost 0."""
    board = seen.board
    parent = list(range(len(board.cities)))
    for r in board.routes:
        if costs[r.index] == 0:
            union(parent, r.a, r.b)
    return parent


def make_plan(seen, tickets, costs: list) -> Plan:
    """Greedy plan joining ``tickets`` (see module docstring)."""
    board = seen.board
    parent = owned_components(seen, costs)
    plan = Plan()
    work = list(costs)
    for t in sorted(tickets, key=lambda t: (-t.points, t.index)):
        if find(parent, t.a) == find(parent, t.b):
            plan.done.append(t)
            continue
        found = shortest(board, work, t.a, t.b)
        if found is None:
            plan.blocked.append(t)
            continue
        plan.open.append(t)
        for r in found[1]:
            if work[r]:
                work[r] = 0.0
                plan.routes.append(r)
                plan.cars += board.routes[r].length
            union(parent, board.routes[r].a, board.routes[r].b)
    return plan


def fit_plan(seen, tickets, costs: list, budget: int) -> tuple[Plan, list]:
    """A plan of at most ``budget`` cars: drop the tickets worth least per car until it fits.

    Returns (plan, dropped tickets)."""
    keep = list(tickets)
    dropped = []
    plan = make_plan(seen, keep, costs)
    while plan.cars > budget and plan.open:
        base = plan.cars
        best = None
        for t in plan.open:
            rest = [x for x in keep if x is not t]
            saved = base - make_plan(seen, rest, costs).cars
            score = t.points / max(saved, 0.5)
            if best is None or score < best[0]:
                best = (score, t)
        assert best is not None  # plan.open is not empty
        keep.remove(best[1])
        dropped.append(best[1])
        plan = make_plan(seen, keep, costs)
    return plan, dropped


def deficit(seen, hand: list, routes, tunnel_spare: int = 0) -> int:
    """Cards missing to pay for all ``routes`` with ``hand`` (see module docstring).

    ``tunnel_spare``: extra cards asked for each tunnel (to cover revealed cards)."""
    board = seen.board
    colors = color_index(board, seen.names)
    wild = seen.wild
    need = [0] * wild
    grays = []
    locos = 0
    for r in routes:
        route = board.routes[r]
        locos += route.ferry_locomotives
        rest = route.length - route.ferry_locomotives
        if route.tunnel:
            rest += tunnel_spare
        if colors[r] >= 0:
            need[colors[r]] += rest
        elif rest:
            grays.append(rest)
    wilds = hand[wild]
    missing = max(0, locos - wilds)
    wilds = max(0, wilds - locos)
    short = 0
    surplus = [0] * wild
    for c in range(wild):
        gap = need[c] - hand[c]
        if gap > 0:
            short += gap
        else:
            surplus[c] = -gap
    for length in sorted(grays, reverse=True):
        c = max(range(wild), key=surplus.__getitem__)
        used = min(surplus[c], length)
        surplus[c] -= used
        short += length - used
    return missing + max(0, short - wilds)


def gains(seen, hand: list, routes, tunnel_spare: int = 0) -> list:
    """Per card index: how much one more such card lowers the deficit of ``routes``."""
    base = deficit(seen, hand, routes, tunnel_spare)
    out = []
    for c in range(len(hand)):
        hand[c] += 1
        out.append(base - deficit(seen, hand, routes, tunnel_spare))
        hand[c] -= 1
    return out


def ticket_swing(seen, costs: list, extra_routes) -> int:
    """Ticket points gained if ``extra_routes`` were also usable (+2x each newly joined)."""
    board = seen.board
    parent = owned_components(seen, costs)
    before = [find(parent, t.a) == find(parent, t.b) for t in seen.tickets]
    for r in extra_routes:
        union(parent, board.routes[r].a, board.routes[r].b)
    gain = 0
    for t, was in zip(seen.tickets, before, strict=True):
        if not was and find(parent, t.a) == find(parent, t.b):
            gain += 2 * t.points
    return gain


def borrow_path(seen, costs: list, a: int, b: int, penalty: float = 2.0):
    """A cheapest path from a to b using at most one other player's route through a station.

    Returns (cost, own route indexes, borrowed route index, city for the station) or None;
    the station city is an end of the borrowed route with no station yet (docs/rules.md 1.3.4).
    """
    board = seen.board
    adj = adjacency(board)
    inf = float("inf")
    n = len(board.cities)
    dist = [inf] * (2 * n)
    prev: list = [None] * (2 * n)
    dist[a] = 0.0
    heap = [(0.0, a)]
    while heap:
        d, node = heapq.heappop(heap)
        if d > dist[node]:
            continue
        u, used = node % n, node // n
        if u == b:
            return _borrow_result(board, seen, prev, node, a, n, d)
        for r, v in adj[u]:
            step = _borrow_step(seen, costs, r, used, penalty)
            if step is None:
                continue
            cost, layer = step
            nxt = v + layer * n
            if d + cost < dist[nxt]:
                dist[nxt] = d + cost
                prev[nxt] = (node, r)
                heapq.heappush(heap, (d + cost, nxt))
    return None


def _borrow_step(seen, costs, r, used, penalty):
    c = costs[r]
    if c is not None:
        return c, used
    route = seen.board.routes[r]
    if used or seen.owner[r] in (-1, seen.seat):
        return None
    if seen.station_at[route.a] != -1 and seen.station_at[route.b] != -1:
        return None
    return penalty, 1


def _borrow_result(board, seen, prev, node, a, n, d):
    own, borrowed = [], -1
    while node != a:
        node_before, r = prev[node]
        if node_before // n != node // n:
            borrowed = r
        else:
            own.append(r)
        node = node_before
    if borrowed < 0:
        return None
    route = board.routes[borrowed]
    city = route.a if seen.station_at[route.a] == -1 else route.b
    return d, own, borrowed, city
