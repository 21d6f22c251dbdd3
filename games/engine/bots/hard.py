"""The hard bot: medium's planner with better judgement.

Terms: see ``medium`` and ``planner``.
"""

from __future__ import annotations

from .medium import Medium, Style
from .planner import Weights

HARD = Style(
    weights=Weights(per_route=1.5, value=0.2),
    car_price=0.8,
    setup_price=0.8,
    setup_spare=15,
    ticket_trains=10,
    tunnel_spare=1,
)


class Hard(Medium):
    style = HARD


def choose(view: dict, legal: list, rng) -> dict:
    return Hard(view, legal, rng).choose()
