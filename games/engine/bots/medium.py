"""The medium bot: builds toward its tickets along cheapest paths and draws what it needs.

Terms (see ``planner`` for plans, deficits and gains):
- *style*: the knobs a level turns (``Style``); ``hard`` reuses this bot with its own style
  and overrides a few decisions.
- *filler*: when every ticket is done (or dead) and no new tickets are wanted, the bot spends
  its cars on the longest open routes it can afford (more points per car, docs/rules.md 1.3.2).
- *rescue*: a blocked ticket whose cities a station could join (one other player's route
  lent at the end, docs/rules.md 1.3.4, 1.5.2): the bot builds that station.
- *final turn*: once the last round is on, every seat has exactly one turn left (docs/rules.md
  1.4): the bot takes the single action worth most points now.

Decisions per phase: ``setup``/``tickets`` keep tickets (value = points minus a price per
car of the plan they add, with a penalty past the cars the seat can spare); ``tunnel`` pays
when it can (the bot only claims routes it wants); ``turn``/``draw2`` as above.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import phases
from . import planner
from .knowledge import read
from .planner import Weights


@dataclass(frozen=True)
class Style:
    weights: Weights = field(default_factory=Weights)
    car_price: float = 0.5  # ticket value lost per car its plan adds (in play)
    setup_price: float = 0.5  # the same at the set-up choice
    setup_spare: int = 12  # cars kept out of the set-up ticket budget
    play_spare: int = 4  # cars kept out of a later ticket budget
    ticket_trains: int = 14  # draw tickets when all are done and this many cars remain
    borrow_penalty: float = 2.0
    tunnel_spare: int = 0  # spare cards wanted before trying a tunnel
    ticket_plan_cars: int = 0  # draw new tickets once the plan needs at most this many cars


class Medium:
    style = Style()

    def __init__(self, view: dict, legal: list, rng):
        self.view = view
        self.seen = read(view)
        self.legal = legal
        self.rng = rng
        self.by: dict[str, list] = {}
        for action in legal:
            self.by.setdefault(action["type"], []).append(action)
        self.costs = planner.route_costs(self.seen, self.style.weights)
        self._plan: planner.Plan | None = None

    # --- entry point ---------------------------------------------------------------------
    def choose(self) -> dict:
        phase = self.seen.phase
        if "keep_tickets" in self.by:
            return self.keep_tickets()
        if phase == phases.TUNNEL:
            return self.tunnel()
        if phase == phases.DRAW2:
            return self.draw(self.targets(), second=True)
        return self.turn()

    def plan(self):
        """The plan for the seat's tickets that fits in its cars (cached per decision)."""
        if self._plan is None:
            seen = self.seen
            budget = seen.trains[seen.seat]
            self._plan = planner.fit_plan(seen, seen.tickets, self.costs, budget)[0]
        return self._plan

    def targets(self) -> list:
        """Routes the seat is collecting cards for now."""
        routes = self.plan().routes
        return routes if routes else self.filler_targets()

    # --- a whole turn --------------------------------------------------------------------
    def turn(self) -> dict:
        plan = self.plan()
        if self.seen.final_turn():
            return self.final_move()
        action = self.rescue(plan) or self.claim_for(plan.routes)
        if action:
            return action
        if plan.cars <= self.style.ticket_plan_cars and self.want_tickets():
            return {"type": "draw_tickets"}
        if not plan.routes:
            action = self.claim_for(self.filler_targets())
            if action:
                return action
        return self.draw(self.targets(), second=False)

    def want_tickets(self) -> bool:
        seen = self.seen
        return (
            "draw_tickets" in self.by
            and not seen.last_round.get("active")
            and seen.trains[seen.seat] >= self.style.ticket_trains
        )

    def filler_targets(self) -> list:
        """The few best open routes the seat could still afford with its cars."""
        seen = self.seen
        scored = [
            (self.filler_score(r), r.index)
            for r in seen.board.routes
            if self.costs[r.index] is not None and self.costs[r.index] != 0
        ]
        scored.sort(reverse=True)
        return [r for _, r in scored[:3]]

    def filler_score(self, route) -> float:
        """Points of the route, plus a little for the cards already in hand for it."""
        seen = self.seen
        hand = seen.hand
        wild = seen.wild
        c = planner.color_index(seen.board, seen.names)[route.index]
        have = hand[wild] + (hand[c] if c >= 0 else max(hand[:wild]))
        return seen.board.scoring[route.length] + 2 * min(have, route.length) / route.length

    # --- claiming ------------------------------------------------------------------------
    def claim_for(self, routes) -> dict | None:
        """The best legal claim of one of ``routes`` (least deficit left, longest), or None."""
        wanted = set(routes)
        if not wanted:
            return None
        board = self.seen.board
        best = None
        for action in self.by.get("claim_route", ()):
            r = board.route_index[action["route"]]
            if r not in wanted or not self.tunnel_ready(r, action["cards"]):
                continue
            rest = [x for x in routes if x != r]
            short, locos = self.payment_key(action["cards"], rest)
            key = (short, -board.routes[r].length, locos)
            if best is None or key < best[0]:
                best = (key, action)
        return best[1] if best else None

    def tunnel_ready(self, r: int, cards: dict) -> bool:
        """Whether the hand keeps enough spare cards to try tunnel r with ``cards``."""
        spare = self.style.tunnel_spare
        seen = self.seen
        if not spare or not seen.board.routes[r].tunnel:
            return True
        index = {name: i for i, name in enumerate(seen.names)}
        wild = seen.wild
        colors = [index[name] for name in cards if index[name] != wild]
        left = seen.hand[wild] - cards.get(seen.names[wild], 0)
        if colors:
            left += seen.hand[colors[0]] - cards[seen.names[colors[0]]]
        return left >= spare

    def payment_key(self, cards: dict, rest) -> tuple:
        """(deficit of ``rest`` after paying ``cards``, locomotives used)."""
        seen = self.seen
        hand = list(seen.hand)
        index = {name: i for i, name in enumerate(seen.names)}
        for name, k in cards.items():
            hand[index[name]] -= k
        spare = self.style.tunnel_spare
        return planner.deficit(seen, hand, rest, spare), cards.get(seen.names[seen.wild], 0)

    def best_payment(self, actions: list, rest) -> dict:
        return min(actions, key=lambda a: self.payment_key(a["cards"], rest))

    # --- stations ------------------------------------------------------------------------
    def rescue(self, plan) -> dict | None:
        """Build a station for the most valuable blocked ticket a station can save."""
        builds = self.by.get("build_station")
        seen = self.seen
        if not builds or not plan.blocked:
            return None
        spare = seen.trains[seen.seat] - plan.cars
        for t in sorted(plan.blocked, key=lambda t: -t.points):
            if t.points < 5:
                continue
            found = planner.borrow_path(seen, self.costs, t.a, t.b, self.style.borrow_penalty)
            if found is None:
                continue
            cars = sum(seen.board.routes[r].length for r in found[1] if self.costs[r])
            if cars > spare:
                continue
            name = seen.board.cities[found[3]].name
            options = [a for a in builds if a["city"] == name]
            if options:
                return self.best_payment(options, plan.routes)
        return None

    # --- drawing cards -------------------------------------------------------------------
    def draw(self, routes, second: bool) -> dict:
        draws = self.by.get("draw_card")
        if not draws:
            return self.fallback()
        seen = self.seen
        gains = self.card_gains(routes)
        pool = seen.unseen()
        total = sum(pool) or 1
        blind = sum(g * k for g, k in zip(gains, pool, strict=True)) / total
        deck = next((a for a in draws if a["source"] == "deck"), None)
        faceups = [a for a in draws if a["source"] == "faceup"]
        index = {name: i for i, name in enumerate(seen.names)}
        colored = [a for a in faceups if index[a["color"]] != seen.wild]
        best = max(colored, key=lambda a: gains[index[a["color"]]], default=None)
        best_gain = gains[index[best["color"]]] if best else 0.0
        loco = next((a for a in faceups if index[a["color"]] == seen.wild), None)
        if loco and not second and takes_locomotive(gains[seen.wild], best_gain, blind):
            return loco
        if best is not None and (best_gain > blind or deck is None):
            return best
        return deck or best or loco or self.fallback()

    def card_gains(self, routes) -> list:
        """How useful one more card of each index is (deficit gains; else hoard a colour)."""
        seen = self.seen
        spare = self.style.tunnel_spare
        gains = [float(g) for g in planner.gains(seen, list(seen.hand), routes, spare)]
        if any(gains):
            return gains
        hand = seen.hand
        top = max(range(seen.wild), key=lambda c: hand[c])
        out = [0.1] * len(hand)
        out[top] = 0.5
        return out

    # --- tickets -------------------------------------------------------------------------
    def keep_tickets(self) -> dict:
        return self.ranked_keeps()[0]

    def ranked_keeps(self) -> list:
        """The ticket options, best first by ``ticket_value`` (ties: the order listed)."""
        seen = self.seen
        options = self.by["keep_tickets"]
        held = seen.tickets
        base = planner.make_plan(seen, held, self.costs)
        if seen.phase == phases.SETUP:
            budget = seen.total_trains - self.style.setup_spare
        else:
            budget = seen.trains[seen.seat] - base.cars - self.style.play_spare
        index = seen.board.ticket_index
        valued = []
        for action in options:
            kept = [seen.board.tickets[index[tid]] for tid in action["tickets"]]
            plan = planner.make_plan(seen, held + kept, self.costs)
            value = self.ticket_value(kept, plan, plan.cars - base.cars, budget)
            if seen.phase == phases.SETUP:
                value += (self.style.car_price - self.style.setup_price) * plan.cars
            valued.append((value, action))
        valued.sort(key=lambda v: -v[0])  # stable: ties keep the order listed
        return [action for _, action in valued]

    def ticket_value(self, kept, plan, cars: int, budget: int) -> float:
        blocked = {t.index for t in plan.blocked}
        points = sum(-t.points if t.index in blocked else t.points for t in kept)
        over = max(0, cars - budget)
        risk = min(1.0, over / 8)
        return points * (1 - 2 * risk) - self.style.car_price * cars

    # --- tunnels and the last turn -------------------------------------------------------
    def tunnel(self) -> dict:
        pays = self.by.get("pay_tunnel")
        if not pays:
            return {"type": "decline_tunnel"}
        return self.best_payment(pays, self.plan().routes)

    def final_move(self) -> dict:
        """The action worth most points right now (docs/rules.md 1.4: no later turn)."""
        seen = self.seen
        board = seen.board
        best: tuple[float, dict | None] = (0.0, None)
        for action in self.by.get("claim_route", ()):
            r = board.route_index[action["route"]]
            value = board.scoring[board.routes[r].length]
            value += planner.ticket_swing(seen, self.costs, [r])
            value -= 0.01 * action["cards"].get(seen.names[seen.wild], 0)
            if value > best[0]:
                best = (value, action)
        action = self.final_station(best[0])
        if action:
            return action
        if best[1]:
            return best[1]
        draws = self.by.get("draw_card")
        return draws[0] if draws else self.fallback()

    def final_station(self, to_beat: float) -> dict | None:
        seen = self.seen
        builds = self.by.get("build_station")
        if not builds:
            return None
        bonus = 4  # an unbuilt station scores 4 (docs/rules.md 1.5.3)
        best: tuple[float, dict | None] = (to_beat, None)
        board = seen.board
        for city in {a["city"] for a in builds}:
            ci = board.city_index[city]
            lent = [r for r in board.city_routes[ci] if seen.owner[r] not in (-1, seen.seat)]
            swing = max((planner.ticket_swing(seen, self.costs, [r]) for r in lent), default=0)
            if swing - bonus > best[0]:
                options = [a for a in builds if a["city"] == city]
                best = (swing - bonus, self.best_payment(options, []))
        return best[1]

    def fallback(self) -> dict:
        for kind in ("draw_card", "claim_route", "draw_tickets", "build_station", "pass"):
            if kind in self.by:
                return self.by[kind][0]
        return self.legal[0]


def takes_locomotive(loco_gain: float, best_gain: float, blind: float) -> bool:
    """Whether to draw a face-up locomotive (gains as ``Medium.card_gains``): it is the whole
    draw, worth it only against two weak cards (the rollouts' draw too)."""
    return loco_gain > 0 and loco_gain >= max(best_gain, blind) + blind + 0.25


def choose(view: dict, legal: list, rng) -> dict:
    return Medium(view, legal, rng).choose()
