"""The tournament page's tabs at any size: each shows one page of its rows (``?page=N``),
optionally only the rows of players whose name matches ``?q=``, with the reader's own row
pinned on top when it is not on the page shown and a link to the page it is on.

Bad ``page`` / ``round`` values fall back (to the first page, the last round); a page past
the end shows the last page. The rows come from the standings snapshot (``View``).
"""

from dataclasses import dataclass
from urllib.parse import urlencode

from ladder import tournament_presenters as present
from ladder import tournament_snapshots as snapshots
from ladder.models import Tournament

PER_PAGE = 50
TABLES_PER_PAGE = 20  # the Rounds tab's tables (each a card of 2-5 seats)
ROUND_PREVIEW = 8  # tables of the current round shown under the standings
MAX_QUERY = 60
SEARCH_FROM = 10  # rows (tables on the Rounds tab) from which a tab offers a search


@dataclass
class Pager:
    """Where a page is in its list, and the links to the others (query kept)."""

    number: int
    count: int
    total: int  # rows matching the search
    first: int  # 1-based index of the page's first row
    last: int
    params: str  # the other query parameters, urlencoded, each link keeps them
    mine: int | None = None  # the page with the reader's own row (no search)
    mine_params: str = ""

    @property
    def links(self) -> list[int | None]:
        """Page numbers to offer, None where some are left out: 1 … 4 5 [6] 7 8 … 40."""
        shown = {1, self.count, *range(self.number - 2, self.number + 3)}
        out: list[int | None] = []
        for n in sorted(p for p in shown if 1 <= p <= self.count):
            if out and out[-1] is not None and n > out[-1] + 1:
                out.append(None)
            out.append(n)
        return out

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.count else None


def search_text(params) -> str:
    """The ``q`` parameter, trimmed (a search box, not a query language)."""
    return " ".join(str(params.get("q", "")).split())[:MAX_QUERY]


def whole_number(value, default: int) -> int:
    try:
        return int(str(value).strip()[:9])
    except (TypeError, ValueError):
        return default


def _groups(pinned, rows: list) -> list[dict]:
    """The table bodies: the reader's pinned row (if any) above the page's rows; one loop in
    the template over both (no include per row)."""
    return ([{"pinned": True, "rows": [pinned]}] if pinned else []) + [
        {"pinned": False, "rows": rows}
    ]


def _searchable(rows: list, q: str) -> bool:
    """A search box where a list is longer than a glance (or a search is on)."""
    return bool(q) or len(rows) > SEARCH_FROM


def matches(e: snapshots.Entrant, needle: str) -> bool:
    """Whether the entrant's name (or username) contains ``needle`` (case-folded)."""
    return needle in e.label.casefold() or needle in (e.username or "").casefold()


def paginate(items: list, params, *, keep: dict, mine: int | None = None, size: int = 0):
    """The page of ``items`` asked for in ``params``; ``mine``: the index of the reader's row
    in the unsearched list, ``keep``: the parameters every page link carries."""
    size = size or PER_PAGE
    count = max(1, -(-len(items) // size))
    number = min(max(1, whole_number(params.get("page"), 1)), count)
    start = (number - 1) * size
    page = items[start : start + size]
    pager = Pager(number, count, len(items), start + 1 if page else 0, start + len(page),
                  urlencode({k: v for k, v in keep.items() if v}))  # fmt: skip
    if mine is not None:
        pager.mine = mine // size + 1
        pager.mine_params = urlencode({k: v for k, v in keep.items() if v and k != "q"})
    return page, pager


def _ranked_page(view: snapshots.View, me, params, show):
    """The page of standings rows asked for (``?q=`` search, ``?page=``), each made by
    ``show(row)``; the reader's own row pinned when it is on another page.
    Returns ``(q, rows, pinned, pager)``."""
    q = search_text(params)
    rows = [r for r in view.rows if matches(r.entry, q.casefold())] if q else view.rows
    mine = view.position.get(me.pk) if me is not None else None
    page, pager = paginate(rows, params, keep={"q": q}, mine=mine)
    pinned = None
    if mine is not None and all(r.entry.pk != me.pk for r in page):
        pinned = show(view.rows[mine])
    return q, [show(r) for r in page], pinned, pager


def standings_tab(view: snapshots.View, me, params, columns=()) -> dict:
    q, rows, pinned, pager = _ranked_page(
        view, me, params, lambda r: present.standing_row(r, columns, me)
    )
    if view.kind == Tournament.Format.ARENA:  # the live leaderboard: streak and state too
        states = snapshots.arena_states(view)
        for row in [*rows, *([pinned] if pinned else [])]:
            row["streak"] = snapshots.streak_mark(row["entry"].streak)
            row["state"] = states.get(row["entry"].pk, "")
    return {"standings": rows, "pinned": pinned, "groups": _groups(pinned, rows),
            "pager": pager, "q": q, "searchable": _searchable(view.rows, q)}  # fmt: skip


def crosstable_tab(view: snapshots.View, me, params) -> dict:
    q, rows, pinned, pager = _ranked_page(
        view, me, params, lambda r: present.crosstable_row(view, r, me)
    )
    crosstable = {"rounds": [r.number for r in view.rounds], "rows": rows}
    return {"crosstable": crosstable, "pinned": pinned, "groups": _groups(pinned, rows),
            "pager": pager, "q": q,
            "searchable": _searchable(view.rows, q)}  # fmt: skip


def players_tab(view: snapshots.View, t: Tournament, me, params) -> dict:
    q = search_text(params)
    order = present.player_order(view, t)
    entries = [e for e in order if matches(e, q.casefold())] if q else order
    mine = next((i for i, e in enumerate(order) if e.pk == me.pk), None) if me else None
    page, pager = paginate(entries, params, keep={"q": q}, mine=mine)
    pinned = None
    if mine is not None and all(e.pk != me.pk for e in page):
        pinned = present.player_row(view, t, me, me)
    rows = [present.player_row(view, t, e, me) for e in page]
    return {"players": rows, "pinned": pinned, "groups": _groups(pinned, rows),
            "pager": pager, "q": q, "searchable": _searchable(order, q)}  # fmt: skip


def rounds_tab(view: snapshots.View, me, params) -> dict:
    """One round (``?round=N``, the latest by default), its tables paged and searchable."""
    if not view.rounds:
        return {"rounds": [], "round_numbers": [], "q": ""}
    numbers = [r.number for r in view.rounds]
    wanted = whole_number(params.get("round"), numbers[-1])
    round_ = view.rounds[numbers.index(wanted)] if wanted in numbers else view.rounds[-1]
    if view.kind == Tournament.Format.ARENA:  # its one round, the latest tables first
        round_ = _latest_first(round_)
    q = search_text(params)
    needle = q.casefold()
    tables = round_.tables
    if q:
        tables = [p for p in tables if any(matches(s.entry, needle) for s in p.seats)]
    mine = _my_table(round_, me)
    keep = {"round": round_.number, "q": q}
    page, pager = paginate(tables, params, keep=keep, mine=mine, size=TABLES_PER_PAGE)
    pinned = None
    if mine is not None and round_.tables[mine] not in page:
        pinned = present.table_view(round_.tables[mine], me)
    shown = {"round": round_, "tables": [present.table_view(p, me) for p in page]}
    return {"rounds": [shown], "round_numbers": numbers, "current_round": round_.number,
            "pinned_table": pinned, "pager": pager, "q": q,
            "searchable": _searchable(round_.tables, q)}  # fmt: skip


def _my_table(round_: snapshots.RoundView, me) -> int | None:
    if me is None:
        return None
    return next(
        (i for i, p in enumerate(round_.tables) if any(s.entry.pk == me.pk for s in p.seats)),
        None,
    )


def round_preview(view: snapshots.View, me) -> dict | None:
    """The current round under the standings: its first tables, the reader's own among
    them, and how many more the Rounds tab has."""
    if not view.rounds:
        return None
    round_ = view.rounds[-1]
    if view.kind == Tournament.Format.ARENA:  # the tables in play, the latest first
        round_ = _latest_first(round_, playing=True)
        if not round_.tables:
            return None
    tables = round_.tables[:ROUND_PREVIEW]
    mine = _my_table(round_, me)
    if mine is not None and mine >= ROUND_PREVIEW:
        tables = [round_.tables[mine], *round_.tables[: ROUND_PREVIEW - 1]]
    shown = {"round": round_, "tables": [present.table_view(p, me) for p in tables]}
    return shown | {"more": len(round_.tables) - len(tables)}


def _latest_first(round_: snapshots.RoundView, playing: bool = False) -> snapshots.RoundView:
    """An arena's round with its tables the latest first (only those in play: ``playing``)."""
    tables = [p for p in reversed(round_.tables) if not playing or p.status == "playing"]
    return snapshots.RoundView(round_.number, round_.status, round_.starts_at, tables)
