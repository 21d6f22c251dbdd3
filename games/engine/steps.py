"""A step: one action applied, and what it did, said by the engine itself.

Terms: a *step* is one accepted action. Its ``Step`` tells a host what changed without the
host comparing the engine's fields: whether a new *decision clock* starts (a new turn began,
or set-up passed to the next seat: the host restarts its move clock then, not for the later
parts of a turn such as the second card, a tunnel payment or keeping drawn tickets), whether
the game is over, and who decides next (ARCHITECTURE.md, "A step says what it did").
"""

from __future__ import annotations

from dataclasses import dataclass

from . import phases
from .actions import apply_action, current_seats


@dataclass(frozen=True)
class Step:
    clock_restarts: bool
    game_over: bool
    deciding: tuple[int, ...]


def step(state, seat, action) -> Step:
    """``apply_action`` (in place, same errors, nothing changed on one) and what it did."""
    turn, phase, before = state.turn, state.phase, current_seats(state)
    apply_action(state, seat, action)
    deciding = tuple(current_seats(state))
    # A turn begins when the turn number moves on, or play starts after set-up; depot set-up
    # passes from seat to seat, each with a clock of its own (free depot placements during a
    # turn keep phase and turn: no new clock).
    new_turn = state.phase == phases.TURN and (state.turn != turn or phase != phases.TURN)
    next_placer = state.phase == phases.DEPOTS and list(deciding) != before
    return Step(
        clock_restarts=new_turn or next_placer,
        game_over=state.phase == phases.OVER,
        deciding=deciding,
    )
