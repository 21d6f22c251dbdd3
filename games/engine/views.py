"""THE redaction: what a viewer may see of a game (docs/rules.md 1.6, ARCHITECTURE example 4).

Terms:
- *viewer*: a seat number (that player), ``None`` (a spectator: public facts only), or
  ``"all"`` (everything, for finished-game replays and admin tools).
- ``may_see(viewer, seat)``: the one predicate deciding whether a viewer sees a seat's
  private facts (hand colours, tickets, ticket offers, blind draws). Every outbound path
  (``view_for``, ``log_for``) goes through it.
- *log entry*: ``{"seq", "seat", "type", ...public facts}``; its private facts are stored
  under ``"secret"`` and merged in only for viewers who ``may_see`` the entry's seat.
- Public (1.6): scores, cars and stations left, claimed routes, built stations, hand and
  ticket counts, face-up cards, deck/discard/ticket-deck sizes, tunnel reveals and cards
  played, the log's public facts. Secret: card colours in hands, tickets, deck order,
  tickets being chosen.
- Warehouses & Depots (docs/rules.md §2): depots on the map, depots left, warehouse card counts
  are public; warehouse colours are secret to every seat, the owner included. **Decision**:
  ``"all"`` (replays of finished games, admin) sees them as ``players[i].warehouse``. The
  log never names them (a taker's ``take_warehouse`` entry names the cards it got, for the
  taker only).
- New York: ``players[i].attractions`` (tourist attractions touched, public as routes are).
"""

from __future__ import annotations

from . import phases
from .errors import IllegalAction
from .graph import components_of, find
from .rules.cards import card_dict, card_names, faceup_names
from .rules.opening import depot_order
from .rules.tickets import ticket_ids
from .scoring import attractions_of, own_edges


def may_see(viewer, seat) -> bool:
    """Whether ``viewer`` sees the private facts of ``seat`` (None: nobody's)."""
    if viewer == "all":
        return True
    return seat is not None and viewer is not None and viewer == seat


def check_viewer(state, viewer) -> None:
    if viewer is None or viewer == "all":
        return
    if type(viewer) is not int or not 0 <= viewer < state.n:
        raise IllegalAction("invalid_seat", seat=viewer)


def redact_entry(entry: dict, viewer) -> dict:
    """One log entry as ``viewer`` may see it (a new dict)."""
    out = {k: v for k, v in entry.items() if k != "secret"}
    secret = entry.get("secret")
    if secret is not None and may_see(viewer, entry["seat"]):
        out.update(secret)
    return out


def redact_entries(entries: list, viewer) -> list:
    """Raw log entries (a state's, or ones a host detached and stored) as ``viewer`` may see
    them (``viewer`` as for ``view_for``; the caller vouches that it is a seat of the game)."""
    return [redact_entry(e, viewer) for e in entries]


def log_for(state, viewer, since: int | None = None) -> list:
    """Log entries from index ``since`` redacted for ``viewer`` (``None``: all the state
    holds, from ``log_base``). The state must hold them: ``since`` may not be below
    ``log_base`` (``attach_log`` puts detached entries back)."""
    check_viewer(state, viewer)
    if since is None:
        since = state.log_base
    if type(since) is not int or since < 0:
        raise IllegalAction("malformed_action", detail="'since' must be a non-negative int")
    if since < state.log_base:
        raise IllegalAction(
            "malformed_action", detail=f"'since' is before entry {state.log_base}, detached"
        )
    return redact_entries(state.log[since - state.log_base :], viewer)


def _tickets_view(state, seat: int, indexes) -> list:
    """Tickets with ``completed`` computed from the seat's own routes only."""
    board = state.board
    parent = components_of(len(board.cities), own_edges(state, seat))
    names = [c.name for c in board.cities]
    out = []
    for i in indexes:
        t = board.tickets[i]
        done = find(parent, t.a) == find(parent, t.b)
        out.append({"id": t.id, "a": names[t.a], "b": names[t.b], "points": t.points,
                    "completed": done})  # fmt: skip
    return out


def _private(state, seat: int) -> dict:
    offer = state.offers[seat]
    out = {
        "seat": seat,
        "hand": {name: state.hands[seat][i] for i, name in enumerate(state.card_names)},
        "tickets": _tickets_view(state, seat, state.tickets[seat]),
        "offered_tickets": None if offer is None else _tickets_view(state, seat, offer),
    }
    return out


def _player(state, seat: int) -> dict:
    board = state.board
    return {
        "seat": seat,
        "score": state.scores[seat],
        "trains_left": state.trains[seat],
        "stations_left": state.stations_left[seat],
        "hand_count": sum(state.hands[seat]),
        "ticket_count": len(state.tickets[seat]),
        "offered_count": len(state.offers[seat] or ()),
        "routes": [board.routes[r].id for r in state.routes_of[seat]],
        "stations": [board.cities[c].name for c in state.stations_of[seat]],
        "depots": [board.cities[c].name for c in state.depots_of[seat]],
        "depots_left": state.depots_left[seat],
        "warehouse_count": len(state.warehouses[seat]),
        "attractions": [board.cities[c].name for c in attractions_of(state, seat)],
    }


def _pending(state, viewer) -> dict | None:
    """The public side of a decision in progress (the chooser's offer is in ``you``)."""
    phase = state.phase
    if phase == phases.TUNNEL:
        t = state.tunnel
        return {
            "type": "tunnel",
            "seat": state.current,
            "route": state.board.routes[t["route"]].id,
            "played": card_dict(state, t["played"]),
            "revealed": card_names(state, t["revealed"]),
            "extra": t["extra"],
            "color": state.card_names[t["color"]],
            "warehouses": list(t["warehouses"]),
        }
    if phase == phases.TICKETS:
        return {"type": "keep_tickets", "seat": state.current,
                "count": len(state.offers[state.current])}  # fmt: skip
    if phase == phases.DRAW2:
        return {"type": "second_draw", "seat": state.current}
    if phase == phases.SETUP:
        return {"type": "initial_tickets", "seats": [s for s, o in enumerate(state.offers) if o]}
    if phase == phases.DEPOTS:
        return {"type": "initial_depots", "seat": state.current, "order": depot_order(state)}
    return None


def view_for(state, viewer, log_since: int | None = None) -> dict:
    """The game as ``viewer`` (seat, None for a spectator, or "all") may see it, with the log
    from entry ``log_since`` (``None``: all the state holds; redacting a whole log of
    hundreds of entries for every push, to send the last one or two, was a seventh of a web
    process's CPU under load)."""
    check_viewer(state, viewer)
    from .actions import current_seats

    view = {
        "ruleset": state.ruleset,
        "variant": state.variant,
        "options": dict(state.options),
        "seats": state.n,
        "phase": state.phase,
        "turn": state.turn,
        "first_seat": state.first,
        "current_seats": current_seats(state),
        "players": [_player(state, s) for s in range(state.n)],
        "faceup": faceup_names(state),
        "deck_count": len(state.deck),
        "discard_count": len(state.discard),
        "ticket_deck_count": len(state.ticket_deck),
        "last_round": {
            "active": state.last_round >= 0,
            "triggered_by": state.last_round if state.last_round >= 0 else None,
            "turns_left": state.turns_left if state.last_round >= 0 else None,
        },
        "pending": _pending(state, viewer),
        "log": log_for(state, viewer, log_since),
    }
    if viewer == "all":
        for p in view["players"]:
            p.update(_private(state, p["seat"]))
            counts = [0] * len(state.card_names)
            for c in state.warehouses[p["seat"]]:
                counts[c] += 1
            p["warehouse"] = dict(zip(state.card_names, counts, strict=True))
    elif viewer is not None:
        view["you"] = _private(state, viewer)
    if state.phase == phases.OVER:
        view["final"] = state.final
    return view


__all__ = ["log_for", "may_see", "redact_entries", "redact_entry", "ticket_ids", "view_for"]
