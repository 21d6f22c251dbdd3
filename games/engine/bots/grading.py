"""Post-game analysis: grading the players' decisions and each seat's chance to win.

Terms:
- *step*: as on the replay page, step 0 is the deal and step ``k`` the state after the
  game's ``k``-th accepted action; the decision of step ``k`` is that action, taken in the
  state of step ``k - 1``.
- *graded decision*: a decision of a seat in ``human_seats`` with more than one legal
  action (a forced move is not a choice; bot seats are not graded).
- *evaluator*: ``evaluator(state, seat, legal, played, budget, seed) -> Evaluation``: the
  estimated value of the action played and of the one the evaluator prefers, in points of
  *margin* (the seat's final score minus the best other seat's). It must judge the decision
  from what ``seat`` could see: ``playout_evaluator`` keeps only that (``determinize``: the
  cards the public log shows another seat holds stay in its hand, the rest is resampled), the
  expert's search reads ``view_for(state, seat)`` only (``expert_evaluator``). So no other
  seat's hidden cards or tickets reach a seat's marks. ``EVALUATORS["expert"]`` (the site's
  default) is the expert's search, with the playouts for the moves it does not search.
- *loss*: preferred value minus played value, made cautious: the paired mean minus one
  standard error (a noisy difference is not called a mistake), never below 0. At least
  ``INACCURACY`` points is an *inaccuracy* (``?!``), at least ``MISTAKE`` a *mistake* (``?``).
- *win chances* after a step: the share of playouts each seat wins (rank 1; a shared first
  place is split) from a determinization that keeps every hand and ticket as they were (the
  game is over, so they are public now) and resamples only the future: the deck, the discard
  pile, the warehouses and the ticket deck, and the engine's rng. So the graph never knows
  which cards were going to come, only what everyone held. Each step's chances sum to 1.
  A step keeps the playouts of the steps before it too, each step back weighing
  ``CHANCE_MEMORY`` times less (``ChancePool``): one step's few playouts alone made the graph
  jump by 0.18 a step on average (2 players, 0.2 s a step, about 9 playouts), pooled by 0.04;
  a decisive move still shows at once, in full within a few steps. Only steps before it are
  pooled, so a step's chances still know nothing of what came after it.
- *budget*: ``Budget(seconds, playouts)``: a decision (and a step's win chances) stops
  sampling after ``seconds`` of this thread's CPU time or ``playouts`` samples, whichever
  comes first, after at least one sample (``seconds=None``: the count alone, reproducible).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import phases
from ..actions import apply_action, current_seats, legal_actions
from ..setup import new_game
from ..state import GameState, log_length
from ..views import view_for
from . import choose_action
from .expert_world import clone, known_cards

INACCURACY = 6.0  # points of margin lost: "?!"
MISTAKE = 15.0  # points of margin lost: "?"
ROLLOUT_LEVEL = "medium"  # the policy of every seat in a playout (fast: ~25 ms a half game)
PLAYOUT_DECISIONS = 2000  # a playout that has not ended by then is scored where it stands
CHANCE_MEMORY = 0.75  # the weight a step's win chances give the playouts of the step before


@dataclass(frozen=True)
class Budget:
    seconds: float | None = 0.2
    playouts: int | None = None

    def spent(self, start: float, samples: int) -> bool:
        if samples < 1:
            return False
        if self.playouts is not None and samples >= self.playouts:
            return True
        return self.seconds is not None and time.thread_time() - start >= self.seconds


@dataclass
class Evaluation:
    """What an evaluator says of one decision (values in points of margin)."""

    played: float
    best: float
    best_action: dict
    samples: int
    diff_se: float = 0.0  # standard error of (best - played), 0 when unknown
    extra: dict = field(default_factory=dict)

    @property
    def loss(self) -> float:
        return max(0.0, self.best - self.played - self.diff_se)


Evaluator = Callable[..., "Evaluation | None"]


def determinize(
    state: GameState, seat: int | None, rng: random.Random, known: list | None = None
) -> GameState:
    """A copy of ``state`` with what ``seat`` cannot see resampled (``None``: only the future:
    deck, discard, warehouses, ticket deck). Counts and every public fact stay as they are.
    ``known``: per seat, the cards its hand is known to hold from the public log
    (``expert_world.known_cards`` of ``seat``'s view): dealt back to it before the rest, so a
    world agrees with everything ``seat`` saw, as the expert's worlds do."""
    s = clone(state)
    others = [] if seat is None else [p for p in range(s.n) if p != seat]
    _resample_cards(s, others, rng, known)
    _resample_tickets(s, others, rng)
    s.rng = rng.getrandbits(64)
    return s


def _resample_cards(s: GameState, others: list, rng: random.Random, known: list | None) -> None:
    left = [0] * len(s.hands[0])  # every hidden card by colour: where it was must not matter
    for c in (*s.deck, *s.discard, *(c for cards in s.warehouses for c in cards)):
        left[c] += 1
    for p in others:
        for c, k in enumerate(s.hands[p]):
            left[c] += k
    dealt = []
    for p in others:
        hand, room = [0] * len(left), sum(s.hands[p])
        for c, k in enumerate(known[p] if known is not None else ()):
            k = min(k, left[c], room)  # a log that agrees with the state never needs the min
            hand[c], left[c], room = k, left[c] - k, room - k
        dealt.append((p, hand, room))
    pool = [c for c, k in enumerate(left) for _ in range(k)]
    rng.shuffle(pool)
    for p, hand, room in dealt:
        for _ in range(room):
            hand[pool.pop()] += 1
        s.hands[p] = hand
    for p, cards in enumerate(s.warehouses):
        s.warehouses[p] = [pool.pop() for _ in cards]
    s.discard = [pool.pop() for _ in s.discard]
    s.deck = pool


def _resample_tickets(s: GameState, others: list, rng: random.Random) -> None:
    """Other seats' tickets and offers and the ticket deck, shuffled among those places
    within each ticket kind (a long ticket stays a long one: Mega Europe's set-up rules)."""
    places = [(s.ticket_deck, i) for i in range(len(s.ticket_deck))]
    for p in others:
        places += [(s.tickets[p], i) for i in range(len(s.tickets[p]))]
        if s.offers[p]:
            places += [(s.offers[p], i) for i in range(len(s.offers[p]))]
    kinds: dict[str, list] = {}
    for place in places:
        kinds.setdefault(s.board.tickets[place[0][place[1]]].kind, []).append(place)
    for group in kinds.values():
        ids = sorted(lst[i] for lst, i in group)
        rng.shuffle(ids)
        for (lst, i), t in zip(group, ids, strict=True):
            lst[i] = t


def play_out(state: GameState, rng: random.Random, level: str = ROLLOUT_LEVEL) -> list:
    """Play ``state`` (mutated) to its end with the ``level`` bot in every seat; the final
    scores by seat (where it stands after ``PLAYOUT_DECISIONS`` decisions)."""
    decisions = 0
    while state.phase != phases.OVER and decisions < PLAYOUT_DECISIONS:
        for seat in current_seats(state):
            legal = legal_actions(state, seat)
            view = view_for(state, seat, log_since=log_length(state))
            apply_action(state, seat, choose_action(level, view, legal, rng.getrandbits(32)))
            state.log_base += len(state.log)  # a playout's log is never read: drop it
            state.log = []
            decisions += 1
            if state.phase != phases.SETUP:
                break
    if state.phase == phases.OVER:
        return [p["score"] for p in state.final["players"]]
    return list(state.scores)


def margin(scores: list, seat: int) -> float:
    """``seat``'s score minus the best other seat's."""
    return scores[seat] - max(s for p, s in enumerate(scores) if p != seat)


def winners_share(scores: list) -> list:
    """1 for the seat with the best score, split on a tie (1/k each), 0 for the others."""
    top = max(scores)
    firsts = [p for p, s in enumerate(scores) if s == top]
    return [1 / len(firsts) if p in firsts else 0.0 for p in range(len(scores))]


def action_key(action: dict) -> tuple:
    """What makes two actions the same move for grading (a claim's payment colours, a face-up
    draw's slot among equal colours and the warehouse of a draw are left out)."""
    kind = action.get("type")
    if kind == "claim_route":
        return (kind, action.get("route"), tuple(sorted(action.get("warehouses") or [])))
    if kind == "draw_card":
        return (kind, action.get("source"), action.get("color"))
    if kind == "keep_tickets":
        return (kind, tuple(sorted(action.get("tickets") or [])))
    if kind in ("build_station", "place_depot"):
        return (kind, action.get("city"))
    return (kind,)


def playout_evaluator(state, seat, legal, played, budget: Budget, seed: int):
    """The default evaluator: the action played against the medium and the hard bot's
    choices from ``seat``'s own view, each played out to the end (medium bots in every
    seat) in the same sampled worlds and with the same rollout seed (common random numbers)."""
    rng = random.Random(seed)
    view = view_for(state, seat)
    known = known_cards(view)
    cands = [played]
    for level in ("hard", "medium"):
        choice = choose_action(level, view, legal, rng.getrandbits(32))
        if all(action_key(choice) != action_key(c) for c in cands):
            cands.append(choice)
    if len(cands) == 1:
        return Evaluation(0.0, 0.0, played, 0)
    rows: list[list[float]] = []
    start = time.thread_time()
    while not budget.spent(start, len(rows)):
        world = determinize(state, seat, rng, known)
        roll = rng.getrandbits(32)
        row = []
        for action in cands:
            trial = clone(world)
            apply_action(trial, seat, action)
            row.append(margin(play_out(trial, random.Random(roll)), seat))
        rows.append(row)
    return _paired(cands, rows)


def _paired(cands: list, rows: list) -> Evaluation:
    n = len(rows)
    means = [sum(r[i] for r in rows) / n for i in range(len(cands))]
    best = max(range(len(cands)), key=lambda i: (means[i], i == 0))
    diffs = [r[best] - r[0] for r in rows]
    se = 0.0
    if n > 1:
        mean = sum(diffs) / n
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    return Evaluation(means[0], means[best], cands[best], n, se)


def expert_evaluator(state, seat, legal, played, budget: Budget, seed: int):
    """The expert bot's search (``expert.evaluate``) from ``view_for(state, seat)``: the
    move it would play against the one played, by its ``margin`` estimates. ``None`` (not
    graded) when the move played is none of the candidates it searched (e.g. its ticket
    choices in play, which it leaves to the hard bot; set-up keeps it searches)."""
    from . import expert

    rows = expert.evaluate(view_for(state, seat), legal, budget=budget.seconds, seed=seed,
                           playouts=budget.playouts)  # fmt: skip
    rows = [r for r in rows if r.get("visits")]
    mine = [r for r in rows if action_key(r["action"]) == action_key(played)]
    if not mine or len(rows) < 2:
        return None
    best = rows[0]  # the search's own choice (most visits), not the luckiest mean
    samples = min(r["visits"] for r in (best, mine[0]))
    return Evaluation(mine[0]["margin"], best["margin"], best["action"], samples)


def expert_then_playouts(state, seat, legal, played, budget: Budget, seed: int):
    """The expert's search, and the playouts for the moves it does not search (its ticket
    choices in play): every decision graded, in points of margin either way."""
    found = expert_evaluator(state, seat, legal, played, budget, seed)
    if found is None:
        found = playout_evaluator(state, seat, legal, played, budget, seed)
    return found


EVALUATORS: dict[str, Evaluator] = {"expert": expert_then_playouts, "playouts": playout_evaluator}


def win_chances(state: GameState, budget: Budget, rng: random.Random) -> list:
    """Each seat's share of playouts won from ``state`` (sums to 1; see the module doc)."""
    if state.phase == phases.OVER:
        return winners_share([p["score"] for p in state.final["players"]])
    totals, samples = _wins(state, budget, rng)
    return [t / samples for t in totals]


def _wins(state: GameState, budget: Budget, rng: random.Random) -> tuple[list, int]:
    """Each seat's playouts won from ``state`` (a shared first place split), and how many."""
    totals = [0.0] * state.n
    samples = 0
    start = time.thread_time()
    while not budget.spent(start, samples):
        world = determinize(state, None, rng)
        for p, share in enumerate(winners_share(play_out(world, rng))):
            totals[p] += share
        samples += 1
    return totals, samples


class ChancePool:
    """The win chances of a game's steps in order, each from its own playouts and those of
    the steps before it, weighed ``CHANCE_MEMORY`` less per step back (see the module doc)."""

    def __init__(self, n: int):
        self.wins = [0.0] * n
        self.weight = 0.0

    def step(self, state: GameState, budget: Budget, rng: random.Random) -> list:
        if state.phase == phases.OVER:
            return winners_share([p["score"] for p in state.final["players"]])
        return self.add(*_wins(state, budget, rng))

    def add(self, wins: list, samples: int) -> list:
        """Pool one step's playouts (``wins`` per seat of ``samples``); its chances."""
        self.wins = [CHANCE_MEMORY * old + new for old, new in zip(self.wins, wins, strict=True)]
        self.weight = CHANCE_MEMORY * self.weight + samples
        return [w / self.weight for w in self.wins]


def grade(loss: float) -> str | None:
    """``"mistake"``, ``"inaccuracy"`` or ``None`` for a loss in points of margin."""
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def analyse(
    params: dict,
    records: list,
    human_seats,
    *,
    evaluator: Evaluator = playout_evaluator,
    budget: Budget = Budget(),
    chances_budget: Budget | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """The analysis of a finished game: ``new_game(**params)`` then ``records`` (``[seat,
    action]`` in order; ``human_seats``: the seats whose decisions are graded, e.g. a set of
    ``(step, seat)`` or of seats: see ``_graded``). ``progress(done, total)`` after each step.
    Returns ``{"chances", "decisions", "seats", "thresholds"}`` (JSON-ready)."""
    state = new_game(**params)
    rng = random.Random(seed)
    chances_budget = chances_budget or budget
    pool = ChancePool(state.n)
    chances = [pool.step(state, chances_budget, rng)]
    decisions = []
    total = len(records)
    for k, (seat, action) in enumerate(records, start=1):
        legal = legal_actions(state, seat)
        if _graded(human_seats, k, seat) and len(legal) > 1:
            found = evaluator(state, seat, legal, action, budget, rng.getrandbits(32))
            if found is not None:
                decisions.append(_decision(k, seat, action, found))
        apply_action(state, seat, action)
        chances.append(pool.step(state, chances_budget, rng))
        if progress is not None:
            progress(k, total)
    return {
        "chances": [[round(c, 4) for c in row] for row in chances],
        "decisions": decisions,
        "seats": _seat_totals(decisions, state.n),
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE},
    }


def _graded(human_seats, step: int, seat: int) -> bool:
    """``human_seats``: seats (ints), or ``(step, seat)`` pairs for a seat a bot played part
    of the time (only the steps its player decided are graded)."""
    return seat in human_seats or (step, seat) in human_seats


def _decision(step: int, seat: int, action: dict, found: Evaluation) -> dict:
    loss = round(found.loss, 1)
    out: dict = {"step": step, "seat": seat, "loss": loss, "kind": grade(loss),
                 "samples": found.samples}  # fmt: skip
    if loss > 0 and action_key(found.best_action) != action_key(action):
        out["best"] = found.best_action
    return out


def _seat_totals(decisions: list, n: int) -> list:
    out = []
    for seat in range(n):
        mine = [d for d in decisions if d["seat"] == seat]
        if not mine:
            continue
        loss = sum(d["loss"] for d in mine)
        out.append({
            "seat": seat,
            "decisions": len(mine),
            "average_loss": round(loss / len(mine), 2),
            "inaccuracies": sum(1 for d in mine if d["kind"] == "inaccuracy"),
            "mistakes": sum(1 for d in mine if d["kind"] == "mistake"),
        })  # fmt: skip
    return out
