"""A tournament's standings snapshot: what every page, export and API read shows, computed
once per change instead of once per request (docs/tournaments.md "Standings snapshot").

Terms: a *payload* is the snapshot as plain JSON data (entrants, ranked standings rows,
rounds with their tables and seats), built from the database by ``build``; its *version* is
the tournament's ``version`` it was built at (it shows at least that change). A ``View`` is a
payload loaded for the pages: objects with the attributes the templates read, and indexes
(by user, by entrant, crosstable cells). Anything language-dependent (a bot's name, a status
label) is worked out when it is shown, never stored, so one snapshot serves every language.

Processes keep the views they loaded (``remember`` / ``remembered``, a small LRU keyed by
tournament): a request whose tournament row has the remembered version reads no more rows.
"""

import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from datetime import datetime

import orjson
from django.urls import reverse

from games.seat_names import bot_name
from ladder import standings as scoring
from ladder.models import Entry, Pairing, PairingSeat, Round, Tournament
from ladder.pairing import knockout

FORMAT = 4  # bump when the payload's shape changes: older stored payloads are rebuilt


# --- building the payload from the database ---------------------------------------------------


def build(t: Tournament) -> dict:
    """The payload of ``t`` as the database has it now (``t.version`` read before it)."""
    entries = list(t.entries.select_related("user").order_by("registered_at", "id"))
    bots = sorted(e.pk for e in entries if not e.user_id and e.bot_level)
    bot_index = {pk: i for i, pk in enumerate(bots)}
    rounds = list(t.rounds.order_by("number"))
    seats = defaultdict(list)
    query = PairingSeat.objects.filter(pairing__round__tournament=t).order_by("pairing_id", "seat")
    for s in query.values_list("pairing_id", "seat", "entry_id", "place", "score", "points",
                               "abandoned"):  # fmt: skip
        seats[s[0]].append(list(s[1:]))
    tables = defaultdict(list)
    pairings = Pairing.objects.filter(round__tournament=t).order_by("round__number", "number")
    for p in pairings.values_list("pk", "round__number", "number", "is_bye", "status", "table_id"):
        pk, number, table, bye, status, table_id = p
        url = reverse("table", kwargs={"table_id": table_id}) if table_id else ""
        tables[number].append([pk, table, bye, status, table_id, url, seats[pk]])
    return {
        "format": FORMAT,
        "version": t.version,
        "stamp": stamp(t),
        "kind": t.format,  # the tournament's format (swiss, arena, knockout)
        "entries": [_entry(e, bot_index.get(e.pk)) for e in entries],
        "rows": [_row(r) for r in _standings(t, entries, seats, tables)],
        "rounds": [[r.number, r.status, r.starts_at.isoformat(), tables[r.number]] for r in rounds],
    }


def _entry(e: Entry, bot: int | None) -> list:
    user = e.user if e.user_id else None
    checked = e.checked_in_at.isoformat() if e.checked_in_at else None
    return [e.pk, e.user_id, user.public_name if user else "", user.username if user else None,
            e.url, e.bot_level, bot, e.status, e.rating, e.first_round, checked,
            e.eliminated_in, e.streak, e.paused]  # fmt: skip


def _standings(t: Tournament, entries: list[Entry], seats: dict, tables: dict) -> list:
    """``Tournament.standings`` from the rows already read (the same inputs, no re-query)."""
    entrants = [scoring.Entrant(e.pk, e.rating) for e in entries if e.status != "no_show"]
    results, byes = [], []
    for number, pairings in tables.items():
        for pk, _number, bye, *_rest in pairings:
            for seat, entry, place, score, points, _abandoned in seats[pk]:
                if place is None:
                    continue
                if bye:
                    byes.append(scoring.Bye(number, entry))
                else:
                    results.append(scoring.Seat(number, pk, entry, place, score or 0, points, seat))
    rows = scoring.standings(entrants, results, byes, tiebreaks=t.tiebreaks, seed=t.seed)
    if t.format == Tournament.Format.KNOCKOUT:  # as ``Tournament.standings``
        reached = [(number, s[1], s[2]) for number, pairings in tables.items()
                   for p in pairings for s in seats[p[0]]]  # fmt: skip
        rows = knockout.rerank(rows, reached)
    return rows


def _row(r: scoring.Row) -> list:
    return [r.player, r.rank, r.points, r.games, r.byes, r.buchholz, r.buchholz_cut1,
            r.game_points, r.opponent_rating, r.wins, r.later_seat]  # fmt: skip


def stamp(t: Tournament) -> str:
    """What tells this tournament from an earlier one under the same id (a test database
    that reuses ids): a view remembered for one is never shown for the other."""
    return t.created_at.isoformat()


def dumps(payload) -> str:
    return orjson.dumps(payload).decode()


def loads(text: str):
    return orjson.loads(text)


# --- the loaded view --------------------------------------------------------------------------


@dataclass
class Entrant:
    """An entrant as the pages show one (attribute names as on ``Entry``)."""

    pk: int
    user_id: int | None
    name: str
    username: str | None
    url: str
    bot_level: str
    bot_index: int | None
    status: str
    rating: float
    first_round: int
    checked_in_at: datetime | None
    eliminated_in: int | None = None  # knockout: the round in which they went out
    streak: int = 0  # arena: wins in a row
    paused: bool = False  # arena: not seated at new tables (a bot: a stand-in)

    @property
    def label(self) -> str:
        """The player's name; a bot's in the reader's language ("Ada (medium bot)")."""
        if self.user_id is not None:
            return self.name
        if self.bot_index is not None:
            return bot_name(self.bot_level, self.bot_index)
        return self.name

    @property
    def is_active(self) -> bool:
        return self.status == Entry.Status.ACTIVE

    def get_status_display(self) -> str:
        return str(Entry.Status(self.status).label)


@dataclass
class Row:
    """One line of the standings (``ladder.standings.Row`` with its entrant)."""

    entry: Entrant
    rank: int
    points: float
    games: int
    byes: int
    buchholz: float
    buchholz_cut1: float
    game_points: int
    opponent_rating: float
    wins: int
    later_seat: float = 0.5  # the seat rule (``ladder.standings``)

    @property
    def player(self) -> int:
        return self.entry.pk


@dataclass
class SeatView:
    seat: int
    entry: Entrant
    place: int | None
    score: int | None
    points: float | None
    abandoned: bool


@dataclass
class TableView:
    """One pairing of a round (a table or a bye); attribute names as on ``Pairing``."""

    pk: int
    number: int
    is_bye: bool
    status: str
    table_id: int | None
    url: str
    seats: list[SeatView]

    @property
    def done(self) -> bool:
        return self.status in Pairing.DONE

    def get_status_display(self) -> str:
        return str(Pairing.Status(self.status).label)


@dataclass
class RoundView:
    number: int
    status: str
    starts_at: datetime
    tables: list[TableView]

    def get_status_display(self) -> str:
        return str(Round.Status(self.status).label)


@dataclass
class View:
    """A loaded snapshot: what the pages and exports of one version read."""

    version: int
    stamp: str
    entries: dict[int, Entrant]
    rows: list[Row]
    rounds: list[RoundView]
    by_user: dict[int, Entrant] = field(default_factory=dict)
    position: dict[int, int] = field(default_factory=dict)  # entry id -> index in rows
    cells: dict[int, dict[int, tuple]] = field(default_factory=dict)  # entry -> round -> cell
    cache: dict = field(default_factory=dict)  # exports, by (kind, language)
    kind: str = "swiss"  # the tournament's format

    def entry_of(self, user) -> Entrant | None:
        if not getattr(user, "is_authenticated", False):
            return None
        return self.by_user.get(user.pk)


def load(payload: dict) -> View:
    """The ``View`` of a payload (indexes included)."""
    entries = {e[0]: Entrant(*e[:10], _when(e[10]), *e[11:14]) for e in payload["entries"]}
    rows = [Row(entries[r[0]], *r[1:]) for r in payload["rows"]]
    rounds = []
    for number, status, starts_at, tables in payload["rounds"]:
        views = [
            TableView(
                pk,
                n,
                bye,
                st,
                table_id,
                url,
                [SeatView(s[0], entries[s[1]], *s[2:]) for s in seats],
            )
            for pk, n, bye, st, table_id, url, seats in tables
        ]
        rounds.append(RoundView(number, status, _when(starts_at), views))
    view = View(payload["version"], payload["stamp"], entries, rows, rounds)
    view.kind = payload.get("kind", "swiss")
    view.by_user = {e.user_id: e for e in entries.values() if e.user_id is not None}
    view.position = {row.entry.pk: i for i, row in enumerate(rows)}
    for round_ in rounds:
        for table in round_.tables:
            for s in table.seats:
                view.cells.setdefault(s.entry.pk, {})[round_.number] = (table, s)
    return view


def _when(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


# An arena entrant's state in its live standings: signs, not words, since one snapshot
# serves every language (the standings card's legend says what they mean).
# Signs every font has (not emoji, which a system without an emoji font shows as boxes).
PLAYING, PAUSED = "\u25b6", "\u2016"  # ▶ at a table now, ‖ paused


def arena_states(view: View) -> dict[int, str]:
    """An arena's entrants at a table now (``PLAYING``) or paused (``PAUSED``); the others
    (free, or out) are not listed. A stand-in bot is never shown paused."""
    if "arena_states" not in view.cache:
        states = {e.pk: PAUSED for e in view.entries.values()
                  if e.paused and e.user_id is not None and e.is_active}  # fmt: skip
        for round_ in view.rounds:
            for table in round_.tables:
                if table.status == Pairing.Status.PLAYING:
                    states |= {s.entry.pk: PLAYING for s in table.seats}
        view.cache["arena_states"] = states
    return view.cache["arena_states"]


def streak_mark(streak: int) -> str:
    """A winning streak as the standings show it ("★ 2"); empty below one win."""
    return f"\u2605 {streak}" if streak > 0 else ""


def live_rows(view: View) -> list[dict]:
    """The standings rows as plain dicts (``ladder.live_standings.publish``); an arena's
    with each entrant's streak and state."""
    rows = _live_rows(view)
    if view.kind == Tournament.Format.ARENA:
        states = arena_states(view)
        for row, data in zip(view.rows, rows, strict=True):
            data["streak"] = streak_mark(row.entry.streak)
            data["state"] = states.get(row.entry.pk, "")
    return rows


def _live_rows(view: View) -> list[dict]:
    return [
        {
            "player": row.entry.pk,
            "name": row.entry.label,
            "place": row.rank,
            "points": row.points,
            "buchholz": row.buchholz,
            "buchholz_cut1": row.buchholz_cut1,
            "game_points": row.game_points,
            "opponent_rating": row.opponent_rating,
            "later_seat": row.later_seat,
            "games": row.games,
            "byes": row.byes,
            "status": row.entry.status,
        }
        for row in view.rows
    ]


# --- views this process has loaded ------------------------------------------------------------

_KEEP = 8  # tournaments; a 2,000-player, 12-round view holds about 10 MB
_views: "OrderedDict[int, View]" = OrderedDict()
_lock = threading.Lock()


def remembered(t: Tournament) -> View | None:
    """This process's view of the tournament if it is at least the row's version."""
    with _lock:
        view = _views.get(t.pk)
        if view is None or view.version < t.version or view.stamp != stamp(t):
            return None
        _views.move_to_end(t.pk)
        return view


def remember(tournament_id: int, view: View) -> View:
    """Keep ``view`` unless a newer one is kept already; returns the newest."""
    with _lock:
        kept = _views.get(tournament_id)
        if kept is not None and kept.stamp == view.stamp and kept.version >= view.version:
            return kept
        _views[tournament_id] = view
        _views.move_to_end(tournament_id)
        while len(_views) > _KEEP:
            _views.popitem(last=False)
        return view


def forget_all() -> None:
    """Drop every remembered view (tests, benchmarks)."""
    with _lock:
        _views.clear()
