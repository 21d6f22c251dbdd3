"""Exact JSON round trip of a game state.

Terms: the *JSON form* is ``GameState.to_dict()`` dumped with sorted keys and no spaces, so
``to_json(from_json(s)) == s`` and equal states give byte-identical strings.
"""

from __future__ import annotations

import json

from .state import GameState


def to_json(state: GameState) -> str:
    """The state as a deterministic JSON string."""
    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def from_json(text: str) -> GameState:
    """A state from ``to_json`` output."""
    return GameState.from_dict(json.loads(text))
