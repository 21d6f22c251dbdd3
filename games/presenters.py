"""Plain-data summaries of tables for pages, sockets and the API (no hidden information)."""

from django.urls import reverse

from games.models import Table

SEAT_COLORS = ["#d1342f", "#2f6fd1", "#2e9e4f", "#e0a21b", "#7b4bb7"]
SEAT_SYMBOLS = ["●", "■", "▲", "◆", "★"]


def seat_summary(seat) -> dict:
    return {
        "position": seat.position,
        "name": seat.label,
        "username": seat.user.username if seat.user_id else None,
        "bot_level": seat.bot_level or None,
        "is_bot": seat.is_bot,
        "abandoned": seat.abandoned,
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
        "turn_hours": table.turn_hours,
        "rated": table.rated,
        "ended_early": table.ended_early,
        "is_private": table.is_private,
        "owner_id": table.owner_id,
        "is_owner": signed_in and table.owner_id == user.pk,
        "your_seat": mine.position if mine is not None and not mine.abandoned else None,
        "seats": [seat_summary(s) for s in seats],
    }
    if mine is not None and table.is_private:
        summary["invite_url"] = reverse("table_invite", args=[table.pk, table.invite_token])
    return summary
