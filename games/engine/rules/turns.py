"""Turn order, passing, the last round and the end of the game (docs/rules.md 1.4).

Terms:
- *end of turn*: revealed tunnel cards go to the discard pile (1.3.2 step 5), empty face-up
  slots are refilled if cards exist, the last-round and all-pass checks run, and play moves
  to the next seat (clockwise = increasing seat number).
- *last round*: when a seat ends its turn with ``end_trains`` (2) or fewer cars, every seat,
  that one included, plays one more turn: ``turns_left`` starts at the seat count and drops
  by one at the end of each following turn; at 0 the game ends.
- *pass*: allowed only when the seat has no other action (1.4 Decision); ``passes`` counts
  consecutive passes, and a full round of them (one per seat) ends the game at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import phases
from ..scoring import final_scores
from .cards import can_draw, refill_faceup
from .routes import can_claim
from .stations import can_build

if TYPE_CHECKING:
    from ..state import GameState


def has_action(state: GameState, seat: int) -> bool:
    """Whether the seat has any action besides passing in phase ``turn``."""
    return (
        can_draw(state, False)
        or bool(state.ticket_deck)
        or can_claim(state, seat)
        or can_build(state, seat)
    )


def end_turn(state: GameState, seat: int, passed: bool = False) -> None:
    """Finish the seat's turn and start the next one (or end the game)."""
    if state.tunnel is not None:
        state.discard.extend(state.tunnel["revealed"])
        state.tunnel = None
    faceup = state.faceup
    if -1 in faceup or faceup.count(state.wild) >= state.cfg.faceup_wild_limit:
        refill_faceup(state)  # else it would change nothing: a full row under the limit
    state.passes = state.passes + 1 if passed else 0
    if state.passes >= state.n:
        finish(state, "all_passed")
        return
    if state.last_round >= 0:
        state.turns_left -= 1
        if state.turns_left <= 0:
            finish(state, "last_round")
            return
    elif state.trains[seat] <= state.cfg.end_trains:
        state.last_round = seat
        state.turns_left = state.n
        state.log_event(seat, "last_round", trains_left=state.trains[seat])
    state.phase = phases.TURN
    state.turn += 1
    state.current = (seat + 1) % state.n


def finish(state: GameState, reason: str) -> None:
    """Score the game and close it."""
    state.final = final_scores(state, reason)
    for p in state.final["players"]:
        state.scores[p["seat"]] = p["score"]
    state.phase = phases.OVER
    state.current = -1
    state.log_event(
        None,
        "game_end",
        reason=reason,
        scores=[p["score"] for p in state.final["players"]],
        ranks=[p["rank"] for p in state.final["players"]],
    )
