"""The hard bot: medium's planner, playing for route points and tempo.

Strategy (measured with ``manage.py bot_arena`` against three medium bots): few, compatible
tickets at set-up and no more unless they are all done early; paths priced so that long
routes win (a claim costs a turn, and long routes score more per car, docs/rules.md 1.3.2); no
wasted turns on refused tunnels; then the longest open routes, extending its longest trail,
which also ends the game before ticket-heavy opponents finish.

Terms (see ``medium`` and ``planner`` for the rest):
- *pace*: cars a seat has used per turn it has played (public: cars left and the turn
  count). *turns left*: how many more turns this seat is likely to get: the fewest turns any
  seat needs at its pace to get down to ``end_trains`` cars (docs/rules.md 1.4), plus the last
  round.
- *tunnel spare*: cards of the tunnel's colour (or locomotives) kept beyond the length
  before trying a tunnel: three revealed cards ask for an extra card more often than not
  (docs/rules.md 1.3.2), and a refused tunnel wastes the turn.
- *cash-in*: near the end, cards in hand score nothing: the bot claims its most valuable
  affordable route instead of drawing.
- *ticket odds*: a ticket choice in play is valued by Monte-Carlo own playouts over sampled
  orders of the unseen cards (``montecarlo``): won points times the odds of finishing the
  plan in the turns left, lost points otherwise.
- *longest path* (docs/rules.md 1.5.4): filler routes that lengthen the seat's longest trail are
  worth more when the +10 bonus is within reach.
"""

from __future__ import annotations

from .. import phases
from ..graph import longest_trail
from . import montecarlo
from .medium import Medium, Style
from .planner import Weights, color_index, make_plan, ticket_swing

HARD = Style(
    weights=Weights(per_route=4.0, value=0.9),  # fewer, longer routes
    car_price=0.8,
    setup_price=0.8,
    setup_spare=15,
    ticket_trains=30,  # new tickets only when the first ones are done early
    tunnel_spare=1,
)
SAMPLES = 24
EARLY_PACE = 1.1  # cars per turn assumed before a seat has played a few turns
CASH_IN_TURNS = 1
END_TRAINS = 2  # the last round starts at this many cars (docs/rules.md 1.4)


class Hard(Medium):
    style = HARD

    def turn(self) -> dict:
        seen = self.seen
        if (
            not seen.final_turn()
            and "claim_route" in self.by
            and self.turns_left() <= CASH_IN_TURNS + len(self.claim_sequence())
        ):
            action = self.cash_in()
            if action:
                return action
        return super().turn()

    def claim_sequence(self) -> list:
        """Routes the hand could pay one after another (most points first), within the cars."""
        seen = self.seen
        board = seen.board
        colors = color_index(board, seen.names)
        hand = list(seen.hand)
        wild = seen.wild
        cars = seen.trains[seen.seat]
        open_routes = sorted(
            (r for r in board.routes if self.costs[r.index]),
            key=lambda r: -r.length,
        )
        out = []
        for r in open_routes:
            if r.length > cars or (r.twin >= 0 and r.twin in out):
                continue
            c = colors[r.index]
            if c < 0:
                c = max(range(wild), key=hand.__getitem__)
            own = min(hand[c], r.length - r.ferry_locomotives)
            if own + hand[wild] < r.length:
                continue
            hand[c] -= own
            hand[wild] -= r.length - own
            cars -= r.length
            out.append(r.index)
        return out

    def turns_left(self) -> float:
        """Turns this seat is likely to play still (see module docstring)."""
        seen = self.seen
        played = max(1, seen.turn // seen.n)
        best = float("inf")
        for trains in seen.trains:
            used = seen.total_trains - trains
            pace = used / played if played >= 4 else EARLY_PACE
            best = min(best, max(0.0, trains - END_TRAINS) / max(pace, 0.5))
        return best + 1

    def cash_in(self) -> dict | None:
        """The claim worth most points now (route points and tickets it completes)."""
        seen = self.seen
        board = seen.board
        best = (0.0, None)
        for action in self.by.get("claim_route", ()):
            r = board.route_index[action["route"]]
            value = board.scoring[board.routes[r].length] + ticket_swing(seen, self.costs, [r])
            value -= 0.01 * action["cards"].get(seen.names[seen.wild], 0)
            if value > best[0]:
                best = (value, action)
        return best[1]

    def ticket_value(self, kept, plan, cars: int, budget: int) -> float:
        """Kept points weighted by the odds of finishing the whole plan in time (won with
        odds p, lost otherwise), the odds lost on tickets already held, a price per car."""
        seen = self.seen
        if seen.phase == phases.SETUP:
            return super().ticket_value(kept, plan, cars, budget)
        turns = self.turns_left()
        orders = self.orders()
        p = montecarlo.odds(seen, plan.routes, turns, orders)
        blocked = {t.index for t in plan.blocked}
        value = sum(-t.points if t.index in blocked else t.points * (2 * p - 1) for t in kept)
        held_open = self.base_plan().open
        if held_open:
            p0 = montecarlo.odds(seen, self.base_plan().routes, turns, orders)
            value -= 2 * (p0 - p) * sum(t.points for t in held_open)
        return value - self.style.car_price * cars

    def orders(self) -> list:
        if not hasattr(self, "_orders"):
            self._orders = montecarlo.samples(self.seen, self.rng, SAMPLES)
        return self._orders

    def base_plan(self):
        if not hasattr(self, "_base_plan"):
            self._base_plan = make_plan(self.seen, self.seen.tickets, self.costs)
        return self._base_plan

    def filler_score(self, route) -> float:
        score = super().filler_score(route)
        return score + self.path_gain(route) * self.path_weight()

    def path_weight(self) -> float:
        """Value of one more car on the longest trail: the +10 split over the gap to the
        best opponent (docs/rules.md 1.5.4)."""
        if not hasattr(self, "_path_weight"):
            seen = self.seen
            mine = self.trail_length(seen.seat)
            best_other = max(
                (self.trail_length(s) for s in range(seen.n) if s != seen.seat), default=0
            )
            gap = best_other - mine
            reachable = gap < seen.trains[seen.seat]
            self._path_weight = 10 / max(gap + 1, 3) if reachable else 0.0
        return self._path_weight

    def trail_length(self, seat: int) -> int:
        board = self.seen.board
        edges = [
            (r.index, r.a, r.b, r.length) for r in board.routes if self.seen.owner[r.index] == seat
        ]
        return longest_trail(edges)[0]

    def path_gain(self, route) -> int:
        """How much claiming ``route`` lengthens the seat's longest trail."""
        seen = self.seen
        if not hasattr(self, "_own_edges"):
            self._own_edges = [
                (r.index, r.a, r.b, r.length)
                for r in seen.board.routes
                if seen.owner[r.index] == seen.seat
            ]
            self._own_len = longest_trail(self._own_edges)[0]
            self._own_cities = {c for e in self._own_edges for c in e[1:3]}
        if route.a not in self._own_cities and route.b not in self._own_cities:
            return 0
        edge = (route.index, route.a, route.b, route.length)
        return longest_trail([*self._own_edges, edge])[0] - self._own_len


def choose(view: dict, legal: list, rng) -> dict:
    return Hard(view, legal, rng).choose()
