"""Bots: choose an action from a seat's own view and its legal actions only.

Terms: *level* names a bot: ``easy`` (legal, sensible moves, no planning), ``medium``
(plans cheapest paths for its tickets and draws what they need), ``hard`` (medium's planner
with completion odds from Monte-Carlo draws over the unseen cards, ticket and end-game
judgement, longest-path play and cheap blocking), ``expert`` (searches: samples the hidden
facts from the seat's view and plays the hard bot's candidate moves out in each sample:
``expert.py``). A bot never sees the state, only what
``view_for(state, seat)`` shows that seat (plus the public board), so it cannot peek at
hidden cards; its randomness comes from ``seed`` only, so a decision is reproducible.
"""

from __future__ import annotations

import random

from .easy import choose as _easy
from .expert import choose as _expert
from .hard import choose as _hard
from .medium import choose as _medium

LEVELS = {"easy": _easy, "medium": _medium, "hard": _hard, "expert": _expert}


def choose_action(level: str, view: dict, legal: list[dict], seed: int = 0) -> dict:
    """The action the bot of ``level`` takes; ``legal`` must not be empty."""
    if not legal:
        raise ValueError("a bot was asked to act with no legal action")
    return LEVELS[level](view, legal, random.Random(seed))
