"""Creating a game: argument checks, shuffles and the deal (docs/rules.md 1.2, 1.8).

Terms:
- *options*: ``{"bonus_tickets": bool, "warehouses": bool}``. Bonus tickets (docs/rules.md 1.8:
  Orient Express, with Max) join the variant's ticket decks when on, each one only if it
  carries one of the variant's logos (``bonus_tickets``; long ones join the long deck); the
  map data must have some for the variant (Europe's has none yet, so asking for them raises
  ``InvalidSetup``). ``warehouses``: Warehouses
  & Depots (docs/rules.md §2, every Europe variant; ``InvalidSetup`` for New York): each seat
  starts with ``depots`` (5) depots beside an empty warehouse. A false option is kept as
  given (``{"warehouses": false}`` plays like no option).
- *deal order*: train deck shuffled, 4 cards to each seat in seat order, 5 face up (with the
  refresh rule), long tickets shuffled and dealt, regular tickets shuffled and dealt, then the
  first seat drawn from the rng (docs/rules.md 1.2 step 6 Decision). Mega Europe
  (``setup_long_first``, from rules edition 2) deals only the long tickets here; a seat's
  regular ones come from the top of the shuffled ticket deck once it has kept its long ones
  (``rules.tickets``).
- *edition*: the rules edition the game is dealt under (``editions``; default the newest,
  ``RULES_EDITION``); a host replaying a stored game passes the game's own.
"""

from __future__ import annotations

from . import phases
from .editions import EDITIONS, RULES_EDITION
from .errors import InvalidSetup
from .mapdata import BONUS_SOURCES, Board
from .rng import below, seed_state, shuffle
from .rules.cards import card_dict, check_refresh, faceup_names
from .rules.tickets import long_tickets_first, ticket_ids
from .rulesets import RULESETS, VariantConfig
from .state import STATE_VERSION, GameState

KNOWN_OPTIONS = {"bonus_tickets": bool, "warehouses": bool}


def _check_args(ruleset, variant, seats, seed, options, edition) -> dict:
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise InvalidSetup(f"unknown ruleset {ruleset!r}")
    cfg = RULESETS[ruleset]
    if not isinstance(variant, str) or variant not in cfg.variants:
        raise InvalidSetup(f"unknown variant {variant!r} for {ruleset}")
    if type(seats) is not int or not cfg.min_players <= seats <= cfg.max_players:
        raise InvalidSetup(f"seats must be an int from {cfg.min_players} to {cfg.max_players}")
    if type(seed) is not int:
        raise InvalidSetup("seed must be an int")
    if type(edition) is not int or edition not in EDITIONS:
        raise InvalidSetup(f"unknown rules edition {edition!r}")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidSetup("options must be an object")
    for key, value in options.items():
        if key not in KNOWN_OPTIONS or type(value) is not KNOWN_OPTIONS[key]:
            raise InvalidSetup(f"unknown or mistyped option {key!r}")
    if options.get("warehouses") and not cfg.warehouses_allowed:
        raise InvalidSetup(f"warehouses and depots are not available for {ruleset}")
    return dict(sorted(options.items()))


def _blank(ruleset, variant, seats, seed, options, edition) -> GameState:
    cfg = RULESETS[ruleset]
    s = GameState()
    values = {
        "version": STATE_VERSION,
        "edition": edition,
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
    check_refresh(s, changed=True)


def bonus_tickets(board: Board, var: VariantConfig) -> tuple[list, list]:
    """The bonus tickets a variant takes, by their logos (docs/rules.md 1.8): (long, regular).
    A variant without long tickets (Big Cities) takes no long ones."""
    taken = [
        t for t in board.tickets if t.source in BONUS_SOURCES and set(t.logos) & set(var.logos)
    ]
    long = [t.index for t in taken if t.kind == "long" and var.setup_long]
    return long, [t.index for t in taken if t.kind != "long"]


def _ticket_pools(s: GameState) -> tuple[list, list]:
    long, regular = (list(pool) for pool in s.var.select_tickets(s.board))
    if s.options.get("bonus_tickets"):
        bonus_long, bonus_regular = bonus_tickets(s.board, s.var)
        if not bonus_long and not bonus_regular:
            raise InvalidSetup(f"bonus tickets are not available for {s.variant} yet")
        long += bonus_long
        regular += bonus_regular
    return long, regular


def _deal_tickets(s: GameState, long: list, regular: list) -> None:
    var = s.var
    s.rng = shuffle(s.rng, long)
    s.rng = shuffle(s.rng, regular)
    offers = [[long.pop() for _ in range(var.setup_long)] for _ in range(s.n)]
    if not long_tickets_first(s):  # else dealt after the long choice (docs/rules.md 1.8)
        for offer in offers:
            offer.extend(regular.pop() for _ in range(var.setup_regular))
    s.boxed = long  # unused long tickets leave the game unseen (docs/rules.md 1.2 step 3)
    s.ticket_deck = regular
    s.offers = offers


def new_game(
    *, ruleset="europe", variant=None, seats=4, seed=0, options=None, edition=RULES_EDITION
) -> GameState:
    """A new game in phase ``setup`` (every seat chooses its initial tickets).

    ``variant`` None: the ruleset's first variant (Europe ``classic``, New York ``standard``).
    ``edition``: the rules edition the game is played under (``editions``).
    """
    if variant is None and isinstance(ruleset, str) and ruleset in RULESETS:
        variant = next(iter(RULESETS[ruleset].variants))
    options = _check_args(ruleset, variant, seats, seed, options, edition)
    s = _blank(ruleset, variant, seats, seed, options, edition)
    long, regular = _ticket_pools(s)
    if len(long) < s.n * s.var.setup_long or len(regular) < s.n * s.var.setup_regular:
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
