"""The expert bot's worlds: determinizations of a seat's view, and how good a world is.

Terms:
- *determinization*: one full game state consistent with everything the seat's view shows
  (docs/rules.md 1.6): the public board, counts, face-up row, pending tunnel, the seat's own
  hand and tickets. The facts the seat cannot see are sampled from its own seeded rng: the
  unseen cards (other hands, warehouses, discard pile and deck order, dealt from one shuffled
  pool of every card the seat has not seen: the same *unseen pool* as ``knowledge``), the
  other seats' kept tickets and the ticket deck order (from every ticket of the variant the
  seat does not hold), and the engine's rng.
- *known cards*: what the public log tells of another seat's hand (``known_cards``): a card
  it took face up, or got back when it gave up a tunnel, is still in its hand unless it has
  played a card of that colour since. Those cards are dealt to that seat before the shuffled
  pool (about 30% of an opponent's hand in the hard bot's games, 2.8 cards on average): in
  a world where a seat that took two blue cards face up holds none, the search would take a
  contested blue route for safe from it.
- *ticket inference*: another seat's tickets are not drawn uniformly: a player keeps
  tickets its routes serve and that go together. A ticket is weighted by how many cars the
  seat's routes save on its cheapest path (``SAVED_CARS``); with long tickets dealt at
  set-up, a set holds one with odds ``LONG_KEPT``; of ``SETS`` sets so drawn, one is kept
  with odds by its worth to a player who prices cars as the hard bot does (``SET_POINTS``).
  Measured on 10 positions of hard-bot games at turn 20 (2 players, 20 worlds each, both
  seats played out by ``rollout``): the seat's mean final margin was -0.5 in the true
  states and +24.5 in its worlds with uniform tickets (the others failing tickets they
  would never have kept), +5.7 with this inference. Nothing is read from a game state: the input is
  the view only, so two games that differ only in hidden facts give the same worlds.
- *world value* (``values``): a static guess at each seat's final score in a world: points
  already scored, tickets done, open tickets weighted by the odds of finishing their plan in
  the turns left (a logistic of turns left minus turns needed), unbuilt stations, cards in
  hand (future route points, worth less as the end nears), the longest-path and depot
  bonuses to the seats leading them now. A finished game uses its final scores.
- *margin*: a seat's value minus the best other seat's; *reward*: the margin squashed into
  0..1 (about the odds of winning from there), what the search averages.
"""

from __future__ import annotations

import math

from .. import phases
from ..actions import current_seats
from ..editions import RULES_EDITION
from ..graph import longest_trail
from ..mapdata import load_map
from ..rulesets import RULESETS
from ..search import clone as engine_clone
from ..state import STATE_VERSION, GameState, detach_log
from ..views import view_for
from . import planner
from .hard import HARD
from .knowledge import read

MARGIN_SCALE = 10.0  # points of margin that move the reward from 0.5 to about 0.73
# points a card in hand is worth while a few turns are left: a turn draws 2 cards or claims
# a route, so a 3-car route (4 points) and two cards are worth the same (4 - 3v = 2v)
HAND_VALUE = 0.8
TICKET_SLOPE = 1.5  # turns of slack that take a plan's odds from 0.5 to about 0.66
# the other seats' tickets: a ticket is exp(cars its path saves by the seat's routes / this)
# times as likely as one they do not help (saves counted up to SAVED_CAP cars); one no path
# joins any more this many times
SAVED_CARS = 2.0
SETS = 12  # ticket sets drawn per other seat and world, one of them kept
# a set is e times less likely than another worth this many points more to a player who
# prices cars as the hard bot does (ticket points minus a price per car of its plan)
SET_POINTS = 4.0
SET_BEYOND = 20.0
# a variant that deals long tickets at set-up: the share of seats that kept theirs (the hard
# bot's games: about 0.6); the other tickets are regular ones
LONG_KEPT = 0.6
SAVED_CAP = 15.0
BLOCKED_WEIGHT = 0.3
EARLY_PACE = 1.1  # cars per turn before a seat has played a few turns (as ``hard``)


def clone(state: GameState) -> GameState:
    """A copy of ``state`` that shares nothing mutable with it, without its log (numbering
    goes on): what a search plays on."""
    out = engine_clone(state)
    detach_log(out)
    return out


def determinize(view: dict, rng) -> GameState:
    """One state consistent with ``view`` (a seat's view), hidden facts sampled by ``rng``."""
    cfg = RULESETS[view["ruleset"]]
    board = load_map(cfg.map_name)
    names = cfg.card_names
    index = {name: i for i, name in enumerate(names)}
    you = view["you"]
    me = you["seat"]
    n = view["seats"]
    players = view["players"]
    s = GameState.__new__(GameState)
    values = {
        "version": STATE_VERSION,
        "edition": RULES_EDITION,
        "ruleset": view["ruleset"],
        "variant": view["variant"],
        "options": dict(view["options"]),
        "n": n,
        "seed": 0,
        "rng": rng.getrandbits(64),
        "phase": view["phase"],
        "turn": view["turn"],
        "current": _current(view),
        "first": view["first_seat"],
        "trains": [p["trains_left"] for p in players],
        "stations_left": [p["stations_left"] for p in players],
        "scores": [p["score"] for p in players],
        "passes": 0,
        "log": [],
        "log_base": 0,
        "final": None,
        "setup_returned": [],
    }
    for name, value in values.items():
        setattr(s, name, value)
    s.bind()
    _board(s, view, board)
    _cards(s, view, index, rng)
    _tickets(s, view, board, rng)
    s.tunnel = _tunnel(view, board, index) if s.phase == phases.TUNNEL else None
    last = view["last_round"]
    s.last_round = last["triggered_by"] if last["active"] else -1
    s.turns_left = last["turns_left"] if last["active"] else 0
    s.faceup = [index[c] if c is not None else -1 for c in view["faceup"]]
    assert me == s.current or s.phase == phases.SETUP
    return s


def _current(view: dict) -> int:
    seats = view["current_seats"]
    return seats[0] if seats and view["phase"] != phases.SETUP else -1


def _board(s: GameState, view: dict, board) -> None:
    n = s.n
    s.owner = [-1] * len(board.routes)
    s.station_at = [-1] * len(board.cities)
    s.depot_at = [-1] * len(board.cities)
    s.routes_of = [[] for _ in range(n)]
    s.stations_of = [[] for _ in range(n)]
    s.depots_of = [[] for _ in range(n)]
    for p in view["players"]:
        seat = p["seat"]
        for rid in p["routes"]:
            r = board.route_index[rid]
            s.owner[r] = seat
            s.routes_of[seat].append(r)
        for city in p["stations"]:
            ci = board.city_index[city]
            s.station_at[ci] = seat
            s.stations_of[seat].append(ci)
        for city in p["depots"]:
            ci = board.city_index[city]
            s.depot_at[ci] = seat
            s.depots_of[seat].append(ci)
    s.depots_left = [p["depots_left"] for p in view["players"]]
    full = s.cfg.depots if s.wh else 0
    s.depots_spent = [max(0, full - p["depots_left"] - len(p["depots"])) for p in view["players"]]


def _cards(s: GameState, view: dict, index: dict, rng) -> None:
    """Own hand as shown; every unseen card shuffled and dealt to the hidden places."""
    cfg = s.cfg
    wild = cfg.n_colors
    pool_counts = [cfg.cards_per_color] * wild + [cfg.wild_cards]
    me = view["you"]["seat"]
    hand = [0] * (wild + 1)
    for name, k in view["you"]["hand"].items():
        hand[index[name]] += k
    seen = list(hand)
    for c in view["faceup"]:
        if c is not None:
            seen[index[c]] += 1
    pending = view["pending"]
    if pending and pending["type"] == "tunnel":
        for name, k in pending["played"].items():
            seen[index[name]] += k
        for name in pending["revealed"]:
            seen[index[name]] += 1
    left = [max(0, k - seen[c]) for c, k in enumerate(pool_counts)]
    dealt = _known_first(view, left)
    pool = [c for c, k in enumerate(left) for _ in range(k)]
    rng.shuffle(pool)
    s.hands = []
    s.warehouses = []
    for p, (h, room) in zip(view["players"], dealt, strict=True):
        if p["seat"] == me:
            s.hands.append(hand)
        else:
            for _ in range(min(room, len(pool))):
                h[pool.pop()] += 1
            s.hands.append(h)
    for p in view["players"]:
        k = min(p["warehouse_count"], len(pool))
        s.warehouses.append([pool.pop() for _ in range(k)])
    k = min(view["discard_count"], len(pool))
    s.discard = [pool.pop() for _ in range(k)]
    s.deck = pool  # whatever is left: the deck, in sampled order


def _known_first(view: dict, left: list) -> list:
    """Per seat, (the cards it is known to hold, how many more its hand has): the cards
    another seat took face up (or got back from a tunnel) are dealt to it before the
    shuffled pool (``left``: the unseen cards by index, reduced by what is dealt here)."""
    known = known_cards(view)
    me = view["you"]["seat"]
    out = []
    for p in view["players"]:
        h = [0] * len(left)
        room = p["hand_count"]
        if p["seat"] != me and known is not None:
            for c, k in enumerate(known[p["seat"]]):
                k = min(k, left[c], room)
                h[c] = k
                left[c] -= k
                room -= k
        out.append((h, room))
    return out


# (the last view read by ``known_cards``, what it found): one tuple, replaced whole, so
# that threads deciding at once never pair one view with another's cards
_KNOWN: list = [(None, None)]


def known_cards(view: dict) -> list | None:
    """Per seat, card counts by card index that its hand is known to hold from the public
    entries of the view's log: a card taken face up, a tunnel's cards given back on a
    decline; a card of that colour played (a claim, a tunnel, a station) leaves the
    count, the smaller one if the seat had others too. Any stretch of the log gives true
    counts (each is the least the hand holds), the whole log the most. None without a log.
    The last view's result is kept: every world of a decision reads the same view."""
    last, found = _KNOWN[0]
    if last is view:
        return found
    log = view.get("log")
    if not log:
        return None
    names = RULESETS[view["ruleset"]].card_names
    index = {name: i for i, name in enumerate(names)}
    out = [[0] * len(names) for _ in range(view["seats"])]
    played: dict[int, dict] = {}  # seat -> cards of its tunnel attempt, until it ends

    def spend(seat: int, cards: dict) -> None:
        row = out[seat]
        for name, k in cards.items():
            c = index[name]
            row[c] = max(0, row[c] - k)

    for e in log:
        kind = e["type"]
        seat = e.get("seat")
        if kind == "draw_card":
            if e["source"] == "faceup":
                out[seat][index[e["color"]]] += 1
        elif kind in ("claim_route", "pay_tunnel", "build_station"):
            spend(seat, e["cards"])
        elif kind == "tunnel_attempt":
            spend(seat, e["cards"])
            played[seat] = e["cards"]
        elif kind == "decline_tunnel":
            for name, k in played.pop(seat, {}).items():
                out[seat][index[name]] += k
    _KNOWN[0] = (view, out)
    return out


def _tickets(s: GameState, view: dict, board, rng) -> None:
    """Own tickets as shown; other seats' tickets and the ticket deck from the rest."""
    me = view["you"]["seat"]
    index = board.ticket_index
    mine = [index[t["id"]] for t in view["you"]["tickets"]]
    offer = view["you"]["offered_tickets"]
    offered = [index[t["id"]] for t in offer] if offer is not None else None
    known = set(mine) | set(offered or ())
    long, regular = s.var.select_tickets(board)
    rest = [t for t in (*long, *regular) if t not in known]
    longs = set(long)
    rng.shuffle(rest)
    s.tickets = []
    s.offers = []
    owner = tuple(s.owner)
    for p in view["players"]:
        if p["seat"] == me:
            s.tickets.append(mine)
            s.offers.append(offered)
            continue
        held = _held(board, p, owner, rest, longs if s.var.setup_long else set(), rng)
        for t in held:
            rest.remove(t)
        s.tickets.append(held)
        count = p["offered_count"]
        s.offers.append([rest.pop() for _ in range(min(count, len(rest)))] if count else None)
    k = min(view["ticket_deck_count"], len(rest))
    s.ticket_deck = rest[len(rest) - k :]
    s.boxed = rest[: len(rest) - k]


def _seat_guess(board, routes: list, owner: tuple) -> tuple:
    """(ticket weights, plan costs, plan cars by ticket set) of a seat that claimed
    ``routes``. A ticket's weight is how likely the seat holds it, relative to one its
    routes do not help (see module docstring): ``exp(cars saved / SAVED_CARS)``, where the
    cars saved are how much shorter the ticket's cheapest path over the routes not claimed
    by others is when the seat's own routes cost nothing. The plan costs are the seat's for
    ``planner.make_plan``: its own routes free, the others' closed, open ones priced with
    the hard bot's weights (stations left out); the third, filled by ``_held``, holds the
    cars of each set's plan. Kept per board, routes and owners (the same for every world of
    a decision, and mostly for the next decisions too)."""
    key = (board.name, tuple(routes), owner)
    found = _WEIGHTS.get(key)
    if found is not None:
        return found
    mine = {board.route_index[rid] for rid in routes}
    base = [None if o >= 0 else float(r.length) for r, o in zip(board.routes, owner, strict=True)]
    own = [0.0 if r.index in mine else c for r, c in zip(board.routes, base, strict=True)]
    out = {}
    for t in board.tickets:
        before = planner.shortest(board, base, t.a, t.b)
        after = planner.shortest(board, own, t.a, t.b)
        if after is None:
            out[t.index] = BLOCKED_WEIGHT
            continue
        saved = (before[0] if before else after[0] + SAVED_CAP) - after[0]
        out[t.index] = math.exp(min(saved, SAVED_CAP) / SAVED_CARS)
    weights, scoring = HARD.weights, board.scoring
    costs = [
        0.0 if r.index in mine else None if c is None else planner.weight(r, weights, scoring)
        for r, c in zip(board.routes, base, strict=True)
    ]
    if len(_WEIGHTS) > 256:
        _WEIGHTS.clear()
    _WEIGHTS[key] = found = (out, costs, {})
    return found


_WEIGHTS: dict = {}


def _held(board, player: dict, owner: tuple, rest: list, longs: set, rng) -> list:
    """Tickets for another seat (``player``: its part of the view) from ``rest`` (see the
    module docstring): ``SETS`` sets drawn ticket by ticket with ``_seat_guess``'s weights, a long
    one first with odds ``LONG_KEPT`` if ``longs`` are dealt apart, then one set drawn with
    weight ``exp((worth - best worth) / SET_POINTS)``, its worth being its points minus the
    hard bot's price of its plan's cars (a plan beyond the seat's cars left: ``SET_BEYOND``
    times less likely)."""
    count = min(player["ticket_count"], len(rest))
    if not count:
        return []
    weight, costs, cars_of = _seat_guess(board, player["routes"], owner)
    sets, worths = [], []
    pools = ([t for t in rest if t in longs], [t for t in rest if t not in longs])
    for _ in range(SETS):
        chosen = []
        if pools[0] and rng.random() < LONG_KEPT:
            chosen.append(_pick(list(pools[0]), [weight[t] for t in pools[0]], rng))
        pool = list(pools[1])
        weights = [weight[t] for t in pool]
        chosen += [_pick(pool, weights, rng) for _ in range(min(count - len(chosen), len(pool)))]
        # a plan does not depend on the order of its tickets: one per set, kept with the costs
        ticket_set = tuple(sorted(chosen))
        cars = cars_of.get(ticket_set)
        if cars is None:
            tickets = [board.tickets[t] for t in ticket_set]
            cars = cars_of[ticket_set] = planner.make_plan(_BoardOnly(board), tickets, costs).cars
        sets.append(chosen)
        worth = sum(board.tickets[t].points for t in chosen) - HARD.setup_price * cars
        if cars > player["trains_left"]:
            worth -= SET_POINTS * math.log(SET_BEYOND)
        worths.append(worth)
    best = max(worths)
    return sets[_pick(list(range(SETS)), [math.exp((w - best) / SET_POINTS) for w in worths], rng)]


class _BoardOnly:
    """What ``planner.make_plan`` reads of a seat's knowledge: the board."""

    __slots__ = ("board",)

    def __init__(self, board) -> None:
        self.board = board


def _pick(items: list, weights: list, rng):
    """Remove one of ``items`` drawn with ``weights`` (and its weight) and return it."""
    x = rng.random() * sum(weights)
    i = 0
    while i < len(weights) - 1:
        x -= weights[i]
        if x < 0:
            break
        i += 1
    weights.pop(i)
    return items.pop(i)


def _tunnel(view: dict, board, index: dict) -> dict:
    p = view["pending"]
    played = [0] * len(index)
    for name, k in p["played"].items():
        played[index[name]] += k
    return {
        "route": board.route_index[p["route"]],
        "played": played,
        "revealed": [index[c] for c in p["revealed"]],
        "extra": p["extra"],
        "color": index[p["color"]],
        "warehouses": list(p["warehouses"]),
    }


# --- how good a world is --------------------------------------------------------------------


def values(state: GameState) -> list:
    """Each seat's guessed final score in ``state`` (see module docstring)."""
    if state.phase == phases.OVER:
        return [float(p["score"]) for p in state.final["players"]]
    n = state.n
    cfg = state.cfg
    turns = turns_left(state)
    out = []
    for seat in range(n):
        seen = read(view_for(state, seat, log_since=state.log_base + len(state.log)))
        v = float(state.scores[seat])
        v += _ticket_value(seen, turns)
        v += cfg.station_bonus * state.stations_left[seat]
        v += HAND_VALUE * min(sum(state.hands[seat]), state.trains[seat]) * min(1.0, turns / 4)
        out.append(v)
    _bonus(out, _trails(state), cfg.longest_path_bonus)
    if state.wh:
        _bonus(out, state.depots_left, cfg.depot_bonus)
    return out


def _bonus(out: list, measure: list, points: int) -> None:
    if not points:
        return
    best = max(measure)
    for seat, m in enumerate(measure):
        if m == best:
            out[seat] += points


def _trails(state: GameState) -> list:
    board = state.board
    out = []
    for routes in state.routes_of:
        edges = [(r, board.routes[r].a, board.routes[r].b, board.routes[r].length) for r in routes]
        out.append(longest_trail(edges)[0] if edges else 0)
    return out


def turns_left(state: GameState) -> float:
    """Turns each seat is still likely to get (the fewest any seat needs at its pace)."""
    if state.last_round >= 0:
        return 1.0
    played = max(1, state.turn // state.n)
    best = float("inf")
    for trains in state.trains:
        used = state.cfg.trains - trains
        pace = used / played if played >= 4 else EARLY_PACE
        best = min(best, max(0.0, trains - state.cfg.end_trains) / max(pace, 0.5))
    return best + 1


def _ticket_value(seen, turns: float) -> float:
    costs = planner.route_costs(seen, planner.Weights())
    plan = planner.make_plan(seen, seen.tickets, costs)
    value = float(sum(t.points for t in plan.done) - sum(t.points for t in plan.blocked))
    if not plan.open:
        return value
    short = planner.deficit(seen, list(seen.hand), plan.routes)
    need = len(plan.routes) + short / 2
    p = 1 / (1 + math.exp(-(turns - need) / TICKET_SLOPE))
    if plan.cars > seen.trains[seen.seat]:
        p *= 0.1
    return value + sum(t.points * (2 * p - 1) for t in plan.open)


def reward(vals: list, seat: int) -> tuple[float, float]:
    """(reward in 0..1, margin) of ``seat`` (see module docstring)."""
    others = [v for s, v in enumerate(vals) if s != seat]
    margin = vals[seat] - max(others)
    return 1 / (1 + math.exp(-margin / MARGIN_SCALE)), margin


__all__ = ["clone", "current_seats", "determinize", "reward", "turns_left", "values"]
