"""Plain-data summaries of tables for pages, sockets and the API (no hidden information)."""

from django.urls import reverse

from games.models import Table

SEAT_COLORS = ["#d1342f", "#2f6fd1", "#2e9e4f", "#e0a21b", "#7b4bb7"]
SEAT_SYMBOLS = ["●", "■", "▲", "◆", "★"]

# Who reads a rated table's ladder facts (``ladder.table_ratings.table_ratings``): games
# imports nothing of the ladder, so the ladder hands its reader in at start-up (ladder.apps).
_ratings_reader = None


def set_ratings_reader(reader) -> None:
    """Wire the ladder's reader of a rated table's ratings (``ladder.apps``)."""
    global _ratings_reader
    _ratings_reader = reader


def _add_ratings(summary: dict, table: Table) -> None:
    """A rated league table's ``ladder`` facts, and each seat's ``rating`` (and, once the
    match is recorded, its ``rating_change``): public, like the ladder itself."""
    summary["ladder"] = None
    if not (table.rated and table.league_id and _ratings_reader):
        return
    facts = _ratings_reader(table)
    per_seat = facts.pop("seats")
    summary["ladder"] = facts
    for seat in summary["seats"]:
        seat.update(per_seat.get(seat["position"], {}))


def seat_summary(seat) -> dict:
    return {
        "position": seat.position,
        "name": seat.label,
        "username": seat.user.username if seat.user_id else None,
        "bot_level": seat.bot_level or None,
        "is_bot": seat.is_bot,
        "abandoned": seat.abandoned,
        "conceded": seat.conceded,
        "user_id": seat.user_id,
        "color": SEAT_COLORS[seat.position],
        "symbol": SEAT_SYMBOLS[seat.position],
    }


def table_summary(table: Table, user) -> dict:
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    signed_in = getattr(user, "is_authenticated", False)
    mine = next((s for s in seats if signed_in and s.user_id == user.pk), None)
    summary = {
        "id": table.pk,
        "status": table.status,
        "status_label": str(table.get_status_display()),
        "ruleset": table.ruleset,
        "variant": table.variant,
        "options": table.options,
        "seat_count": table.seat_count,
        "time_control": table.time_control,
        "move_seconds": table.move_seconds,
        "bank_seconds": table.bank_seconds,
        "turn_hours": table.turn_hours,
        "rated": table.rated,
        "ended_early": table.ended_early,
        "is_private": table.is_private,
        "owner_id": table.owner_id,
        "is_owner": signed_in and table.owner_id == user.pk,
        "your_seat": mine.position if mine is not None and not mine.abandoned else None,
        # A bot plays the caller's seat after timeouts: they may take it back (rules 1.7).
        "can_take_back": mine is not None
        and mine.can_be_taken_back
        and table.status == Table.Status.PLAYING,
        "seats": [seat_summary(s) for s in seats],
    }
    _add_ratings(summary, table)
    if mine is not None and table.is_private:
        summary["invite_url"] = reverse("table_invite", args=[table.pk, table.invite_token])
    return summary
