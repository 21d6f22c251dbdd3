"""Claiming routes: colours, gray routes, double routes, ferries and tunnels (docs/rules.md 1.3.2).

Terms:
- *open for a seat*: unclaimed, the seat has at least ``length`` cars, and the double-route
  rule allows it: with ``single_double_max_players`` (3) players or fewer a claimed twin
  closes the route for everyone; with more, only the twin's owner is barred.
- *ferry locomotives*: wild cards a ferry needs at least (they still count to the length).
- *tunnel*: after paying the length, ``tunnel_reveal`` cards are revealed from the deck
  (reshuffling the discard if needed; fewer if fewer exist; none: no risk). Each revealed
  card of the played colour, and each revealed wild card, asks for one extra card of that
  colour or a wild card; if only wild cards were played, only revealed wild cards count and
  the extras must be wild. The extra payment is a separate decision (phase ``tunnel``,
  actions ``pay_tunnel`` / ``decline_tunnel``); on decline the played cards go back to the
  hand. Revealed cards go to the discard pile at the end of the turn.
- *warehouses* (Warehouses & Depots): a claim may carry ``"warehouses": [seat, ...]``, the
  warehouses it takes once the route is placed (see ``depots``); listed claims come once
  without the key and once per allowed choice.
- *route row*: a precomputed tuple ``(index, id, a, b, length, colour, ferry, tunnel,
  twin)`` with the colour as a card index (-1 for gray); the hot loops read these.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from .. import phases
from ..errors import IllegalAction
from .cards import card_dict, card_names, draw_blind
from .depots import check_take, take, take_options
from .payment import check_holds, options, pay, payment_color

if TYPE_CHECKING:
    from ..state import GameState


@cache
def route_rows(board, colors: tuple) -> tuple:
    """The route rows of a board (see module docstring)."""
    cidx = {c: i for i, c in enumerate(colors)}
    return tuple(
        (
            r.index,
            r.id,
            r.a,
            r.b,
            r.length,
            cidx.get(r.color, -1),
            r.ferry_locomotives,
            r.tunnel,
            r.twin,
        )
        for r in board.routes
    )


def _closed_reason(state: GameState, seat: int, index: int) -> str | None:
    """Why the route is not open for the seat (ignoring cars), or None."""
    owner = state.owner
    if owner[index] != -1:
        return "route_taken"
    twin = state.board.routes[index].twin
    if twin >= 0 and owner[twin] != -1:
        if state.n <= state.cfg.single_double_max_players:
            return "double_route_closed"
        if owner[twin] == seat:
            return "double_route_own"
    return None


@cache
def route_groups(board, colors: tuple) -> tuple:
    """Routes grouped by what a payment for them depends on.

    ``((length, ferry, colour, ((index, id, twin), ...)), ...)``, sorted by length, colour
    (-1 gray first) and ferry locomotives.
    """
    groups: dict = {}
    for index, rid, _, _, length, color, ferry, _, twin in route_rows(board, colors):
        groups.setdefault((length, color, ferry), []).append((index, rid, twin))
    return tuple(
        (length, ferry, color, tuple(members))
        for (length, color, ferry), members in sorted(groups.items())
    )


def open_groups(state: GameState, seat: int) -> list:
    """Per group of ``state.route_groups`` (same order), the ``((index, id), ...)`` of its
    routes open to the seat, cars aside (see ``_closed_reason``); ``()`` when none is.

    Derived bookkeeping in ``state.open_cache`` (never serialised): ``[owner list, unclaimed
    count, per seat: that list or None, per seat: its lengths (``open_counts``) or None]``,
    computed on first use and kept up to date by ``place`` (the only way a route gets an
    owner). It is trusted only while ``owner`` is the same list object with the same number
    of unclaimed routes, so a state put together field by field is recomputed, not misread.
    A test checks it against ``compute_open_groups`` after every step of many games of every
    rule set. Used by the counting of ``search`` (``sample_action``), which needs every
    group's open count;
    ``_claims`` filters inline instead (it builds payments only for groups the hand can pay,
    and measured faster so), and a state no search touched carries no cache to update."""
    owner = state.owner
    oc = state.open_cache
    if oc is None or oc[0] is not owner or oc[1] != owner.count(-1):
        oc = state.open_cache = [owner, owner.count(-1), [None] * state.n, [None] * state.n]
    groups = oc[2][seat]
    if groups is None:
        groups = oc[2][seat] = compute_open_groups(state, seat)
        oc[3][seat] = [len(members) for members in groups]
    return groups


def open_counts(state: GameState, seat: int) -> list:
    """Per group of ``state.route_groups``, how many of its routes are open to the seat
    (``len`` of each ``open_groups`` entry, kept alongside them by ``place``)."""
    oc = state.open_cache
    if oc is not None and oc[0] is state.owner:
        counts = oc[3][seat]
        if counts is not None and oc[1] == state.owner.count(-1):
            return counts
    open_groups(state, seat)
    return state.open_cache[3][seat]


def compute_open_groups(state: GameState, seat: int) -> list:
    """``open_groups`` computed afresh."""
    owner = state.owner
    if owner.count(-1) == len(owner):  # no route claimed yet
        return list(_all_open(state.board, state.cfg.colors))
    single = state.single
    return [
        tuple(
            (index, rid)
            for index, rid, twin in members
            if owner[index] == -1
            and not (twin >= 0 and owner[twin] != -1 and (single or owner[twin] == seat))
        )
        for _, _, _, members in state.route_groups
    ]


@cache
def _all_open(board, colors: tuple) -> tuple:
    """``open_groups`` while no route is claimed."""
    return tuple(
        tuple((index, rid) for index, rid, _ in members)
        for _, _, _, members in route_groups(board, colors)
    )


def _close(oc: list, seats, index: int, g: int) -> None:
    """Take route ``index`` (of group ``g``) out of the open lists of ``seats`` (seat
    numbers) in the bookkeeping ``oc``: their ``open_groups`` and ``open_counts``."""
    per_seat = oc[2]
    counts = oc[3]
    for seat in seats:
        groups = per_seat[seat]
        if groups is not None:
            members = groups[g]
            for j, m in enumerate(members):
                if m[0] == index:
                    groups[g] = members[:j] + members[j + 1 :]
                    counts[seat][g] -= 1
                    break


@cache
def group_of(board, colors: tuple) -> tuple:
    """Route index -> its position in ``route_groups``."""
    out = [0] * len(board.routes)
    for g, (_, _, _, members) in enumerate(route_groups(board, colors)):
        for index, _, _ in members:
            out[index] = g
    return tuple(out)


def _claims(state: GameState, seat: int, first_only: bool = False) -> list:
    """``(route id, cards dicts)`` for every route the seat can claim now.

    Payment options depend only on (length, ferry locomotives, colour) and the hand: they are
    computed once per route group, and a group the hand cannot pay for is skipped whole.
    This is the engine's hottest path.
    """
    hand = state.hands[seat]
    wild = state.wild
    w = hand[wild]
    # a payment is one colour plus wild cards: nothing longer than that fits
    most = max(hand[:wild]) + w
    trains = state.trains[seat]
    maxlen = trains if trains < most else most
    owner = state.owner
    single = state.single
    names = state.card_names
    wname = names[wild]
    all_colors = range(wild)
    out = []
    for length, ferry, color, members in state.route_groups:
        if length > maxlen:
            break
        if ferry > w or (color >= 0 and hand[color] + w < length):
            continue
        payments = None
        for index, rid, twin in members:
            if owner[index] != -1:
                continue
            if twin >= 0 and owner[twin] != -1 and (single or owner[twin] == seat):
                continue
            if payments is None:
                colors = all_colors if color < 0 else (color,)
                payments = [
                    {wname: length}
                    if c == wild
                    else ({names[c]: length - k, wname: k} if k else {names[c]: length})
                    for c, k in options(hand, wild, length, ferry, colors)
                ]
                if not payments:
                    break
            out.append((rid, payments))
            if first_only:
                return out
    return out


def claim_actions(state: GameState, seat: int) -> list:
    """The legal claim_route actions, one per route, payment option (and warehouse choice)."""
    if state.wh and state.depots_left[seat] > 0 and any(state.warehouses):
        index = state.board.route_index
        out = []
        for rid, payments in _claims(state, seat):
            takes = take_options(state, seat, index[rid])
            for cards in payments:
                for chosen in takes:
                    action = {"type": "claim_route", "route": rid, "cards": cards.copy()}
                    if chosen:
                        action["warehouses"] = chosen
                    out.append(action)
        return out
    return [
        {"type": "claim_route", "route": rid, "cards": cards.copy()}
        for rid, payments in _claims(state, seat)
        for cards in payments
    ]


def can_claim(state: GameState, seat: int) -> bool:
    return bool(_claims(state, seat, first_only=True))


def _validate_claim(state: GameState, seat: int, route_id, counts) -> tuple:
    index = state.board.route_index.get(route_id)
    if index is None:
        raise IllegalAction("unknown_route", route=route_id)
    reason = _closed_reason(state, seat, index)
    if reason:
        raise IllegalAction(reason, route=route_id)
    row = route_rows(state.board, state.cfg.colors)[index]
    length, color, ferry = row[4], row[5], row[6]
    if length > state.trains[seat]:
        raise IllegalAction(
            "not_enough_trains", route=route_id, needed=length, left=state.trains[seat]
        )
    if sum(counts) != length:
        raise IllegalAction("wrong_card_count", expected=length, got=sum(counts))
    paid = payment_color(state, counts)
    wild = state.wild
    if color >= 0 and paid not in (color, wild):
        names = state.card_names
        raise IllegalAction("wrong_color", route=route_id, needed=names[color], color=names[paid])
    if counts[wild] < ferry:
        raise IllegalAction("ferry_locomotives", route=route_id, needed=ferry)
    check_holds(state, seat, counts)
    return row, paid


def place(state: GameState, seat: int, index: int) -> None:
    """Put the seat's cars on the route and score it at once (docs/rules.md 1.3.2 table)."""
    board = state.board
    route = board.routes[index]
    length = route.length
    owner = state.owner
    oc = state.open_cache
    if oc is not None and oc[0] is owner and oc[1] == owner.count(-1):
        every = range(state.n)
        g = group_of(board, state.cfg.colors)
        _close(oc, every, index, g[index])
        twin = route.twin
        if twin >= 0:  # the twin closes for everyone (2-3 players) or for the claimer
            _close(oc, every if state.single else (seat,), twin, g[twin])
        oc[1] -= 1
    owner[index] = seat
    state.trains[seat] -= length
    state.scores[seat] += state.board.scoring[length]
    state.routes_of[seat].append(index)


def apply_claim(state: GameState, seat: int, route_id: int, counts, chosen=None) -> bool:
    """Claim a route (or start a tunnel); return True if the turn ends.

    ``chosen``: the claim's ``warehouses`` list (None: the key was absent)."""
    row, paid = _validate_claim(state, seat, route_id, counts)
    takes = [] if chosen is None else check_take(state, seat, row[0], chosen)
    return claim(state, seat, row, paid, counts, takes)


def claim(state: GameState, seat: int, row: tuple, paid: int, counts, takes: list) -> bool:
    """``apply_claim`` after its checks: the route's row, the payment's colour and counts, the
    sorted warehouse take."""
    route_id = row[1]
    names = state.card_names
    cards = {names[i]: k for i, k in enumerate(counts) if k}  # card_dict, inline
    extra_log: dict[str, Any] = {"warehouses": takes} if takes else {}
    if not row[7]:
        pay(state, seat, counts)
        place(state, seat, row[0])
        log = state.log  # the entry of state.log_event, written out (a playout's hot path)
        entry = {
            "seq": state.log_base + len(log),
            "seat": seat,
            "type": "claim_route",
            "route": route_id,
            "cards": cards,
        }
        if takes:
            entry["warehouses"] = takes
            log.append(entry)
            take(state, seat, takes)
        else:
            log.append(entry)
        return True
    hand = state.hands[seat]
    for i, k in enumerate(counts):
        hand[i] -= k
    revealed = []
    for _ in range(state.cfg.tunnel_reveal):
        card = draw_blind(state)
        if card < 0:
            break
        revealed.append(card)
    wild = state.wild
    extra = revealed.count(wild) + (revealed.count(paid) if paid != wild else 0)
    state.tunnel = {
        "route": row[0],
        "played": list(counts),
        "revealed": revealed,
        "extra": extra,
        "color": paid,
        "warehouses": takes,
    }
    state.log_event(
        seat,
        "tunnel_attempt",
        route=route_id,
        cards=cards,
        revealed=card_names(state, revealed),
        extra=extra,
        **extra_log,
    )
    if extra == 0:
        _finish_tunnel(state, seat, [0] * (wild + 1))
        return True
    state.phase = phases.TUNNEL
    return False


def tunnel_options(state: GameState, seat: int) -> list:
    """Affordable extra payments ``(colour, wilds)`` for the pending tunnel."""
    t = state.tunnel
    wild = state.wild
    hand = state.hands[seat]
    extra = t["extra"]
    if t["color"] == wild:
        return [(wild, extra)] if hand[wild] >= extra else []
    return options(hand, wild, extra, 0, (t["color"],))


def tunnel_actions(state: GameState, seat: int) -> list:
    names = state.card_names
    wild = state.wild
    extra = state.tunnel["extra"]
    out = []
    for c, k in tunnel_options(state, seat):
        if c == wild:
            cards = {names[wild]: extra}
        elif k:
            cards = {names[c]: extra - k, names[wild]: k}
        else:
            cards = {names[c]: extra}
        out.append({"type": "pay_tunnel", "cards": cards})
    out.append({"type": "decline_tunnel"})
    return out


def apply_pay_tunnel(state: GameState, seat: int, counts) -> bool:
    t = state.tunnel
    if sum(counts) != t["extra"]:
        raise IllegalAction("wrong_card_count", expected=t["extra"], got=sum(counts))
    paid = payment_color(state, counts)
    wild = state.wild
    if paid not in (t["color"], wild):
        names = state.card_names
        route_id = state.board.routes[t["route"]].id
        raise IllegalAction(
            "wrong_color", route=route_id, needed=names[t["color"]], color=names[paid]
        )
    check_holds(state, seat, counts)
    return pay_tunnel(state, seat, counts)


def pay_tunnel(state: GameState, seat: int, counts) -> bool:
    """``apply_pay_tunnel`` after its checks."""
    t = state.tunnel
    state.log_event(
        seat,
        "pay_tunnel",
        route=state.board.routes[t["route"]].id,
        cards=card_dict(state, counts),
    )
    _finish_tunnel(state, seat, counts)
    return True


def _finish_tunnel(state: GameState, seat: int, counts) -> None:
    t = state.tunnel
    pay(state, seat, counts)
    for i, k in enumerate(t["played"]):
        state.discard.extend([i] * k)
    t["played"] = [0] * len(t["played"])
    place(state, seat, t["route"])
    if t["warehouses"]:
        take(state, seat, t["warehouses"])
    # revealed cards are discarded at the end of the turn (end_turn does it)


def apply_decline_tunnel(state: GameState, seat: int) -> bool:
    t = state.tunnel
    hand = state.hands[seat]
    for i, k in enumerate(t["played"]):
        hand[i] += k
    t["played"] = [0] * len(hand)
    state.log_event(seat, "decline_tunnel", route=state.board.routes[t["route"]].id)
    return True
