"""Read models of the tournament pages and exports: standings, rounds, crosstable, schedule.

Everything is read from the tournament's standings snapshot (``ladder.tournament_snapshots``,
one consistent moment, computed once per change); exports are encoded once per snapshot.
"""

import csv
import io

import orjson
from django.utils import formats, timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from ladder import tournament_snapshots as snapshots
from ladder.models import Entry, Tournament


def fmt_points(value: float | None) -> str:
    """Tournament points as people write them: 12, 10.5, 6.67."""
    if value is None:
        return ""
    return f"{value:.2f}".rstrip("0").rstrip(".")


_TAGS = {"withdrawn": gettext_lazy("withdrawn"), "removed": gettext_lazy("removed"),
         "no_show": gettext_lazy("no-show")}  # fmt: skip


def entrant_html(e: snapshots.Entrant, me=None) -> str:
    """``ladder/_entrant.html`` written here, for the long lists of the paged tabs (an
    include per row cost a third of such a page): name (linked), "you", status tag."""
    label = escape(e.label)
    html = f'<a href="{escape(e.url)}">{label}</a>' if e.user_id else label
    if me is not None and e.pk == me.pk:
        html += f' <span class="tag tag-you">{escape(_("you"))}</span>'
    if e.status in _TAGS:
        html += f' <span class="tag">{escape(_TAGS[e.status])}</span>'
    return mark_safe(html)


def standing_row(row: snapshots.Row, columns=(), me=None) -> dict:
    """One line of the standings table: rank, entrant, points and every tie-break value;
    ``tiebreaks``: (field, text, whole number?) of each of ``columns`` in order."""
    shown = {
        "buchholz": fmt_points(row.buchholz),
        "buchholz_cut1": fmt_points(row.buchholz_cut1),
        "game_points": row.game_points,
        "opponent_rating": round(row.opponent_rating),
        "later_seat": fmt_points(row.later_seat),
    }
    return shown | {
        "rank": row.rank,
        "entry": row.entry,
        "name": entrant_html(row.entry, me),
        "points": fmt_points(row.points),
        "games": row.games,
        "byes": row.byes,
        "tiebreaks": [(c, shown[c], c == "opponent_rating") for c in columns if c in shown],
    }


def active_count(view: snapshots.View) -> int:
    """How many entrants are still playing (counted once per snapshot)."""
    if "active" not in view.cache:
        view.cache["active"] = sum(1 for e in view.entries.values() if e.is_active)
    return view.cache["active"]


def registration_open(t: Tournament, view: snapshots.View) -> bool:
    """``Tournament.registration_open`` with a running tournament's rounds read from the
    snapshot instead of a query (the same rule: late entry while its round is not started;
    an arena's is a time, no query either)."""
    if t.status != Tournament.Status.RUNNING or t.format == Tournament.Format.ARENA:
        return t.registration_open()
    started = [r.number for r in view.rounds if r.status != "paired"]
    next_round = max(started, default=0) + 1
    return next_round <= min(t.late_registration_rounds, t.round_count)


def player_order(view: snapshots.View, t: Tournament) -> list[snapshots.Entrant]:
    """The Players tab's order: by status and seeding rating; once the tournament is over,
    in the order it finished."""
    key = ("players", t.status)
    if key not in view.cache:
        entries = sorted(view.entries.values(), key=lambda e: (e.status, -e.rating))
        if t.status == Tournament.Status.FINISHED:
            ranks = {row.entry.pk: row.rank for row in view.rows}
            entries.sort(key=lambda e: ranks.get(e.pk, len(ranks) + 1))
        view.cache[key] = entries
    return view.cache[key]


def player_row(view: snapshots.View, t: Tournament, e: snapshots.Entrant, me=None) -> dict:
    """One line of the Players tab: the entrant and where they stand now (registered,
    playing, their final place, withdrawn ...)."""
    position = view.position.get(e.pk)
    rank = view.rows[position].rank if position is not None else None
    return {"entry": e, "status": entry_status(t, e, rank, len(view.rows)),
            "name": entrant_html(e, me)}  # fmt: skip


def entry_status(
    t: Tournament, entry: Entry | snapshots.Entrant, rank: int | None, ranked: int
) -> str:
    """What one entrant is in the tournament's current state, in words."""
    if not entry.is_active:
        return entry.get_status_display()  # withdrawn, removed or did not check in
    S = Tournament.Status
    if t.status == S.FINISHED and rank is not None:
        return _("Final place: %(p)s of %(n)s") % {"p": rank, "n": ranked}
    if t.status == S.RUNNING:
        return entry.get_status_display()  # "Playing"
    if t.status == S.CANCELLED:
        return t.get_status_display()
    return _("Registered")


def moment(value) -> str:
    """A date and time as every page shows one: the reader's zone and language."""
    return formats.date_format(timezone.localtime(value), "DATETIME_FORMAT")


def registered_message(t: Tournament, entry: Entry) -> str:
    """What a player is told on registering: with check-in, when they must check in."""
    if not t.checkin_minutes or t.status != Tournament.Status.REGISTRATION:
        return _("You are registered. Good luck!")
    if entry.checked_in_at is not None:
        return _("You are registered and checked in. Good luck!")
    return _(
        "You are registered. This tournament needs check-in: check in between %(opens)s and "
        "%(starts)s, or you will not be paired."
    ) % {"opens": moment(t.checkin_opens), "starts": moment(t.starts_at)}


def table_view(table: snapshots.TableView, me: snapshots.Entrant | None) -> dict:
    """One table of a round, with its results (titles worked out here: one gettext call
    each, much cheaper than a template tag per seat on a page of many tables)."""
    size = len(table.seats)
    return {
        "pairing": table,
        "seats": [
            {
                "seat": s,
                "entry": s.entry,
                "name": entrant_html(s.entry, me),
                "points": fmt_points(s.points),
                "points_text": _("%(p)s pts") % {"p": fmt_points(s.points)},
                "place_title": _("Place %(p)s") % {"p": s.place},
                "place_css": _place_css(s.place, size),
                "first": s.seat == 0,
            }
            for s in table.seats
        ],
        "mine": me is not None and any(s.entry.pk == me.pk for s in table.seats),
        "done": table.done,
    }


def _place_css(place: int | None, size: int) -> str:
    return "win" if place == 1 else "last" if place == size else ""


def crosstable_row(view: snapshots.View, row: snapshots.Row, me=None) -> dict:
    """One line of the crosstable: a cell per round (table, place of size, points, or bye).

    The cells are written here as HTML (every value escaped): a page of 50 players and 12
    rounds has 600 of them, and a template tag per cell cost more than the rest of the page.
    """
    mine = view.cells.get(row.entry.pk, {})
    found = [mine.get(r.number) for r in view.rounds]
    cells = [{"table": f[0].number, "bye": f[0].is_bye, "place": f[1].place,
              "size": len(f[0].seats), "points": f[1].points} if f else None
             for f in found]  # fmt: skip
    html = "".join(_cell(*f) if f else _EMPTY for f in found)
    return {"rank": row.rank, "entry": row.entry, "points": fmt_points(row.points),
            "cells": cells, "cells_html": mark_safe(html),
            "name": entrant_html(row.entry, me)}  # fmt: skip


_EMPTY = '<td class="num cell"><span class="muted">–</span></td>'


def _cell(table: snapshots.TableView, seat: snapshots.SeatView) -> str:
    size, points = len(table.seats), fmt_points(seat.points)
    if table.is_bye:
        inner = f'<span title="{escape(_("Bye"))}">{escape(_("bye"))} · {points}</span>'
    elif seat.place:
        title = _("Table %(t)s: place %(p)s of %(n)s") % {"t": table.number, "p": seat.place,
                                                          "n": size}  # fmt: skip
        css = _place_css(seat.place, size)
        inner = (f'<span title="{escape(title)}"><span class="place {css}">{seat.place}</span>'
                 f'<span class="muted">/{size}</span> {points}</span>')  # fmt: skip
    else:
        title = _("Table %(t)s") % {"t": table.number}
        inner = f'<span class="muted" title="{escape(title)}">T{table.number}…</span>'
    return f'<td class="num cell">{inner}</td>'


def schedule(view: snapshots.View, user) -> dict | None:
    """The signed-in entrant's own rounds: table, seat, result; None if not an entrant."""
    me = view.entry_of(user)
    if me is None:
        return None
    games = []
    mine = view.cells.get(me.pk, {})
    for round_ in view.rounds:
        if view.kind == Tournament.Format.ARENA:
            games += _arena_games(round_, me)
        elif round_.number in mine:
            table, seat = mine[round_.number]
            others = [s.entry for s in table.seats if s.entry.pk != me.pk]
            games.append({"round": round_, "pairing": table, "seat": seat, "others": others,
                          "points": fmt_points(seat.points)})  # fmt: skip
    position = view.position.get(me.pk)
    row = view.rows[position] if position is not None else None
    played = row is not None and row.games + row.byes > 0
    return {"entry": me, "games": games, "rank": row.rank if row else None, "played": played,
            "points": fmt_points(row.points) if row else ""}  # fmt: skip


ARENA_GAMES = 20  # an arena's "Your games": the latest so many


def _arena_games(round_: snapshots.RoundView, me: snapshots.Entrant) -> list[dict]:
    """An arena entrant's games (its one round holds them all), the latest first."""
    games = []
    for table in reversed(round_.tables):
        seat = next((s for s in table.seats if s.entry.pk == me.pk), None)
        if seat is not None:
            others = [s.entry for s in table.seats if s is not seat]
            games.append({"round": round_, "pairing": table, "seat": seat, "others": others,
                          "points": fmt_points(seat.points)})  # fmt: skip
    return games[:ARENA_GAMES]


def export(view: snapshots.View, t: Tournament) -> dict:
    """The whole tournament as plain data (the JSON export; the CSV export flattens it)."""
    return {
        "tournament": {
            "name": t.name,
            "slug": t.slug,
            "status": t.status,
            "ruleset": t.ruleset,
            "variant": t.variant,
            "options": dict(t.options),
            "table_size": t.table_size,
            "allow_smaller": t.allow_smaller,
            "rounds": t.round_count,
            "rated": t.rated,
            "league": t.league.slug if t.league_id else None,
            "points_scheme": t.points_scheme,
            "tiebreaks": list(t.tiebreaks),
            "starts_at": t.starts_at.isoformat(),
            "finished_at": t.finished_at.isoformat() if t.finished_at else None,
            "format": t.format,
            **_format_settings(t),
        },
        "standings": export_standings(view, t.format),
        "rounds": export_rounds(view),
    }


def _format_settings(t: Tournament) -> dict:
    """The settings only an arena or a knockout has (docs/tournaments.md "Formats")."""
    if t.format == Tournament.Format.ARENA:
        return {
            "duration_minutes": t.duration_minutes,
            "ends_at": t.ends_at.isoformat() if t.ends_at else None,
            "bot_fill_seconds": t.bot_fill_seconds,
            "bot_fill_level": t.bot_fill_level,
        }
    if t.format == Tournament.Format.KNOCKOUT:
        return {"advance_count": t.advance_count}
    return {}


# What each format adds to a standings row of the exports (after the common columns).
FORMAT_COLUMNS = {"arena": ["streak", "paused"], "knockout": ["round_reached", "eliminated_in"]}


def export_standings(view: snapshots.View, fmt: str = "swiss") -> list[dict]:
    """The export's standings rows (each with its entry id, and what the format ``fmt``
    adds), once per snapshot, format and language."""
    key = ("standings", get_language(), fmt)
    if key not in view.cache:
        view.cache[key] = [_export_row(row) | _format_row(view, row, fmt) for row in view.rows]
    return view.cache[key]


def _format_row(view: snapshots.View, row: snapshots.Row, fmt: str) -> dict:
    """An arena entrant's winning streak and pause; the last round a knockout entrant sat
    at a table in and the round they went out in (null: still in). A field the snapshot does
    not carry is null."""
    entry = row.entry
    if fmt == "arena":
        return {"streak": getattr(entry, "streak", None), "paused": getattr(entry, "paused", None)}
    if fmt == "knockout":
        reached = max(view.cells.get(entry.pk, {}), default=None)
        return {"round_reached": reached, "eliminated_in": getattr(entry, "eliminated_in", None)}
    return {}


def _export_row(row: snapshots.Row) -> dict:
    entry = row.entry
    return {
        "rank": row.rank,
        "entry": entry.pk,
        "player": entry.label,
        "username": entry.username,
        "bot": entry.bot_level or None,
        "status": entry.status,
        "points": row.points,
        "games": row.games,
        "byes": row.byes,
        "buchholz": round(row.buchholz, 4),
        "buchholz_cut1": round(row.buchholz_cut1, 4),
        "game_points": row.game_points,
        "opponent_rating": round(row.opponent_rating, 1),
        "later_seat": round(row.later_seat, 4),
        "rating": round(entry.rating, 1),
    }


def export_rounds(view: snapshots.View) -> list[dict]:
    """The export's rounds (each table with its pairing id, each seat with its entry id)."""
    key = ("rounds", get_language())
    if key not in view.cache:
        view.cache[key] = [_export_round(r) for r in view.rounds]
    return view.cache[key]


def _export_round(round_: snapshots.RoundView) -> dict:
    return {
        "number": round_.number,
        "status": round_.status,
        "tables": [
            {
                "id": p.pk,
                "number": p.number,
                "bye": p.is_bye,
                "status": p.status,
                "table_id": p.table_id,
                "seats": [
                    {
                        "seat": s.seat,
                        "entry": s.entry.pk,
                        "player": s.entry.label,
                        "place": s.place,
                        "score": s.score,
                        "points": s.points,
                        "abandoned": s.abandoned,
                    }
                    for s in p.seats
                ],
            }
            for p in round_.tables
        ],
    }


def export_json(view: snapshots.View, t: Tournament) -> bytes:
    """The JSON export as bytes, encoded once per snapshot, language and tournament state."""
    key = ("json", get_language(), t.status, t.finished_at)
    if key not in view.cache:
        view.cache[key] = orjson.dumps(export(view, t), option=orjson.OPT_INDENT_2)
    return view.cache[key]


CSV_HEADER = ["rank", "player", "username", "status", "points", "games", "byes", "buchholz",
              "buchholz_cut1", "game_points", "opponent_rating", "later_seat",
              "rating"]  # fmt: skip


def csv_rows(view: snapshots.View, fmt: str = "swiss") -> list[list]:
    """The standings as CSV rows (header first): the format's columns, then one column per
    round's points (not in an arena: its one long round is the total)."""
    numbers = [] if fmt == "arena" else [r.number for r in view.rounds]
    header = CSV_HEADER + FORMAT_COLUMNS.get(fmt, [])
    rows = [header + [f"round_{n}" for n in numbers]]
    for data, row in zip(export_standings(view, fmt), view.rows, strict=True):
        mine = view.cells.get(row.entry.pk, {})
        points = [mine[n][1].points if n in mine else None for n in numbers]
        rows.append(["" if data[k] is None else data[k] for k in header]
                    + ["" if p is None else p for p in points])  # fmt: skip
    return rows


def export_csv(view: snapshots.View, fmt: str = "swiss") -> bytes:
    """The CSV export as bytes, written once per snapshot, format and language."""
    key = ("csv", get_language(), fmt)
    if key not in view.cache:
        out = io.StringIO()
        csv.writer(out).writerows(csv_rows(view, fmt))
        view.cache[key] = out.getvalue().encode()
    return view.cache[key]


def tournament_lists(user) -> dict:
    """The tournament list page: upcoming, running and recently finished."""
    visible = Tournament.objects.visible_to(user).select_related("league", "organizer")
    S = Tournament.Status
    return {
        "upcoming": visible.filter(status=S.REGISTRATION).order_by("starts_at")[:50],
        "running": visible.filter(status=S.RUNNING).order_by("-started_at")[:50],
        "finished": visible.filter(status__in=[S.FINISHED, S.CANCELLED]).order_by("-finished_at")[
            :30
        ],
    }
