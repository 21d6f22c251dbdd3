"""Monte-Carlo odds over the cards a seat cannot see.

Terms:
- *unseen pool*: the cards the seat cannot see (``Seen.unseen``: other hands, the deck and
  the discard pile together). Only their total by colour is known to the seat, so every
  order of the pool is equally likely from its point of view; a *sample* is one such order,
  drawn from the bot's own seeded rng (nothing hidden in the real game is read).
- *own playout*: the seat alone works through a set of routes on one sample: each turn it
  claims one payable route of the set, else draws two cards from the top of the sample
  (blind draws only: a slight underestimate of its speed). Its length is the number of
  turns until the set is claimed (``cap`` if never).
- *odds*: the share of samples whose playout fits in the turns the seat has left.
- The same samples serve every option of one decision (common random numbers), so options
  are compared on equal luck.
"""

from __future__ import annotations

from .planner import color_index


def samples(seen, rng, count: int) -> list:
    """``count`` random orders of the unseen pool (lists of card indexes, top last)."""
    pool = [c for c, k in enumerate(seen.unseen()) for _ in range(k)]
    out = []
    for _ in range(count):
        order = pool[:]
        rng.shuffle(order)
        out.append(order)
    return out


def playout(seen, routes, order: list, cap: int) -> int:
    """Turns the seat needs to claim ``routes`` when it draws from ``order``."""
    board = seen.board
    colors = color_index(board, seen.names)
    wild = seen.wild
    hand = list(seen.hand)
    todo = sorted(routes, key=lambda r: -board.routes[r].length)
    top = len(order)
    turns = 0
    while todo and turns < cap:
        turns += 1
        for r in todo:
            if _pay(hand, board.routes[r], colors[r], wild):
                todo.remove(r)
                break
        else:
            for _ in range(2):
                if top:
                    top -= 1
                    hand[order[top]] += 1
    return turns if not todo else cap


def _pay(hand: list, route, color: int, wild: int) -> bool:
    """Pay for ``route`` from ``hand`` if it can (colour first, locomotives last)."""
    ferry = route.ferry_locomotives
    if hand[wild] < ferry:
        return False
    c = color if color >= 0 else max(range(wild), key=hand.__getitem__)
    own = min(hand[c], route.length - ferry)
    if own + hand[wild] < route.length:
        return False
    hand[c] -= own
    hand[wild] -= route.length - own
    return True


def odds(seen, routes, turns: float, orders: list) -> float:
    """Share of the sampled orders in which ``routes`` are all claimed within ``turns``."""
    if not routes:
        return 1.0
    cap = int(turns) + 1
    done = sum(1 for order in orders if playout(seen, routes, order, cap) <= turns)
    return done / len(orders)
