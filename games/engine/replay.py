"""Replaying a game from its parameters and its action list.

Terms: an *action record* is ``[seat, action dict]`` (or ``{"seat": s, "action": a}``), in
the order the engine accepted them. Replays are exact because all randomness comes from
the seed (``rng``).
"""

from __future__ import annotations

from .actions import apply_action
from .setup import new_game


def replay(params: dict, actions) -> object:
    """A state from ``new_game(**params)`` with ``actions`` applied in order."""
    state = new_game(**params)
    for record in actions:
        if isinstance(record, dict):
            seat, action = record["seat"], record["action"]
        else:
            seat, action = record
        apply_action(state, seat, action)
    return state
