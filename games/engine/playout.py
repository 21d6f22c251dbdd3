"""A whole random game in one call: ``playout(state, rng)`` (re-exported by ``search``).

Terms:
- *sampled loop*: the way a search plays a game out one decision at a time::

      while state.phase != "over":
          seats = current_seats(state)
          seat = seats[0] if len(seats) == 1 else rng.choice(seats)
          apply_trusted(state, seat, sample_action(state, seat, rng))

- ``playout(state, rng)`` is that loop, to the end: the same decisions, the same single
  ``rng.randrange(n)`` per decision (and ``rng.choice`` per set-up pick), so the same final
  state, log included. Without Warehouses & Depots, a turn, a second card and a tunnel
  payment are counted as ``sample_action`` counts them (the legal list's segments, in
  order) and applied at once through the rule modules' change functions (``cards.draw``,
  ``routes.claim``, ``stations.build``...) with ints, as ``apply_trusted`` would apply the
  action: no action dict is built and parsed back (but a station's: at most 3 a seat, and
  ``counting._station_at`` finds its city). The ticket choices, the pass, and every decision
  with Warehouses & Depots go through ``sample_action`` and ``apply_trusted``. A test plays
  both ways over games of every rule set and compares the final states, logs and rng
  states included (``benchmarks/engine.py`` compares its games too).
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from . import phases
from .actions import apply_trusted, current_seats
from .counting import _claim_count, _claim_total, _station_at, _stations
from .rules.cards import draw, recheck_faceup
from .rules.payment import counts_of, options
from .rules.routes import (
    apply_decline_tunnel,
    claim,
    open_counts,
    pay_tunnel,
    route_rows,
    tunnel_options,
)
from .rules.stations import build, station_options
from .rules.tickets import apply_draw_tickets
from .rules.turns import end_turn
from .search import sample_action

if TYPE_CHECKING:
    from .state import GameState

TURN = phases.TURN
DRAW2 = phases.DRAW2
TUNNEL = phases.TUNNEL
OVER = phases.OVER


def playout(state: GameState, rng, max_steps: int = 1 << 62) -> int:
    """Play ``state`` on (in place) to the end of the game, or for ``max_steps`` decisions,
    exactly as the sampled loop would with ``rng``; return the decisions made."""
    steps = 0
    if state.wh:  # Warehouses & Depots: every decision the sampled way
        while state.phase != OVER and steps < max_steps:
            _sampled_step(state, rng)
            steps += 1
        return steps
    # ``Random.randrange(n)`` is ``Random._randbelow(n)`` once its checks pass (n >= 1 here):
    # the same draws, without the checks, for the standard generator itself
    randrange = rng._randbelow if type(rng) is Random else rng.randrange  # type: ignore[attr-defined]
    rows = route_rows(state.board, state.cfg.colors)
    limit = state.cfg.faceup_wild_limit
    for seat in range(state.n):  # fill the open-route bookkeeping (``place`` keeps it right)
        open_counts(state, seat)
    while steps < max_steps:
        phase = state.phase
        seat = state.current
        if phase == TURN:
            ends = _turn(state, seat, randrange, rows)
        elif phase == DRAW2:
            ends = _second_card(state, seat, randrange)
        elif phase == TUNNEL:
            ends = _tunnel(state, seat, randrange)
        elif phase == OVER:
            break
        else:  # set-up and ticket choices
            ends = None
        if ends is None:
            _sampled_step(state, rng)
        else:
            if ends:
                end_turn(state, seat)
            # actions._settle without Warehouses & Depots, its cheap common case inline
            if state.faceup.count(state.wild) >= limit and state.phase != OVER:
                recheck_faceup(state)
        steps += 1
    return steps


def _sampled_step(state: GameState, rng) -> None:
    """One decision of the sampled loop."""
    seats = current_seats(state)
    seat = seats[0] if len(seats) == 1 else rng.choice(seats)
    apply_trusted(state, seat, sample_action(state, seat, rng))


def _turn(state: GameState, seat: int, randrange, rows: tuple) -> bool | None:
    """A ``turn`` decision, counted as ``search._sample_turn`` counts it (the legal list's
    segments, in order) and applied; whether the turn ends, or ``None`` if the decision is
    left to ``_sampled_step`` (a station, or the pass: the rng not used yet)."""
    faceup = state.faceup
    deck = 1 if state.deck or state.discard else 0
    draws = deck + len(faceup) - faceup.count(-1)
    tickets = draws + (1 if state.ticket_deck else 0)
    m = state.open_cache[3][seat]
    claims = tickets + _claim_total(state, seat, m if m is not None else open_counts(state, seat))
    pays, free = _stations(state, seat)
    stations = pays * free
    if not claims and not stations:
        return None  # the pass
    i = randrange(claims + stations)
    if i < draws:
        return draw(state, seat, _slot(faceup, i - deck, -1), -1, False)
    if i < tickets:
        return apply_draw_tickets(state, seat)
    if i < claims:
        return _claim(state, seat, i - tickets, rows)
    action = _station_at(state, seat, station_options(state, seat), i - claims)
    counts = counts_of(state, action["cards"])[0]
    return build(state, seat, state.board.city_index[action["city"]], counts)


def _second_card(state: GameState, seat: int, randrange) -> bool | None:
    """A second card (``sample_action`` in phase ``draw2``), drawn."""
    faceup = state.faceup
    wild = state.wild
    deck = 1 if state.deck or state.discard else 0
    n = deck + len(faceup) - faceup.count(-1) - faceup.count(wild)
    if not n:  # pragma: no cover - never (a first card leaves a second to take or ends the
        return None  # turn); left to the sampled loop, as randrange(0) would spin
    return draw(state, seat, _slot(faceup, randrange(n) - deck, wild), -1, True)


def _claim(state: GameState, seat: int, i: int, rows: tuple) -> bool:
    """Claim action ``i`` of the seat (``counting._claim_at`` without the dict)."""
    groups = state.open_cache[2][seat]  # filled by ``playout``, kept by ``place``
    length, ferry, color, members, npay, i = _claim_count(state, seat, i, groups)
    r, p = divmod(i, npay)
    wild = state.wild
    colors = range(wild) if color < 0 else (color,)
    c, k = options(state.hands[seat], wild, length, ferry, colors)[p]
    return claim(state, seat, rows[members[r][0]], c, _counts(wild, c, k, length), [])


def _counts(wild: int, c: int, k: int, total: int) -> list:
    """Card counts by colour of payment option ``(c, k)`` for ``total`` cards (as
    ``payment.counts_of`` reads them off the action's cards)."""
    counts = [0] * (wild + 1)
    if c == wild:
        counts[wild] = total
    else:
        counts[c] = total - k
        counts[wild] = k
    return counts


def _tunnel(state: GameState, seat: int, randrange) -> bool:
    """A tunnel decision: one of ``routes.tunnel_actions`` (each extra payment, then the
    decline), applied as ``apply_trusted`` would."""
    payments = tunnel_options(state, seat)
    i = randrange(len(payments) + 1)
    if i == len(payments):
        return apply_decline_tunnel(state, seat)
    c, k = payments[i]
    return pay_tunnel(state, seat, _counts(state.wild, c, k, state.tunnel["extra"]))


def _slot(faceup: list, i: int, skip: int) -> int:
    """The slot of the ``i``-th face-up card that may be taken (cards ``skip`` may not);
    ``-1`` (the deck) for ``i < 0``."""
    if i < 0:
        return -1
    for slot, c in enumerate(faceup):
        if c >= 0 and c != skip:
            if not i:
                return slot
            i -= 1
    raise IndexError("action index out of range")  # pragma: no cover - counted before
