"""The mutable game state: plain ints and lists, JSON-ready, with the config it refers to.

Terms:
- *card index*: 0..n_colors-1 for the colours of ``RulesetConfig.colors``, ``n_colors`` for
  the wild card (Europe: 0..7 pink..green, 8 locomotive). A *hand* is a list of counts by
  card index.
- *deck*: train cards face down; the top is the END of the list (``pop()``). *discard*: the
  discard pile. *faceup*: ``faceup_size`` slots holding a card index or ``-1`` (empty: no
  card was left to turn up).
- *ticket deck*: ticket indexes; the top is the END of the list, the bottom index 0
  (docs/rules.md 1.3.3: returned tickets go to the bottom). *boxed*: tickets out of the game.
- *offer*: tickets dealt to a seat and waiting for its ``keep_tickets`` choice.
- *phase*: one of the phases declared in ``phases`` (what each is and which actions it
  accepts); the opening's sequence is ``rules.opening``.
- *tunnel*: the pending tunnel claim: ``route`` index, ``played`` hand-shaped counts (the
  cards in play), ``revealed`` card indexes, ``extra`` cards due, ``color`` the played colour
  (the wild index if only wild cards were played), ``warehouses`` the seats whose warehouse
  the claim takes once the route is placed (Warehouses & Depots; ``[]`` otherwise).
- *last_round*: seat whose turn triggered the last round (-1: not yet); ``turns_left``: turns
  still to be played after it (docs/rules.md 1.4).
- *passes*: consecutive passes (docs/rules.md 1.4 Decision: a full round of passes ends the game).
- *Warehouses & Depots* (docs/rules.md §2, the ``warehouses`` option; see ``rules.depots``):
  ``depot_at`` city index -> owner seat (-1: none); ``depots_of`` each seat's placed depots
  (city indexes, placement order); ``depots_left`` depots still beside each seat's warehouse;
  ``depots_spent`` depots each seat gave up for warehouse cards (out of the game);
  ``warehouses`` each seat's warehouse cards (card indexes, in the order they went in).
  Without the option: no depots, empty warehouses.
- *log*: append-only list of entries ``{"seq", "seat", "type", ...public, "secret": {...}}``;
  ``secret`` holds facts only ``seat`` may see (see ``views``). *log_base*: the ``seq`` of
  ``log[0]``: a host may take the entries out of the state it stores (``detach_log``: a
  move's cost then does not grow with the game's length) and put them back for a whole view
  (``attach_log``); 0 while the state holds its whole log.
- *edition*: the rules edition the game is played under, from its deal to its end (see
  ``editions``); ``edition_rules`` is what that edition changes. States saved before
  editions existed (version 3 and older) load as edition 1.
"""

from __future__ import annotations

from typing import Any

from .editions import EDITIONS, EditionRules
from .mapdata import Board, load_map
from .rulesets import RULESETS, RulesetConfig, VariantConfig

# serialised fields, in order; every one is JSON-native
FIELDS = (
    "version",
    "edition",
    "ruleset",
    "variant",
    "options",
    "n",
    "seed",
    "rng",
    "phase",
    "turn",
    "current",
    "first",
    "deck",
    "discard",
    "faceup",
    "hands",
    "tickets",
    "offers",
    "ticket_deck",
    "boxed",
    "setup_returned",
    "owner",
    "station_at",
    "trains",
    "stations_left",
    "scores",
    "routes_of",
    "stations_of",
    "depot_at",
    "depots_of",
    "depots_left",
    "depots_spent",
    "warehouses",
    "tunnel",
    "last_round",
    "turns_left",
    "passes",
    "log",
    "log_base",
    "final",
)

# 2: Warehouses & Depots fields; 3: log_base; 4: edition (older states are upgraded on load)
STATE_VERSION = 4


# derived slots, never serialised: set by ``GameState.bind``
DERIVED = (
    "cfg",
    "var",
    "board",
    "wild",
    "card_names",
    "route_groups",
    "single",
    "wh",
    "edition_rules",
    "open_cache",
)


class GameState:
    """One game. Fields are listed in ``FIELDS``; the other slots (``DERIVED``) are derived by
    ``bind``. Every attribute is declared with its type, so that the optional compiled engine
    (``games.engine.native``) makes this a native class whose fields its compiled functions
    read directly."""

    __slots__ = (*FIELDS, *DERIVED)

    version: int
    edition: int
    ruleset: str
    variant: str
    options: dict
    n: int
    seed: Any
    rng: int
    phase: str
    turn: int
    current: int
    first: int
    deck: list
    discard: list
    faceup: list
    hands: list
    tickets: list
    offers: list
    ticket_deck: list
    boxed: list
    setup_returned: Any
    owner: list
    station_at: list
    trains: list
    stations_left: list
    scores: list
    routes_of: list
    stations_of: list
    depot_at: list
    depots_of: list
    depots_left: list
    depots_spent: list
    warehouses: list
    tunnel: Any  # a dict or None
    last_round: int
    turns_left: int
    passes: int
    log: list
    log_base: int
    final: Any  # a dict or None
    cfg: RulesetConfig
    var: VariantConfig
    board: Board
    wild: int  # card index of the wild card
    card_names: tuple
    route_groups: tuple
    single: bool
    wh: bool
    edition_rules: EditionRules
    open_cache: Any  # a list or None (rules.routes.open_groups)

    def bind(self) -> GameState:
        """Attach the (immutable, shared) ruleset, variant, board and edition objects."""
        self.cfg = RULESETS[self.ruleset]
        self.var = self.cfg.variants[self.variant]
        self.board = load_map(self.cfg.map_name)
        self.wild = self.cfg.n_colors
        self.card_names = self.cfg.card_names
        # hot-path lookups (see rules.routes): route groups, and whether a claimed twin
        # closes its double route for everyone (2-3 players, docs/rules.md 1.3.2)
        from .rules.routes import route_groups

        self.route_groups = route_groups(self.board, self.cfg.colors)
        self.single = self.n <= self.cfg.single_double_max_players
        self.wh = bool(self.options.get("warehouses"))  # Warehouses & Depots is on
        self.edition_rules = EDITIONS[self.edition]
        # derived, never serialised: the routes open to each seat (rules.routes.open_groups)
        self.open_cache = None
        return self

    def to_dict(self) -> dict:
        """Every serialised field (shares lists with the state: copy before mutating)."""
        return {name: getattr(self, name) for name in FIELDS}

    @classmethod
    def from_dict(cls, data: dict) -> GameState:
        if data.get("version") == 1:
            data = _upgrade_v1(data)
        if data.get("version") == 2:
            data = dict(data, version=3, log_base=0)
        if data.get("version") == 3:  # saved before editions: played under the first
            data = dict(data, version=4, edition=1)
        state = cls()
        for name in FIELDS:
            setattr(state, name, data[name])
        return state.bind()

    # small helpers used by several rule modules
    def log_event(self, seat: int | None, kind: str, secret: dict | None = None, **public):
        """Append a log entry (public facts as keywords, private ones in ``secret``)."""
        entry = {"seq": self.log_base + len(self.log), "seat": seat, "type": kind, **public}
        if secret is not None:
            entry["secret"] = secret
        self.log.append(entry)


def log_length(state: GameState) -> int:
    """How many log entries the game has made (held or not): the next entry's ``seq``."""
    return state.log_base + len(state.log)


def detach_log(state: GameState) -> list:
    """Take the entries the state holds out of it (raw, secrets included) and return them;
    the state goes on numbering from where they ended."""
    entries = state.log
    state.log_base += len(entries)
    state.log = []
    return entries


def attach_log(state: GameState, earlier: list) -> GameState:
    """Put back the entries before ``log_base`` (``earlier``: seq 0 onwards, as detached), so
    the state holds its whole log again. Raises ``ValueError`` if they are not exactly those."""
    if len(earlier) != state.log_base or any(
        type(e) is not dict or e.get("seq") != i for i, e in enumerate(earlier)
    ):
        raise ValueError(f"not the {state.log_base} log entries this state needs")
    state.log = [*earlier, *state.log]
    state.log_base = 0
    return state


def _upgrade_v1(data: dict) -> dict:
    """A version-1 state (before Warehouses & Depots) in the version-2 form."""
    data = dict(data, version=2)
    n = data["n"]
    data["depot_at"] = [-1] * len(data["station_at"])
    data["depots_of"] = [[] for _ in range(n)]
    data["depots_left"] = [0] * n
    data["depots_spent"] = [0] * n
    data["warehouses"] = [[] for _ in range(n)]
    if data["tunnel"] is not None:
        data["tunnel"] = dict(data["tunnel"], warehouses=[])
    return data
