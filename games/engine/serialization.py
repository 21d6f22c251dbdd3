"""Exact JSON round trip of a game state.

Terms: the *JSON form* is ``GameState.to_dict()`` dumped with sorted keys and no spaces, so
``to_json(from_json(s)) == s`` and equal states give byte-identical strings.

The engine imports only the standard library; a host may plug in a faster codec
(``set_json_codec``: the Django app plugs in orjson, which writes and parses the JSON form
about eight and three times as fast, and a move stores and loads the whole state once each).
A plugged-in ``dumps`` is trusted only where its text is the standard library's byte for
byte: its output is used when it is ASCII (json escapes anything else), and a value it cannot
write (a key that is not a string, an integer beyond 64 bits) falls back to ``json``.
"""

from __future__ import annotations

import json

from .state import GameState

_dumps = None  # (data) -> str, sorted keys, no spaces; or None for json alone
_loads = json.loads


def set_json_codec(*, dumps=None, loads=None) -> None:
    """Use ``dumps``/``loads`` for the JSON form (``None``: the standard library's)."""
    global _dumps, _loads
    _dumps, _loads = dumps, loads or json.loads


def to_json(state: GameState) -> str:
    """The state as a deterministic JSON string."""
    data = state.to_dict()
    if _dumps is not None:
        try:
            text = _dumps(data)
        except (TypeError, ValueError):
            text = None
        if text is not None and text.isascii():
            return text
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def from_json(text: str) -> GameState:
    """A state from ``to_json`` output."""
    return GameState.from_dict(_loads(text))
