"""The expert bot: search over sampled worlds, with the hard bot as prior and rollout policy.

Terms (see ``expert_world`` for worlds, values and rewards):
- *candidates*: the legal actions worth searching, one per kind of move: a claim per route
  of the seat's plan (any route once the plan is done; claims off the plan were left out
  when playouts stopped after a round: they won points at once and lost tickets later,
  which the guessed final scores could not see; arena: ticket completion fell from 97% to
  89%), and per warehouse take, its payment
  chosen by the planner (``Medium.best_payment``: the one that leaves the plan the fewest
  cards short); a face-up draw per colour, the blind draw; the hard bot's own choice (the
  only way tickets or a station are searched). Hundreds of payment variants become a
  handful; at most ``MAX_CANDIDATES``, the hard bot's choice first.
- *reply* (2 players): the next seat's turn after a candidate (and after the seat's own
  steps that follow it: a second card, a tunnel's payment) is searched, not rolled out: per
  candidate, a small tree of that seat's replies over the worlds (``rollout.replies``: the
  policy's turn, a claim that blocks this seat's plan, the longest claim it pays, the blind
  draw), each world's reply chosen by UCB1 on that seat's own reward so far. As worlds add
  up, the candidate's value moves from the policy's reply towards that seat's best one (2
  players at 0.25 s, against the replies rolled out, on the same deals: 65 of 100 games; at
  4 players 14 of 40, so there the replies are rolled out: docs/benchmarks.md, stop 41).
- *playout*: a candidate applied to a fresh clone of one world, the reply searched, then
  the game played to its final scoring by every seat following its plan (``rollout``:
  20-40 microseconds a decision, against about a millisecond for the hard bot, so a
  playout can go to the end, where the world's result is exact: tickets finished or
  failed, the longest path, a planned route taken by another seat, the end's timing). Its
  *reward* is the final margin squashed into 0..1 (``expert_world.reward``).
- *search*: determinized Monte-Carlo over the candidates (their replies in trees, above)
  with sequential halving. Each round samples one world and plays every surviving
  candidate in it with the same rollout seed (common random numbers: candidates are
  compared on equal luck); after rounds ``FIRST_CUT``, twice that,
  ... the worse half is dropped (never the hard bot's choice); at 2 players, above
  ``CUT_BUDGET`` seconds, those rounds grow with the budget (``first_cut``; for the set-up
  ticket choice at every table). It stops at the budget:
  ``budget`` seconds of this thread's CPU time, or ``playouts`` playouts (reproducible: the
  tests use it); a round the budget cuts short is not counted.
- *choice*: the hard bot's own choice, unless a surviving candidate beats it clearly: its
  *edge* (mean reward minus the hard bot's choice's in the same worlds) is more than
  ``CONFIDENCE`` standard errors of that mean above ``PRIOR_EDGE``. The search is noisy at
  a small budget; the hard bot is a sound default, and the paired comparison is what lets a
  few dozen worlds tell a real gain from luck.
- *Set-up tickets* are searched: the candidates are the hard bot's best ``TICKET_CANDIDATES``
  keeps by its own valuation (every option of a Europe offer), each played to the end in
  the same worlds. In each world the other seats first keep theirs as the hard bot would
  (they choose at the same time, not knowing this seat's choice). The hard bot's valuation
  (points less a price per car of the plan) and the playouts disagreed on 10 of 20 probed
  2-player set-ups, most often over a long ticket it dropped; arena, 2 players at 0.25 s:
  53% -> 72% wins against hard on the same deals (docs/benchmarks.md).
- Trivial decisions (one legal action) return at once; ticket choices in play are the hard
  bot's, whose Monte-Carlo completion odds judge them better than the playouts can (their
  policy never draws tickets).
- *Warehouses & Depots* (docs/rules.md §2): the initial depot goes on the city of the seat's
  plan with the most planned routes into it (so the seat can empty its own warehouse there,
  and far from the others'); the warehouse card of a draw goes to the seat's own warehouse
  while it has a depot on an open planned route, else to the warehouse of the seat with
  the fewest depots left (least able to take it); whether a claim takes warehouses (a card
  each, a depot each, and the depot bonus at stake) is left to the search, which values both.
  No free depots are placed (each costs the depot bonus and gains only future takes).

Only the seat's view is read: the search's worlds are sampled from it (``expert_world``),
so the same view, legal actions and seed give the same decision whatever is hidden. Its log
is read for the cards the other seats are known to hold (``expert_world.known_cards``), so
the site hands the expert, and no other level, its view with the whole log.
"""

from __future__ import annotations

import math
import random
import time

from .. import phases
from ..actions import apply_action, apply_trusted, current_seats, legal_actions
from ..views import view_for
from . import expert_world as world
from . import rollout
from .hard import Hard
from .medium import Medium

DEFAULT_BUDGET = 1.0  # CPU seconds per decision on the site (at most 2 s: issue 26)
MAX_CANDIDATES = 8
# another candidate replaces the hard bot's choice when its mean reward over it in the same
# worlds exceeds PRIOR_EDGE plus CONFIDENCE standard errors of that mean
CONFIDENCE = 1.0
PRIOR_EDGE = 0.0
# set-up ticket keeps searched: at most this many of the hard bot's best by its own valuation
# (12: every option of a Europe offer, which has at most 11)
TICKET_CANDIDATES = 12
FIRST_CUT = 4  # rounds before the halving first drops candidates (then at 8, 16, ...)
# the budget that schedule is set for: at k times it (k whole), every cut comes k times later,
# so a larger budget judges the dropped candidates on more worlds too (``first_cut``); only at
# tables of at most CUT_SEATS seats (at 4 players, where a playout costs about three times as
# much, the later cuts won fewer games at 1 s: docs/benchmarks.md, stop 49), and for the set-up
# ticket choice at every table (stop 51: graded by hard bots playing on, a 4-player set-up
# choice stopped changing at 1 s with the fixed cuts and still gained from 1 to 2 s without)
CUT_BUDGET = 0.25
CUT_SEATS = 2
WALL_FACTOR = 3.0  # a decision also stops after this many times its budget of wall time
# the next seat's reply is searched at tables of this many seats (at 4 players, where it is
# one of three others, the search with it finished above the one without in 14 of 40 games
# at 0.25 s: docs/benchmarks.md, stop 41); UCB1's exploration weight (rewards are 0..1)
REPLY_SEATS = 2
REPLY_EXPLORATION = 0.5
OWN_STEPS = 8  # the seat's own steps after a candidate, a safety net (a turn takes 1 or 2)


_budget = [DEFAULT_BUDGET]  # this process's budget per decision (``set_budget``)


def set_budget(seconds: float) -> None:
    """Set the CPU seconds per decision of ``choose`` in this process (``bot_arena``)."""
    _budget[0] = float(seconds)


def process_budget() -> float:
    """This process's CPU seconds per decision (``set_budget``)."""
    return _budget[0]


def choose(view: dict, legal: list, rng, budget=None, playouts=None) -> dict:
    """The expert's action (``rng`` seeds the search; ``budget`` None: this process's)."""
    if budget is None and playouts is None:
        budget = _budget[0]
    if len(legal) == 1:
        return legal[0]
    quick = _quick(view, legal, rng)
    if quick is not None:
        return quick
    result = evaluate(view, legal, budget=budget, playouts=playouts, seed=rng.getrandbits(32))
    return result[0]["action"]


def evaluate(view: dict, legal: list, budget=DEFAULT_BUDGET, seed: int = 0, playouts=None) -> list:
    """Value estimates of the candidate actions, best first: dicts with ``action``,
    ``value`` (mean reward, 0..1), ``margin`` (mean score margin), ``visits``, ``prior``
    (whether it is the hard bot's choice). ``budget``: CPU seconds; ``playouts``: a count
    instead (``budget=None``: the count alone, for reproducible results; both given:
    whichever ends first)."""
    rng = random.Random(seed)
    cands = searched(Hard(view, legal, random.Random(rng.getrandbits(32))), view, legal)
    stats = [[0.0, 0.0, 0, 0.0, 0.0] for _ in cands]
    if len(cands) > 1:
        _search(view, cands, stats, rng, budget, playouts)
    out = []
    rows = zip(cands, stats, strict=True)
    for i, (action, (total, margin, visits, edge, square)) in enumerate(rows):
        n = visits or 1
        mean = edge / n
        spread = math.sqrt(max(0.0, square / n - mean * mean) / max(1, visits - 1))
        out.append({
            "action": action,
            "value": total / n,
            "margin": margin / n,
            "visits": visits,
            "prior": i == 0,
            "edge": mean,  # mean reward over the hard bot's choice in the same worlds
            "edge_se": spread,
        })  # fmt: skip
    return ranked(out)


def ranked(rows: list, confidence: float | None = None, prior_edge: float | None = None) -> list:
    """``evaluate``'s rows best first: the survivors of the halving (the most visits), of
    them those sure to beat the hard bot's choice (its own row is sure: it is the default),
    by mean reward. A survivor is sure when its edge exceeds ``confidence`` (default
    ``CONFIDENCE``) standard errors above ``prior_edge`` (default ``PRIOR_EDGE``); one world
    gives no spread to judge by. Apart, so that a benchmark can make a kept search's choice
    again under another rule (``benchmarks/expert_oracle.py --rules``)."""
    confidence = CONFIDENCE if confidence is None else confidence
    prior_edge = PRIOR_EDGE if prior_edge is None else prior_edge
    top = max(r["visits"] for r in rows)

    def rank(r) -> tuple:
        sure = r["prior"] or (
            r["visits"] > 1 and r["edge"] > confidence * r["edge_se"] + prior_edge
        )
        return (r["visits"] < top, not sure, -r["value"])

    return sorted(rows, key=rank)


def searched(hard: Hard, view: dict, legal: list) -> list:
    """The actions ``evaluate`` searches, the hard bot's choice first: set-up ticket keeps,
    else ``candidates``."""
    if legal[0]["type"] == "keep_tickets" and view["phase"] == phases.SETUP:
        return hard.ranked_keeps()[:TICKET_CANDIDATES]
    return candidates(hard, view, hard.choose())


def _search(view, cands, stats, rng, budget, playouts) -> None:
    seat = view["you"]["seat"]
    start, wall = time.thread_time(), time.perf_counter()
    limit = float("inf") if playouts is None else playouts
    alive = list(range(len(cands)))
    replies: list[dict] = [{} for _ in cands]  # per candidate: the next seat's replies
    done = rounds = 0
    first = first_cut(budget, view["seats"], view["phase"] == phases.SETUP)
    while done + len(alive) <= limit:
        base = world.determinize(view, rng)
        if base.phase == phases.SETUP:
            _settle(base, seat, rng)
        roll = rng.getrandbits(32)
        plans = rollout.plans_for(base)  # each seat's, once per world
        results = []
        for i in alive:
            results.append((i, *_playout(base, plans, cands[i], seat, roll, replies[i])))
            if _spent(start, wall, budget) and len(results) < len(alive):
                return  # a round counts whole or not at all: survivors compare on equal luck
        base_reward = results[0][1]  # the prior's (index 0, always alive and first)
        for i, reward, margin in results:
            row = stats[i]
            row[0] += reward
            row[1] += margin
            row[2] += 1
            row[3] += reward - base_reward
            row[4] += (reward - base_reward) ** 2
        done += len(results)
        rounds += 1
        if _spent(start, wall, budget):
            return
        whole, rest = divmod(rounds, first)
        if len(alive) > 2 and not rest and whole & (whole - 1) == 0:
            # the prior (index 0) always stays: it is the default the others must beat
            alive.sort(key=lambda i: (i != 0, -stats[i][0] / stats[i][2]))
            alive = alive[: (len(alive) + 1) // 2]


def first_cut(budget, seats: int = 2, setup: bool = False) -> int:
    """The round of the halving's first cut (the next at twice it, and so on): ``FIRST_CUT``
    up to ``CUT_BUDGET`` seconds, for a playout count alone and, but for the set-up ticket
    choice (``setup``), at tables of more than ``CUT_SEATS`` seats; else above that budget in
    proportion to it, so the halving takes the same share of a search at every budget (about
    a ninth of its playouts). With the cuts at fixed rounds, a 2-player second's search
    judged every candidate it dropped on 4 or 8 worlds and spent the rest on the last two
    (docs/benchmarks.md, stop 43). At 4 players a round costs about three times as much and
    the later cuts took a third of the search: at 1 s they won 15 of 50 games against three
    hard where the fixed ones won 23 on the same deals (stop 49). The set-up choice, a
    dozen ticket keeps each played to the end, is the one decision of a game where the
    budget still buys a better choice, as hard bots playing the keeps on judge it (stop 51);
    with the fixed cuts a 4-player one was down to two keeps after 16 worlds, and stopped
    changing at 1 s."""
    if budget is None or (seats > CUT_SEATS and not setup):
        return FIRST_CUT
    return FIRST_CUT * max(1, int(budget / CUT_BUDGET + 1e-9))


def _settle(base, seat: int, rng) -> None:
    """Set-up: the other seats keep their tickets in ``base`` first, as the hard bot would
    (they choose at the same time as ``seat``, without knowing its choice), so each
    candidate's playout starts from the same kept tickets."""
    for other in current_seats(base):
        if other != seat:
            other_view = view_for(base, other, log_since=base.log_base + len(base.log))
            legal = legal_actions(base, other)
            action = Hard(other_view, legal, random.Random(rng.getrandbits(32))).choose()
            apply_action(base, other, action)


def _spent(start: float, wall: float, budget) -> bool:
    if budget is None:
        return False  # a playout count alone (reproducible)
    cpu = time.thread_time() - start
    return cpu >= budget or time.perf_counter() - wall >= WALL_FACTOR * budget


def _playout(
    base, plans: list, action: dict, seat: int, roll: int, node: dict
) -> tuple[float, float]:
    """A candidate played in a clone of ``base``, the seat's own steps after it (a second
    card, a tunnel's payment) by the policy, the next seat's reply searched (``node``: the
    candidate's reply statistics, see ``_reply``), then the game to its end by every seat's
    plan (``rollout``): (reward, margin) of the final scores."""
    state = world.clone(base)
    plans = rollout.copies(plans)
    apply_action(state, seat, action)
    rng = random.Random(roll)
    rollout.after(state, plans, seat, action)
    steps = 0
    while state.phase != phases.OVER and current_seats(state)[0] == seat and steps < OWN_STEPS:
        rollout.step(state, plans, seat, rng)
        steps += 1
    replied = _reply(state, plans, seat, node, rng)
    rollout.play_out(state, plans, rng)
    values = world.values(state)
    if replied is not None:
        who, key = replied
        row = node.setdefault(key, [0, 0.0])
        row[0] += 1
        row[1] += world.reward(values, who)[0]
    return world.reward(values, seat)


def _reply(state, plans: list, seat: int, node: dict, rng) -> tuple[int, tuple] | None:
    """The next seat's turn, if it is another's: chosen among ``rollout.replies`` by UCB1 on
    that seat's own reward in the earlier worlds of this candidate (``node``: reply key ->
    [visits, reward sum]; a reply not yet tried first). Returns (that seat, the reply's
    key), or None when no other seat's turn comes next (or the table is not of
    ``REPLY_SEATS``)."""
    if state.phase != phases.TURN or state.n != REPLY_SEATS:
        return None
    who = current_seats(state)[0]
    if who == seat:
        return None
    options = rollout.replies(state, who, plans, seat, rng)
    key = next((k for k in options if k not in node), None)
    if key is None:
        explore = REPLY_EXPLORATION * math.sqrt(math.log(sum(node[k][0] for k in options)))
        key = max(options, key=lambda k: node[k][1] / node[k][0] + explore / math.sqrt(node[k][0]))
    reply = options[key]
    apply_trusted(state, who, reply)
    rollout.after(state, plans, who, reply)
    return who, key


# --- which actions to search ------------------------------------------------------------------


def _quick(view: dict, legal: list, rng) -> dict | None:
    """Decisions not searched: tickets in play (the hard bot's) and the initial depot."""
    kind = legal[0]["type"]
    if kind == "keep_tickets" and view["phase"] != phases.SETUP:
        return Hard(view, legal, rng).choose()
    if view["phase"] == phases.DEPOTS:
        return depot_choice(Medium(view, legal, rng))
    return None


def candidates(bot: Hard, view: dict, prior: dict) -> list:
    """The actions to search (see module docstring), ``prior`` first."""
    seen = bot.seen
    plan = set(bot.plan().routes)
    by = bot.by
    ranked: list[tuple[float, dict]] = []
    claims: dict[tuple, list] = {}
    for a in by.get("claim_route", ()):
        claims.setdefault((a["route"], tuple(a.get("warehouses", ()))), []).append(a)
    rest = list(plan)
    for (rid, _), group in claims.items():
        r = seen.board.route_index[rid]
        route = seen.board.routes[r]
        if (plan and r not in plan) or not bot.tunnel_ready(r, group[0]["cards"]):
            continue  # off the plan: a short playout sees the points, not the tickets lost
        action = bot.best_payment(group, [x for x in rest if x != r])
        ranked.append((seen.board.scoring[route.length], action))
    ranked.sort(key=lambda x: -x[0])
    out = [a for _, a in ranked[:4]]
    out += _draws(bot, by.get("draw_card", ()))
    # new tickets only when the hard bot wants them (its prior): offered whenever legal, the
    # draw gained nothing head to head against this rule (docs/benchmarks.md, stop 40: 53 of
    # 100 games at 0.25 s; at 1 s, with the choice in play searched too, 19 of 40)
    for kind in ("pay_tunnel", "decline_tunnel", "pass"):
        if kind == "pay_tunnel" and by.get(kind):
            out.append(bot.best_payment(by[kind], bot.plan().routes))
        elif kind != "pay_tunnel" and by.get(kind):
            out.append(by[kind][0])
    prior = _with_warehouse(
        prior, by.get("draw_card", ()), warehouse_choice(bot, by.get("draw_card", ()))
    )
    out = [a for a in out if a != prior]
    return [prior, *out][:MAX_CANDIDATES]


def _with_warehouse(action: dict, draws, ware) -> dict:
    """``action`` with the warehouse card sent to ``ware`` (a draw's other variant)."""
    if ware is None or action.get("warehouse", ware) == ware:
        return action
    for a in draws:
        same = a["source"] == action["source"] and a.get("slot") == action.get("slot")
        if same and a.get("warehouse") == ware:
            return a
    return action


def _draws(bot: Medium, draws) -> list:
    """One draw per face-up colour and the blind draw (the warehouse chosen as above)."""
    if not draws:
        return []
    ware = warehouse_choice(bot, draws)
    out: dict[tuple, dict] = {}
    for a in draws:
        if a.get("warehouse", ware) != ware:
            continue
        out.setdefault((a["source"], a.get("color")), a)
    return list(out.values())


def warehouse_choice(bot: Medium, draws) -> int | None:
    """Where a draw's warehouse card goes (see module docstring); None: no choice."""
    seats = {a["warehouse"] for a in draws if "warehouse" in a}
    if not seats:
        return None
    seen = bot.seen
    me = seen.seat
    view_players = bot.view["players"]
    mine = {seen.board.city_index[c] for c in view_players[me]["depots"]}
    plan = bot.plan().routes
    if me in seats and any(
        seen.board.routes[r].a in mine or seen.board.routes[r].b in mine for r in plan
    ):
        return me
    others = [s for s in seats if s != me] or [me]
    return min(others, key=lambda s: (view_players[s]["depots_left"], s))


def depot_choice(bot: Medium) -> dict:
    """The initial depot: the city with most planned routes into it (see docstring)."""
    seen = bot.seen
    board = seen.board
    count: dict[int, float] = {}
    for r in bot.plan().routes:
        route = board.routes[r]
        for c in (route.a, route.b):
            count[c] = count.get(c, 0.0) + 1 + route.length / 10
    options = bot.by.get("place_depot", ())
    if not options:
        return bot.fallback()
    return max(options, key=lambda a: count.get(board.city_index[a["city"]], 0.0))
