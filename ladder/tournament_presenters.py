"""Read models of the tournament pages and exports: standings, rounds, crosstable, schedule.

One ``Snapshot`` loads a tournament's entries, rounds, tables and seats in a few queries;
every view of the tournament is built from it, so a page shows one consistent moment.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from games.seat_names import entrant_bot_names
from ladder import standings as scoring
from ladder.models import Entry, Pairing, PairingSeat, Round, Tournament


def fmt_points(value: float | None) -> str:
    """Tournament points as people write them: 12, 10.5, 6.67."""
    if value is None:
        return ""
    return f"{value:.2f}".rstrip("0").rstrip(".")


class Entrant:
    """An entry as the pages name it: a bot by its own name, the one its seats carry at the
    tournament's tables (``games.seat_names``); anything else is the entry's own."""

    def __init__(self, entry: Entry, label: str):
        self.entry, self.label = entry, label

    def __getattr__(self, name):
        return getattr(self.entry, name)


@dataclass
class Snapshot:
    tournament: Tournament
    entries: dict[int, Entry]
    rounds: list[Round]
    tables: dict[int, list[Pairing]]  # round number -> its pairings
    seats: dict[int, list[PairingSeat]]  # pairing id -> its seats in seat order
    rows: list[scoring.Row] = field(default_factory=list)
    bot_names: dict[int, str] = field(default_factory=dict)  # entry id -> a bot's own name

    @classmethod
    def load(cls, tournament: Tournament) -> "Snapshot":
        entries = {e.pk: e for e in tournament.entries.select_related("user")}
        rounds = list(tournament.rounds.order_by("number"))
        tables = defaultdict(list)
        pairings = Pairing.objects.filter(round__tournament=tournament).select_related(
            "round", "table"
        )
        for p in pairings.order_by("round__number", "number"):
            tables[p.round.number].append(p)
        seats = defaultdict(list)
        rows = PairingSeat.objects.filter(pairing__round__tournament=tournament)
        for s in rows.order_by("pairing_id", "seat"):
            s.entry = entries[s.entry_id]
            seats[s.pairing_id].append(s)
        bots = entrant_bot_names(e for e in entries.values() if not e.user_id and e.bot_level)
        return cls(tournament, entries, rounds, tables, seats, tournament.standings(), bots)

    def shown(self, entry: Entry) -> "Entry | Entrant":
        """``entry`` for a page: a bot with the name it plays under (``Entrant``)."""
        name = self.bot_names.get(entry.pk)
        return entry if name is None else Entrant(entry, name)

    def entry_of(self, user) -> Entry | None:
        if not getattr(user, "is_authenticated", False):
            return None
        return next((e for e in self.entries.values() if e.user_id == user.pk), None)


def standings_rows(snap: Snapshot) -> list[dict]:
    """The standings table: rank, entrant, points and every tie-break value."""
    return [
        {
            "rank": row.rank,
            "entry": snap.shown(snap.entries[row.player]),
            "points": fmt_points(row.points),
            "games": row.games,
            "byes": row.byes,
            "buchholz": fmt_points(row.buchholz),
            "buchholz_cut1": fmt_points(row.buchholz_cut1),
            "game_points": row.game_points,
            "opponent_rating": round(row.opponent_rating),
        }
        for row in snap.rows
    ]


def player_rows(snap: Snapshot) -> list[dict]:
    """The Players tab: every entrant and where they stand now (registered, playing, their
    final place, withdrawn ...); once the tournament is over, in the order it finished."""
    ranks = {row.player: row.rank for row in snap.rows}
    entries = sorted(snap.entries.values(), key=lambda e: (e.status, -e.rating))
    if snap.tournament.status == Tournament.Status.FINISHED:
        entries.sort(key=lambda e: ranks.get(e.pk, len(ranks) + 1))
    return [
        {
            "entry": snap.shown(e),
            "status": entry_status(snap.tournament, e, ranks.get(e.pk), len(ranks)),
        }
        for e in entries
    ]


def entry_status(t: Tournament, entry: Entry, rank: int | None, ranked: int) -> str:
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


def rounds_view(snap: Snapshot, user=None) -> list[dict]:
    """Every round, newest first, with its tables and their results."""
    me = snap.entry_of(user)
    out = []
    for round_ in reversed(snap.rounds):
        tables = [_table(snap, p, me) for p in snap.tables.get(round_.number, [])]
        out.append({"round": round_, "tables": tables})
    return out


def _table(snap: Snapshot, pairing: Pairing, me: Entry | None) -> dict:
    seats = snap.seats[pairing.pk]
    return {
        "pairing": pairing,
        "seats": [
            {
                "seat": s,
                "entry": snap.shown(s.entry),
                "points": fmt_points(s.points),
                "first": s.seat == 0,
            }
            for s in seats
        ],
        "mine": me is not None and any(s.entry_id == me.pk for s in seats),
        "done": pairing.done,
    }


def crosstable(snap: Snapshot) -> dict:
    """Rows in standings order; one cell per round: table, place of size, points (or bye)."""
    cells = defaultdict(dict)
    for number, pairings in snap.tables.items():
        for p in pairings:
            seats = snap.seats[p.pk]
            for s in seats:
                cells[s.entry_id][number] = {
                    "table": p.number,
                    "bye": p.is_bye,
                    "place": s.place,
                    "size": len(seats),
                    "points": fmt_points(s.points),
                    "pairing": p,
                }
    numbers = [r.number for r in snap.rounds]
    rows = [
        {
            "rank": row.rank,
            "entry": snap.shown(snap.entries[row.player]),
            "points": fmt_points(row.points),
            "cells": [cells[row.player].get(n) for n in numbers],
        }
        for row in snap.rows
    ]
    return {"rounds": numbers, "rows": rows}


def schedule(snap: Snapshot, user) -> dict | None:
    """The signed-in entrant's own rounds: table, seat, result; None if not an entrant."""
    me = snap.entry_of(user)
    if me is None:
        return None
    games = []
    for round_ in snap.rounds:
        for p in snap.tables.get(round_.number, []):
            seat = next((s for s in snap.seats[p.pk] if s.entry_id == me.pk), None)
            if seat is not None:
                others = [snap.shown(s.entry) for s in snap.seats[p.pk] if s.entry_id != me.pk]
                games.append({"round": round_, "pairing": p, "seat": seat, "others": others,
                              "points": fmt_points(seat.points)})  # fmt: skip
    row = next((r for r in snap.rows if r.player == me.pk), None)
    played = row is not None and row.games + row.byes > 0
    return {"entry": me, "games": games, "rank": row.rank if row else None, "played": played,
            "points": fmt_points(row.points) if row else ""}  # fmt: skip


def export(snap: Snapshot) -> dict:
    """The whole tournament as plain data (the JSON export; the CSV export flattens it)."""
    t = snap.tournament
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
        },
        "standings": [_export_row(snap, row) for row in snap.rows],
        "rounds": [_export_round(snap, r) for r in snap.rounds],
    }


def _export_row(snap: Snapshot, row: scoring.Row) -> dict:
    entry = snap.entries[row.player]
    return {
        "rank": row.rank,
        "player": snap.shown(entry).label,
        "username": entry.user.username if entry.user_id else None,
        "bot": entry.bot_level or None,
        "status": entry.status,
        "points": row.points,
        "games": row.games,
        "byes": row.byes,
        "buchholz": round(row.buchholz, 4),
        "buchholz_cut1": round(row.buchholz_cut1, 4),
        "game_points": row.game_points,
        "opponent_rating": round(row.opponent_rating, 1),
        "rating": round(entry.rating, 1),
    }


def _export_round(snap: Snapshot, round_: Round) -> dict:
    return {
        "number": round_.number,
        "status": round_.status,
        "tables": [
            {
                "number": p.number,
                "bye": p.is_bye,
                "status": p.status,
                "table_id": p.table_id,
                "seats": [
                    {
                        "seat": s.seat,
                        "player": snap.shown(s.entry).label,
                        "place": s.place,
                        "score": s.score,
                        "points": s.points,
                        "abandoned": s.abandoned,
                    }  # fmt: skip
                    for s in snap.seats[p.pk]
                ],
            }
            for p in snap.tables.get(round_.number, [])
        ],
    }


CSV_HEADER = ["rank", "player", "username", "status", "points", "games", "byes", "buchholz",
              "buchholz_cut1", "game_points", "opponent_rating", "rating"]  # fmt: skip


def csv_rows(snap: Snapshot) -> list[list]:
    """The standings as CSV rows (header first), one column per round's points after."""
    data = export(snap)
    numbers = [r.number for r in snap.rounds]
    per_round = defaultdict(dict)
    for r in data["rounds"]:
        for table in r["tables"]:
            for s in table["seats"]:
                per_round[s["player"]][r["number"]] = s["points"]
    header = CSV_HEADER + [f"round_{n}" for n in numbers]
    rows = [header]
    for row in data["standings"]:
        points = [per_round[row["player"]].get(n) for n in numbers]
        rows.append([row[k] for k in CSV_HEADER] + ["" if p is None else p for p in points])
    return rows


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
