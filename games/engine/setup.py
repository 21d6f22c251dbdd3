"""Creating a game: argument checks, shuffles and the deal (docs/rules.md 1.2, 1.8).

Terms:
- *options*: ``{"bonus_tickets": bool, "warehouses": bool}``. Bonus tickets (docs/rules.md 1.8:
  Orient Express, with Max) join the regular ticket deck when on; the map data must have them
  (Europe's has not, so asking for them raises ``InvalidSetup``). ``warehouses``: Warehouses
  & Depots (docs/rules.md §2, every Europe variant; ``InvalidSetup`` for New York): each seat
  starts with ``depots`` (5) depots beside an empty warehouse. A false option is kept as
  given (``{"warehouses": false}`` plays like no option).
- *deal order*: train deck shuffled, 4 cards to each seat in seat order, 5 face up (with the
  refresh rule), long tickets shuffled and dealt, regular tickets shuffled and dealt, then the
  first seat drawn from the rng (docs/rules.md 1.2 step 6 Decision).
"""

from __future__ import annotations

from . import phases
from .errors import InvalidSetup
from .rng import below, seed_state, shuffle
from .rules.cards import card_dict, check_refresh, faceup_names
from .rules.tickets import ticket_ids
from .rulesets import RULESETS
from .state import STATE_VERSION, GameState

KNOWN_OPTIONS = {"bonus_tickets": bool, "warehouses": bool}


def _check_args(ruleset, variant, seats, seed, options) -> dict:
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise InvalidSetup(f"unknown ruleset {ruleset!r}")
    cfg = RULESETS[ruleset]
    if not isinstance(variant, str) or variant not in cfg.variants:
        raise InvalidSetup(f"unknown variant {variant!r} for {ruleset}")
    if type(seats) is not int or not cfg.min_players <= seats <= cfg.max_players:
        raise InvalidSetup(f"seats must be an int from {cfg.min_players} to {cfg.max_players}")
    if type(seed) is not int:
        raise InvalidSetup("seed must be an int")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidSetup("options must be an object")
    for key, value in options.items():
        if key not in KNOWN_OPTIONS or type(value) is not KNOWN_OPTIONS[key]:
            raise InvalidSetup(f"unknown or mistyped option {key!r}")
    if options.get("warehouses") and not cfg.warehouses_allowed:
        raise InvalidSetup(f"warehouses and depots are not available for {ruleset}")
    return dict(sorted(options.items()))


def _blank(ruleset, variant, seats, seed, options) -> GameState:
    cfg = RULESETS[ruleset]
    s = GameState()
    values = {
        "version": STATE_VERSION,
        "ruleset": ruleset,
        "variant": variant,
        "options": options,
        "n": seats,
        "seed": seed,
        "rng": seed_state(seed),
        "phase": phases.SETUP,
        "turn": 0,
        "current": -1,
        "first": 0,
        "deck": [],
        "discard": [],
        "faceup": [],
        "hands": [[0] * (cfg.n_colors + 1) for _ in range(seats)],
        "tickets": [[] for _ in range(seats)],
        "offers": [None] * seats,
        "ticket_deck": [],
        "boxed": [],
        "setup_returned": [],
        "owner": [],
        "station_at": [],
        "trains": [cfg.trains] * seats,
        "stations_left": [cfg.stations] * seats,
        "scores": [0] * seats,
        "routes_of": [[] for _ in range(seats)],
        "stations_of": [[] for _ in range(seats)],
        "depot_at": [],
        "depots_of": [[] for _ in range(seats)],
        "depots_left": [cfg.depots if options.get("warehouses") else 0] * seats,
        "depots_spent": [0] * seats,
        "warehouses": [[] for _ in range(seats)],
        "tunnel": None,
        "last_round": -1,
        "turns_left": 0,
        "passes": 0,
        "log": [],
        "log_base": 0,
        "final": None,
    }
    for name, value in values.items():
        setattr(s, name, value)
    s.bind()
    s.owner = [-1] * len(s.board.routes)
    s.station_at = [-1] * len(s.board.cities)
    s.depot_at = [-1] * len(s.board.cities)
    return s


def _deal_cards(s: GameState) -> None:
    cfg = s.cfg
    deck = [c for c in range(cfg.n_colors) for _ in range(cfg.cards_per_color)]
    deck += [cfg.n_colors] * cfg.wild_cards
    s.rng = shuffle(s.rng, deck)
    s.deck = deck
    for hand in s.hands:
        for _ in range(cfg.initial_hand):
            hand[deck.pop()] += 1
    s.faceup = [deck.pop() for _ in range(cfg.faceup_size)]
    check_refresh(s)


def _ticket_pools(s: GameState) -> tuple[list, list]:
    long, pool = s.var.select_tickets(s.board)
    regular = list(pool)
    if s.options.get("bonus_tickets"):
        bonus = [t.index for t in s.board.tickets if t.source in ("orient_express", "max")]
        if not bonus:
            raise InvalidSetup("bonus tickets are not available for this map yet")
        regular += bonus
    return list(long), regular


def _deal_tickets(s: GameState, long: list, regular: list) -> None:
    var = s.var
    s.rng = shuffle(s.rng, long)
    s.rng = shuffle(s.rng, regular)
    offers = [[long.pop() for _ in range(var.setup_long)] for _ in range(s.n)]
    for offer in offers:
        offer.extend(regular.pop() for _ in range(var.setup_regular))
    s.boxed = long  # unused long tickets leave the game unseen (docs/rules.md 1.2 step 3)
    s.ticket_deck = regular
    s.offers = offers


def new_game(*, ruleset="europe", variant=None, seats=4, seed=0, options=None) -> GameState:
    """A new game in phase ``setup`` (every seat chooses its initial tickets).

    ``variant`` None: the ruleset's first variant (Europe ``classic``, New York ``standard``).
    """
    if variant is None and isinstance(ruleset, str) and ruleset in RULESETS:
        variant = next(iter(RULESETS[ruleset].variants))
    options = _check_args(ruleset, variant, seats, seed, options)
    s = _blank(ruleset, variant, seats, seed, options)
    long, regular = _ticket_pools(s)
    need = s.n * (s.var.setup_long + s.var.setup_regular)
    if len(long) < s.n * s.var.setup_long or len(long) + len(regular) < need:
        raise InvalidSetup("not enough tickets for this many seats")
    s.log_event(None, "game_start", ruleset=ruleset, variant=variant, seats=seats)
    _deal_cards(s)
    _deal_tickets(s, long, regular)
    s.rng, s.first = below(s.rng, s.n)
    for seat in range(s.n):
        s.log_event(
            seat,
            "deal",
            secret={
                "hand": card_dict(s, s.hands[seat]),
                "tickets": ticket_ids(s, s.offers[seat]),
            },
            hand_count=sum(s.hands[seat]),
            ticket_count=len(s.offers[seat]),
        )
    s.log_event(None, "setup", first_seat=s.first, faceup=faceup_names(s))
    return s
