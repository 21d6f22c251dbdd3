"""The easy bot: legal, sensible moves without planning.

It claims the longest route it can pay for (fewest locomotives), otherwise draws the face-up
colour it already collects or a blind card; keeps the fewest, cheapest tickets; pays for a
tunnel when it can.
"""

from __future__ import annotations


def choose(view: dict, legal: list[dict], rng) -> dict:
    by_type: dict[str, list[dict]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    if "keep_tickets" in by_type:
        return min(by_type["keep_tickets"], key=lambda a: (len(a["tickets"]), rng.random()))
    if "pay_tunnel" in by_type:
        return by_type["pay_tunnel"][0]
    if "claim_route" in by_type and rng.random() < 0.7:
        return _best_claim(view, by_type["claim_route"], rng)
    if "draw_card" in by_type:
        return _draw(view, by_type["draw_card"], rng)
    for kind in ("claim_route", "draw_tickets", "build_station", "decline_tunnel", "pass"):
        if kind in by_type:
            return rng.choice(by_type[kind])
    return rng.choice(legal)


def _best_claim(view: dict, claims: list[dict], rng) -> dict:
    def score(action):
        cards = action["cards"]
        return (sum(cards.values()), -cards.get("locomotive", 0), rng.random())

    return max(claims, key=score)


def _draw(view: dict, draws: list[dict], rng) -> dict:
    hand = (view.get("you") or {}).get("hand", {})
    faceup = [a for a in draws if a.get("source") == "faceup" and a.get("color") != "locomotive"]
    if faceup:
        best = max(faceup, key=lambda a: (hand.get(a.get("color"), 0), rng.random()))
        if hand.get(best.get("color"), 0) >= 2:
            return best
    blind = [a for a in draws if a.get("source") == "deck"]
    return blind[0] if blind else rng.choice(draws)
