"""What a seat knows: its own view parsed into board indexes.

Terms:
- *seen*: a ``Seen`` built from ``view_for(state, seat)`` only (docs/rules.md 1.6): the public
  board, every public count, the seat's own hand and tickets. Nothing here, nor in any bot,
  touches a game state: hidden facts (other hands, deck order, other tickets) are unknown.
- *card index*: 0..7 for the colours of the ruleset, 8 (``wild``) for the locomotive; a
  *hand* is a list of counts by card index (as in the engine state).
- *owner*: per route index, the seat that claimed it or -1.
- *unseen pool*: counts of the cards the seat cannot see (other hands, deck, discard): every
  card of the game minus its own hand and the face-up row.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..mapdata import Board, load_map
from ..rulesets import RULESETS


@dataclass
class Seen:
    board: Board
    seat: int
    n: int
    phase: str
    turn: int
    names: tuple  # card names by card index
    wild: int
    hand: list
    tickets: list  # Ticket objects the seat holds
    offered: list  # Ticket objects on offer (setup / tickets phase), else []
    owner: list  # route index -> seat or -1
    station_at: list  # city index -> seat or -1
    trains: list  # by seat
    stations_left: list  # by seat
    scores: list  # by seat (public score: route points so far)
    hand_counts: list  # by seat
    ticket_counts: list  # by seat
    faceup: list  # card index or -1 per slot
    deck_count: int
    discard_count: int
    ticket_deck_count: int
    last_round: dict
    pending: dict | None
    single_double: bool  # a claimed twin closes its double route for everyone
    total_trains: int
    total_cards: list  # every card of the game by card index

    def mine(self, route: int) -> bool:
        return self.owner[route] == self.seat

    def unseen(self) -> list:
        """Counts of the cards this seat cannot see (see module docstring)."""
        pool = list(self.total_cards)
        for i, k in enumerate(self.hand):
            pool[i] -= k
        for c in self.faceup:
            if c >= 0:
                pool[c] -= 1
        return [max(0, k) for k in pool]

    def final_turn(self) -> bool:
        """Whether this turn is the seat's last (docs/rules.md 1.4: once the last round is on,
        every seat, the trigger included, plays exactly one more turn)."""
        return bool(self.last_round.get("active"))


def read(view: dict) -> Seen:
    """Parse a seat's view (``view["you"]`` must be present)."""
    cfg = RULESETS[view["ruleset"]]
    board = load_map(cfg.map_name)
    names = cfg.card_names
    index = {name: i for i, name in enumerate(names)}
    you = view["you"]
    hand = [0] * len(names)
    for name, k in you["hand"].items():
        hand[index[name]] = k
    owner = [-1] * len(board.routes)
    station_at = [-1] * len(board.cities)
    for p in view["players"]:
        for rid in p["routes"]:
            owner[board.route_index[rid]] = p["seat"]
        for city in p["stations"]:
            station_at[board.city_index[city]] = p["seat"]
    tickets = [board.tickets[board.ticket_index[t["id"]]] for t in you["tickets"]]
    offered = [board.tickets[board.ticket_index[t["id"]]] for t in you["offered_tickets"] or ()]
    players = view["players"]
    return Seen(
        board=board,
        seat=you["seat"],
        n=view["seats"],
        phase=view["phase"],
        turn=view["turn"],
        names=names,
        wild=cfg.n_colors,
        hand=hand,
        tickets=tickets,
        offered=offered,
        owner=owner,
        station_at=station_at,
        trains=[p["trains_left"] for p in players],
        stations_left=[p["stations_left"] for p in players],
        scores=[p["score"] for p in players],
        hand_counts=[p["hand_count"] for p in players],
        ticket_counts=[p["ticket_count"] for p in players],
        faceup=[index[c] if c is not None else -1 for c in view["faceup"]],
        deck_count=view["deck_count"],
        discard_count=view["discard_count"],
        ticket_deck_count=view["ticket_deck_count"],
        last_round=view["last_round"],
        pending=view["pending"],
        single_double=view["seats"] <= cfg.single_double_max_players,
        total_trains=cfg.trains,
        total_cards=[cfg.cards_per_color] * cfg.n_colors + [cfg.wild_cards],
    )
