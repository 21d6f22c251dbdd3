"""Bots: choose an action from a seat's own view and its legal actions only.

Terms: *level* names a bot (``easy`` for now; ``medium`` and ``hard`` come with the bots
issue and fall back to ``easy`` until then); a bot never sees the state, only what
``view_for(state, seat)`` shows that seat, so it cannot peek at hidden cards.
"""

from __future__ import annotations

import random

from .easy import choose as _easy

LEVELS = {"easy": _easy, "medium": _easy, "hard": _easy}


def choose_action(level: str, view: dict, legal: list[dict], seed: int = 0) -> dict:
    """The action the bot of ``level`` takes; ``legal`` must not be empty."""
    if not legal:
        raise ValueError("a bot was asked to act with no legal action")
    return LEVELS[level](view, legal, random.Random(seed))
