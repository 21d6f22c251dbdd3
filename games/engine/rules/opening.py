"""The opening: from the deal to the first turn, in one place (docs/rules.md 1.2, 2.1).

The sequence: the deal (``setup.new_game``) -> phase ``SETUP``: every seat keeps tickets
from its offer, all at the same time -> once the last seat has chosen, the returned tickets
go under the ticket deck, shuffled together (``tickets_chosen``) -> with Warehouses &
Depots, phase ``DEPOTS``: each seat places one depot, the seat before the first player (last
in turn order) first, then counter-clockwise (decreasing seat numbers) down to the first
player (``depot_placed``) -> phase ``TURN``: the first player's turn (``begin_play``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import phases
from ..rng import shuffle

if TYPE_CHECKING:
    from ..state import GameState


def tickets_chosen(state: GameState) -> None:
    """Every seat has kept its set-up tickets: returns go under the deck (shuffled), then
    the initial depots (Warehouses & Depots) or the first turn."""
    if state.setup_returned:
        back = state.setup_returned
        state.rng = shuffle(state.rng, back)
        state.ticket_deck[:0] = back
        state.setup_returned = []
    if state.wh:
        state.phase = phases.DEPOTS
        state.current = (state.first - 1) % state.n
        state.log_event(None, "initial_depots", order=depot_order(state))
        return
    begin_play(state)


def depot_placed(state: GameState, seat: int) -> None:
    """``seat`` placed its initial depot: the next seat places, or, after the first player,
    play starts."""
    if seat == state.first:
        begin_play(state)
    else:
        state.current = (seat - 1) % state.n


def depot_order(state: GameState) -> list:
    """Seats still to place their initial depot, in order (phase ``DEPOTS``)."""
    if state.phase != phases.DEPOTS:
        return []
    n, first, cur = state.n, state.first, state.current
    return [(cur - k) % n for k in range((cur - first) % n + 1)]


def begin_play(state: GameState) -> None:
    """The first turn starts."""
    state.phase = phases.TURN
    state.current = state.first
    state.log_event(None, "play_start", first_seat=state.first)
