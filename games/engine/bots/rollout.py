"""The expert's cheap rollout policy: every seat follows a fixed plan to the end of the game.

The expert's search compares its candidate moves by playing each one out in sampled worlds
(``expert_world``). The hard bot plays well but costs about a millisecond a decision, so a
playout with it stops after a round and guesses the rest (``expert_world.values``). This
policy costs 20-40 microseconds a decision (it lists no legal actions in a turn: it builds
the claim or draw it wants, as ``legal_actions`` would list it), so a playout can go to the
final scoring, where the world's result is exact: tickets finished or failed, the longest
path, a route taken away from a plan, the end's timing.

Terms:
- *plan*: per seat, the routes that join its open tickets (``planner.fit_plan`` with the hard
  bot's weights, within its cars), made from what that seat knows (its own hand and tickets,
  the public board) when the playout starts, and made again for a seat whose planned route
  another seat claims. Nothing hidden from a seat (other hands, the deck order) is read.
- *gains*: what one more card of each kind is worth to the plan, as the hard bot reckons it
  (``planner.gains``: how much it lowers the cards the plan lacks, locomotives filling in
  and a gray route taking the colour most spare; when the hand pays the whole plan, a card
  of the colour held most). Before stop 55 (docs/benchmarks.md) the policy counted the
  cards of each colour the plan lacked, locomotives in hand left out, drew a face-up card
  only of a colour so lacking and never a face-up locomotive: its seats drew blind about a
  quarter more often than hard bots and, with three or four tickets kept at set-up (the
  long one among them), failed a fifth to two fifths of a ticket a game more, so the
  search rated such keeps 0.06-0.11 of a reward below what hard bots playing on made of
  them.
- *fillers*: the plan of a seat whose tickets need no route more (joined, or past joining):
  the ``FILLERS`` best routes still open to it within its cars, made again when one is
  claimed or taken: the longest, and while the longest-path bonus is within the seat's reach,
  by points plus the cars a route adds at an end of the seat's longest trail times the hard
  bot's weight for them (``Hard.path_weight``). Before stop 54 they were the longest alone:
  no seat of a playout played for the bonus, and a claim that handed it to the other seat
  was rated above the hard bot's draw (docs/benchmarks.md). With no plan at all, a seat
  claimed whatever the hand paid, most often a short route: after a set-up keep of two
  short tickets the policy's seats scored about 12 route points a game less than hard bots
  playing on from the same keep, so the search rated keeps that are done early far below
  what they are worth (docs/benchmarks.md, stop 52).
- a turn: claim the longest planned route the hand pays (the payment with the fewest
  locomotives), a tunnel only with a card to spare for the extra cards it may ask, as the
  hard bot keeps one (``TUNNEL_SPARE``); with fillers and at most ``END_GAME_CARS`` cars,
  the longest route it pays at all; in the seat's last turn, the route that finishes its
  plan if one route is left and the hand pays it, else the longest route it pays; else
  draw as the hard bot draws (``Medium.draw``): the face-up card that gains most if it
  gains more than a blind card is likely to, a face-up locomotive only against two weak
  cards, else blind. A tunnel's extra cards are paid when they can be. No stations, no new
  tickets (the hard bot seldom takes them, and a ticket choice would cost a medium-bot
  decision), warehouses left alone; a ticket choice (after a searched ticket draw) and a
  depot are the medium bot's.
- *the end game*, before stop 53 (docs/benchmarks.md): at 6 cars or fewer, or in the last
  round, every seat claimed the longest route it paid, tickets joined or not, and tried
  tunnels without a spare card: with three or four tickets kept at set-up its seats failed
  a quarter to four fifths of a ticket a game more than hard bots in their place.
"""

from __future__ import annotations

from functools import cache, lru_cache

from .. import phases
from ..actions import apply_trusted, current_seats, legal_actions
from ..graph import longest_trail
from ..rules.cards import draw_actions
from ..rules.payment import options
from ..rules.routes import route_rows
from ..views import view_for
from . import planner
from .hard import HARD
from .medium import Medium, takes_locomotive

END_GAME_CARS = 6  # at or below this many cars, a seat with fillers claims whatever scores most
TUNNEL_SPARE = HARD.tunnel_spare  # cards a planned tunnel's claim leaves of its colour and locos
FILLERS = 3  # routes a seat whose tickets are joined collects cards for (the hard bot's count)
MAX_STEPS = 600  # decisions in one playout (a safety net: a game ends well before)


def plan_for(state, seat: int) -> set:
    """The routes ``seat``'s plan still needs, or its *fillers* when its tickets need none
    (see module docstring)."""
    seen = _Known(state, seat)
    costs = planner.route_costs(seen, HARD.weights)
    tickets = [state.board.tickets[t] for t in state.tickets[seat]]
    plan = set(planner.fit_plan(seen, tickets, costs, state.trains[seat])[0].routes)
    return plan or fillers(state, seat)


class Fillers(set):
    """A plan of fillers (``fillers``): made again as fillers, without the planner, when
    another seat takes one of them or the seat claims one. ``trail``: the (weight, end
    cities) of the seat's longest trail it was chosen by (``_trail_weight``), kept for those
    plans made again within a playout: the ends follow the seat's own claims at them, the
    weight stays (a trail costs tens of microseconds to find, and at 4 players a playout
    makes a dozen such plans)."""

    __slots__ = ("trail",)

    def __init__(self, routes=(), trail: tuple = (0.0, ())) -> None:
        super().__init__(routes)
        self.trail = trail


def copies(plans: list) -> list:
    """Copies of ``plans`` for one playout (a plan of fillers stays one)."""
    return [Fillers(p, p.trail) if type(p) is Fillers else set(p) for p in plans]


def fillers(state, seat: int, trail: tuple | None = None) -> Fillers:
    """The ``FILLERS`` best routes still open to ``seat`` within its cars: what a seat with
    its tickets joined collects cards for. The longest (``_by_length``'s order), unless the
    longest-path bonus is within the seat's reach (``_trail_weight``): then by points plus,
    for a route at an end of the seat's longest trail, the cars it adds to the trail times
    that weight (the hard bot's filler score, without the cards in hand). Points grow with
    length, so only the longest and the routes at the trail's ends can be among the best.
    ``trail``: that weight and those ends as known already (``Fillers.trail``)."""
    order = _by_length(board := state.board)
    start = _first_of_length(board)
    cars = state.trains[seat]
    out = []
    for i in range(start[min(cars, len(start) - 1)], len(order)):
        if _open(state, seat, order[i]):
            out.append(order[i])
            if len(out) == FILLERS:
                break
    if trail is None:
        trail = _trail_weight(state, seat)
    weight, ends = trail
    if weight:
        routes = board.routes
        at = _routes_at(board)
        place = _place(board)
        found = set(out)
        found.update(
            r for city in ends for r in at[city]
            if routes[r].length <= cars and _open(state, seat, r)
        )  # fmt: skip

        def score(r: int) -> tuple:
            gain = routes[r].length if routes[r].a in ends or routes[r].b in ends else 0
            return (-(board.scoring[routes[r].length] + weight * gain), place[r])

        out = sorted(found, key=score)[:FILLERS]
    return Fillers(out, trail)


def _open(state, seat: int, r: int) -> bool:
    """Whether route ``r`` is open to ``seat`` (unclaimed, its twin not closed to it)."""
    owner = state.owner
    return owner[r] == -1 and not planner.twin_closed(
        state.board.routes[r].twin, owner, seat, state.single
    )


@cache
def _routes_at(board) -> dict:
    """City -> the indexes of the routes that end there."""
    out: dict = {}
    for r in board.routes:
        out.setdefault(r.a, []).append(r.index)
        out.setdefault(r.b, []).append(r.index)
    return out


@cache
def _place(board) -> tuple:
    """Route index -> its position in ``_by_length`` (a tie-break: the longest first)."""
    out = [0] * len(board.routes)
    for i, r in enumerate(_by_length(board)):
        out[r] = i
    return tuple(out)


def _trail_weight(state, seat: int) -> tuple[float, tuple]:
    """(points a car added to ``seat``'s longest trail is worth, the trail's end cities): the
    bonus split over the gap to the best other seat's trail, as the hard bot weighs it
    (``Hard.path_weight``); 0 when the rule set has no bonus or the gap reaches the seat's
    cars."""
    bonus = state.cfg.longest_path_bonus
    if not bonus:
        return 0.0, ()
    board = state.board
    mine, ends = _trail(board, tuple(state.routes_of[seat]))
    best = max(
        (_trail(board, tuple(state.routes_of[s]))[0] for s in range(state.n) if s != seat),
        default=0,
    )
    gap = best - mine
    if gap >= state.trains[seat]:
        return 0.0, ()
    return bonus / max(gap + 1, 3), ends


def _extended(trail: tuple, route) -> tuple:
    """``trail`` (weight, end cities) after its seat claims ``route``: an end the route
    starts from moves to the route's other city."""
    weight, ends = trail
    for i, city in enumerate(ends):
        if city in (route.a, route.b):
            other = route.b if city == route.a else route.a
            return weight, (*ends[:i], other, *ends[i + 1 :])
    return trail


@lru_cache(maxsize=4096)
def _trail(board, routes: tuple) -> tuple[int, tuple]:
    """(length, end cities) of a longest trail of ``routes`` (route indexes; a playout's
    seats keep most of theirs from one world to the next, so the cache serves most calls)."""
    if not routes:
        return 0, ()
    rows = board.routes
    length, path = longest_trail((r, rows[r].a, rows[r].b, rows[r].length) for r in routes)
    first = rows[path[0]]
    if len(path) == 1:
        return length, (first.a, first.b)
    second = rows[path[1]]
    city = first.a if first.a not in (second.a, second.b) else first.b
    start = city
    for r in path:
        city = rows[r].b if rows[r].a == city else rows[r].a
    return length, (start, city)


class _Known:
    """What the planner reads of a seat's knowledge (``knowledge.Seen``'s board, seat,
    owners, stations, cars and double-route rule), taken from ``state`` without building the
    seat's view: all of it is public but the seat's own tickets, which ``plan_for`` reads."""

    __slots__ = ("board", "owner", "seat", "single_double", "station_at", "trains")

    def __init__(self, state, seat: int) -> None:
        self.board = state.board
        self.seat = seat
        self.owner = state.owner
        self.station_at = state.station_at
        self.trains = state.trains
        self.single_double = state.single


def plans_for(state) -> list:
    """Every seat's plan in ``state`` (one per seat, to be copied for each playout)."""
    return [plan_for(state, seat) for seat in range(state.n)]


def play_out(state, plans: list, rng, max_steps: int = MAX_STEPS) -> int:
    """Play ``state`` on in place with the policy (``plans``: ``plans_for``, changed in place)
    to the end of the game or ``max_steps`` decisions; return the decisions made."""
    steps = 0
    while state.phase != phases.OVER and steps < max_steps:
        step(state, plans, current_seats(state)[0], rng)
        steps += 1
    return steps


def step(state, plans: list, who: int, rng) -> None:
    """One decision of ``who`` by the policy, played in ``state``, ``plans`` kept."""
    action = choose(state, who, plans[who], rng)
    apply_trusted(state, who, action)
    after(state, plans, who, action)


def after(state, plans: list, who: int, action: dict) -> None:
    """Keep ``plans`` right after ``who`` played ``action``: a claimed route leaves every
    plan, a seat whose planned route (or its closed twin) was taken plans again, and so does
    a seat that kept new tickets."""
    kind = action["type"]
    if kind in ("claim_route", "pay_tunnel"):
        mine = state.routes_of[who]
        if state.phase == phases.TUNNEL or not mine:
            return  # a tunnel still to pay for: nothing claimed yet
        board = state.board
        r = mine[-1]
        if kind == "claim_route" and board.route_index[action["route"]] != r:
            return  # a tunnel given up
        _replan(state, plans, who, r)
    elif kind == "keep_tickets":
        plans[who] = plan_for(state, who)


def _replan(state, plans: list, who: int, r: int) -> None:
    """``after``'s claim of route ``r`` by ``who``: each plan it touches made again."""
    board = state.board
    twin = board.routes[r].twin
    for seat, plan in enumerate(plans):
        if type(plan) is Fillers:
            if r in plan or (twin >= 0 and twin in plan and (seat == who or state.single)):
                trail = plan.trail
                if seat == who:  # its trail's end moves along a claim there
                    trail = _extended(trail, board.routes[r])
                plans[seat] = fillers(state, seat, trail)
        elif r in plan:
            plan.discard(r)
            if seat != who:  # taken away: plan again around it
                plans[seat] = plan_for(state, seat)
            elif not plan:  # the plan is done: on to the fillers
                plans[seat] = fillers(state, seat)
        elif twin >= 0 and twin in plan and (seat == who or state.single):
            plans[seat] = plan_for(state, seat)  # the twin is closed to this seat


def replies(state, seat: int, plans: list, target: int, rng) -> dict:
    """A few turns ``seat`` may play now, for the expert to search as its reply to ``target``
    (keyed by ``reply_key``, the policy's first): the policy's own, a claim of a route of
    ``target``'s plan (the longest it pays: a block), the longest route it pays at all, and
    the blind draw."""
    first = choose(state, seat, plans[seat], rng)
    out = {reply_key(first): first}
    board = state.board
    blocking = sorted(plans[target], key=_minus_length(board).__getitem__)
    for order in (blocking, _by_length(board)):
        claim = _claim(state, seat, order)
        if claim is not None:
            out.setdefault(reply_key(claim), claim)
    for draw in draw_actions(state, False):
        if draw["source"] == "deck":
            out.setdefault(reply_key(draw), draw)
            break
    return out


def reply_key(action: dict) -> tuple:
    """What makes two worlds' replies the same move: the route claimed (whatever the
    payment), the card drawn, else the kind of action."""
    kind = action["type"]
    if kind == "claim_route":
        return (kind, action["route"])
    if kind == "draw_card":
        return (kind, action["source"], action.get("color"))
    return (kind,)


def choose(state, seat: int, plan: set, rng) -> dict:
    """The policy's action for ``seat`` (see module docstring)."""
    phase = state.phase
    if phase == phases.TURN:
        return _turn(state, seat, plan)
    if phase == phases.DRAW2:
        action = _draw_now(state, seat, plan, True)
        if action is not None:  # always: the phase lasts only while a second card can be had
            return action
    legal = legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    if phase == phases.TUNNEL:
        return _tunnel(state, legal)
    view = view_for(state, seat, log_since=state.log_base + len(state.log))
    return Medium(view, legal, rng).choose()  # a ticket choice, a depot


def _turn(state, seat: int, plan: set) -> dict:
    board = state.board
    tickets = bool(plan) and type(plan) is not Fillers
    if state.last_round >= 0:  # this seat's last turn
        action = _claim(state, seat, tuple(plan)) if tickets and len(plan) == 1 else None
        action = action or _claim(state, seat, _by_length(board))
    elif plan and (tickets or state.trains[seat] > END_GAME_CARS):
        order = sorted(plan, key=_minus_length(board).__getitem__)
        action = _claim(state, seat, order, TUNNEL_SPARE)
    else:
        action = _claim(state, seat, _by_length(board))
    if action is not None:
        return action
    action = _draw_now(state, seat, plan, False)
    if action is not None:
        return action
    legal = legal_actions(state, seat)  # no card to draw: tickets, a station, or the pass
    for kind in ("claim_route", "draw_tickets", "build_station"):
        for a in legal:
            if a["type"] == kind:
                return a
    return legal[0]


def _claim(state, seat: int, order, spare: int = 0) -> dict | None:
    """A claim of the first route of ``order`` the seat may claim and pay (the payment with
    the fewest locomotives, then the colour held most), as ``legal_actions`` lists it; a
    tunnel only if the hand keeps ``spare`` cards of its colour and locomotives beyond it.
    When ``order`` is ``_by_length`` (every route, longest first: the policy's hottest loop,
    every turn without a plan), the routes longer than the seat could pay are skipped at
    once."""
    hand = state.hands[seat]
    wild = state.wild
    w = hand[wild]
    # no route longer than the cars left or the most cards of one colour (with locomotives)
    limit = min(state.trains[seat], max(hand[:wild]) + w)
    owner = state.owner
    single = state.single
    board = state.board
    rows = route_rows(board, state.cfg.colors)
    start = 0
    if order is _by_length(board):
        first = _first_of_length(board)
        start = first[min(limit, len(first) - 1)]
    for i in range(start, len(order)):
        r = order[i]
        if owner[r] != -1:
            continue
        row = rows[r]
        length = row[4]
        if length > limit:
            continue
        color = row[5]
        if color >= 0 and hand[color] + w < length:
            continue  # ``options`` would find no payment
        twin = row[8]
        if twin >= 0 and owner[twin] != -1 and (single or owner[twin] == seat):
            continue
        pays = options(hand, wild, length, row[6], _ALL[wild] if color < 0 else (color,))
        if not pays:
            continue
        c, k = min(pays, key=lambda p: (p[1], -hand[p[0]]))
        if spare and row[7] and w + (hand[c] if c != wild else 0) - length < spare:
            continue  # a tunnel without ``spare`` cards left for what it may ask more
        names = state.card_names
        wname = names[wild]
        if c == wild:
            cards = {wname: length}
        else:
            cards = {names[c]: length - k, wname: k} if k else {names[c]: length}
        return {"type": "claim_route", "route": row[1], "cards": cards}
    return None


@cache
def _minus_length(board) -> tuple:
    """Route index -> minus its length (a sort key: longest first)."""
    return tuple(-r.length for r in board.routes)


@cache
def _by_length(board) -> tuple:
    """Every route index, longest first (sorted once per board)."""
    return tuple(sorted(range(len(board.routes)), key=_minus_length(board).__getitem__))


@cache
def _first_of_length(board) -> tuple:
    """Cards -> the position in ``_by_length`` of the first route at most that long, from 0
    to the longest route's length (any count beyond it: the last, 0)."""
    order, lengths = _by_length(board), [r.length for r in board.routes]
    out = []
    for k in range(max(lengths, default=0) + 1):
        out.append(next((i for i, r in enumerate(order) if lengths[r] <= k), len(order)))
    return tuple(out)


_ALL = [tuple(range(k)) for k in range(16)]


def _draw(state, seat: int, draws: list, plan: set) -> dict | None:
    """The hard bot's draw (``Medium.draw``) among ``draws`` (``draw_actions``'s list; with
    warehouses, the first warehouse named): the face-up card of the colour that helps the
    plan most (``_gains``) if it helps more than a blind card is likely to, a face-up
    locomotive only against two weak cards (``medium.takes_locomotive``), else blind."""
    deck = None
    named: dict[int, dict] = {}  # face-up slot -> its first draw
    for a in draws:
        if a["source"] == "deck":
            deck = deck or a
        else:
            named.setdefault(a["slot"], a)
    slot = _pick(state, seat, plan, named, deck is not None, state.phase == phases.DRAW2)
    return deck if slot < 0 else named[slot]


def _draw_now(state, seat: int, plan: set, second: bool) -> dict | None:
    """``_draw``'s choice among ``draw_actions(state, second)`` without listing them (a turn
    with no claim to make draws: half the policy's decisions), or None when there is no
    draw. With warehouses (a draw names a warehouse) it lists them and asks ``_draw``."""
    if state.wh:
        draws = draw_actions(state, second)
        return _draw(state, seat, draws, plan) if draws else None
    faceup = state.faceup
    deck = bool(state.deck or state.discard)
    slot = _pick(state, seat, plan, range(len(faceup)), deck, second)
    if slot < 0:
        return {"type": "draw_card", "source": "deck"} if deck else None
    return {"type": "draw_card", "source": "faceup", "slot": slot,
            "color": state.card_names[faceup[slot]]}  # fmt: skip


def _pick(state, seat: int, plan: set, slots, deck: bool, second: bool) -> int:
    """The face-up slot of ``slots`` (in order; an empty one or, for a ``second`` card, a
    locomotive passed over) to draw, or -1 for a blind draw (``deck``: whether there is one;
    with neither, -1)."""
    faceup = state.faceup
    wild = state.wild
    gains = _gains(state, seat, plan)
    best = loco = -1  # the first slot of the colour that helps most; of a locomotive
    for slot in slots:
        c = faceup[slot]
        if c < 0:
            continue
        if c == wild:
            if loco < 0 and not second:
                loco = slot
        elif best < 0 or gains[c] > gains[faceup[best]]:
            best = slot
    if best < 0 and loco < 0:
        return -1
    return _slot(state, seat, gains, best, loco, deck)


def _slot(state, seat: int, gains: list, best: int, loco: int, deck: bool) -> int:
    """``_draw``'s rule between the face-up ``best`` slot, the ``loco`` slot (-1: none) and
    a blind draw (-1; ``deck``: whether there is one), a blind card's worth (``_blind``)
    worked out only where it decides."""
    best_gain = gains[state.faceup[best]] if best >= 0 else 0
    locomotive = gains[state.wild] if loco >= 0 else 0
    if locomotive and locomotive >= best_gain + 0.25:  # a locomotive may be the draw
        blind = _blind(state, seat, gains)
        if takes_locomotive(locomotive, best_gain, blind):
            return loco
        take = best_gain > blind
    elif best_gain == 1 and max(gains) == 1:  # better than blind unless every card is one
        take = _unseen_below(state, seat, gains, 1)
    else:
        take = bool(best_gain) and best_gain > _blind(state, seat, gains)
    if best >= 0 and (take or not deck):
        return best
    return -1 if deck else loco


def _blind(state, seat: int, gains: list) -> float:
    """What a blind card is likely to be worth (``gains``): the cards the seat cannot see
    (all but its hand and the face-up row, ``Seen.unseen``) weighted by their gains."""
    unseen = _unseen(state, seat)
    total = sum(k for k in unseen if k > 0)
    worth = sum(g * k for g, k in zip(gains, unseen, strict=True) if k > 0 and g)
    return worth / (total or 1)


def _unseen_below(state, seat: int, gains: list, level: float) -> bool:
    """Whether a card the seat cannot see gains less than ``level`` (a blind card is then
    likely worth less than ``level``)."""
    unseen = None
    for c, g in enumerate(gains):
        if g < level:
            unseen = unseen or _unseen(state, seat)
            if unseen[c] > 0:
                return True
    return False


def _unseen(state, seat: int) -> list:
    """Per card index, the cards of it the seat cannot see (``Seen.unseen``, unclipped)."""
    cfg = state.cfg
    wild = state.wild
    hand = state.hands[seat]
    out = [cfg.cards_per_color - k for k in hand]
    out[wild] = cfg.wild_cards - hand[wild]
    for c in state.faceup:
        if c >= 0:
            out[c] -= 1
    return out


def _gains(state, seat: int, plan: set) -> list:
    """Per card index, what one more such card is worth to the plan: how much it lowers the
    cards the plan lacks (``planner.gains`` with the hard bot's tunnel spare, worked out in
    one pass instead of one deficit per card); when the hand pays it all, the hard bot's
    hoard (``Medium.card_gains``): 0.5 for the colour held most, 0.1 for every other."""
    hand = state.hands[seat]
    wild = state.wild
    need = [0] * wild
    grays = []
    locos = 0
    asks = _asks(state.board, state.cfg.colors)
    for r in plan:
        color, cards, ferry = asks[r]
        locos += ferry
        if color >= 0:
            need[color] += cards
        elif cards:
            grays.append(cards)
    wilds = hand[wild]
    missing = locos - wilds if locos > wilds else 0
    free = wilds - locos if wilds > locos else 0  # locomotives left for the coloured cards
    gaps = [n - h for n, h in zip(need, hand, strict=False)]  # no gap for the wild card
    short = sum(g for g in gaps if g > 0)
    gray = 0
    if grays:
        surplus = [-g if g < 0 else 0 for g in gaps]
        grays.sort(reverse=True)
        top = sorted(surplus, reverse=True)[: len(grays)]  # all the gray routes draw on
        gray = _gray_short(grays, top)
    lacking = short + gray - free  # coloured cards lacking, once locomotives fill in
    if not missing and lacking <= 0:
        out = [0.1] * (wild + 1)
        out[max(range(wild), key=hand.__getitem__)] = 0.5
        return out
    if lacking <= 0:  # a coloured card lowers nothing
        out = [0] * (wild + 1)
    elif not gray:  # only a colour the hand lacks
        out = [1 if g > 0 else 0 for g in gaps]
        out.append(1)
    elif len(grays) == 1:  # or the colour most spare, for the one gray route
        floor = top[0]
        out = [1 if g > 0 or -g == floor else 0 for g in gaps]
        out.append(1)
    else:
        out = [1 if g > 0 else 0 for g in gaps]
        out.append(1)
        eased = {}  # a spare colour's surplus -> what one more card of it is worth
        for c, k in enumerate(surplus):
            if k >= top[-1] and gaps[c] <= 0:  # below the top, it is not drawn on
                if k not in eased:
                    more = list(top)
                    more[more.index(k)] = k + 1
                    eased[k] = lacking - max(0, lacking - gray + _gray_short(grays, more))
                out[c] = eased[k]
    out[wild] = 1
    return out


@cache
def _asks(board, colors: tuple) -> tuple:
    """Per route index, (its colour's card index or -1 for gray, cards it asks besides its
    ferry locomotives with the hard bot's tunnel spare, ferry locomotives): what
    ``planner.deficit`` reads of a route."""
    return tuple(
        (row[5], row[4] - row[6] + (TUNNEL_SPARE if row[7] else 0), row[6])
        for row in route_rows(board, colors)
    )


def _gray_short(grays: list, top: list) -> int:
    """Cards the gray routes (``grays``: their lengths, longest first) lack once each takes
    the colour with the most cards to spare (``planner.deficit``'s rule), ``top``: the
    ``len(grays)`` largest surplus counts. Only those can be drawn on (each route takes the
    largest left: one not drawn on yet, or a rest of one already drawn on), and which colour
    has which count does not change what is lacking."""
    if len(grays) == 1:
        return grays[0] - top[0] if grays[0] > top[0] else 0
    top = list(top)
    short = 0
    for length in grays:
        k = max(top)
        if k >= length:
            top[top.index(k)] = k - length
        else:
            top[top.index(k)] = 0
            short += length - k
    return short


def _tunnel(state, legal: list) -> dict:
    """Pay the extra cards with the fewest locomotives, or decline when it cannot."""
    wild_name = state.card_names[state.wild]
    pays = [a for a in legal if a["type"] == "pay_tunnel"]
    if pays:
        return min(pays, key=lambda a: a["cards"].get(wild_name, 0))
    return next(a for a in legal if a["type"] == "decline_tunnel")
