"""Turn clocks, as plain functions of the table's time control.

Terms: a *decision* is what a seat must do now (a turn, or a step inside it: the second card,
the tunnel payment, keeping tickets); its *turn start* is when the set of deciding seats last
changed, so the steps of one turn share one clock. Real time: each turn gets ``move_seconds``;
time beyond that is taken from the seat's *bank* (``bank_seconds`` at the start); the
*deadline* is the turn start plus the move time plus what is left in the bank. Turn-based:
``turn_hours`` per turn, no bank. Bots get ``BOT_STALL_SECONDS``, so a bot move whose task was
lost is caught by the sweep like any timeout.
"""

from datetime import datetime, timedelta

from django.conf import settings

REALTIME = "realtime"


def seat_deadline(table, turn_start: datetime, bank_left: float, is_bot: bool) -> datetime:
    """When the seat deciding since ``turn_start`` runs out of time."""
    if is_bot:
        return turn_start + timedelta(seconds=settings.BOT_STALL_SECONDS)
    if table.time_control == REALTIME:
        return turn_start + timedelta(seconds=table.move_seconds + max(bank_left, 0.0))
    return turn_start + timedelta(hours=table.turn_hours)


def game_deadline(table, turn_start: datetime, deciding: list) -> datetime | None:
    """The earliest deadline of the deciding seats (``Seat`` rows); ``None`` if nobody decides."""
    deadlines = [seat_deadline(table, turn_start, s.bank_left, s.is_bot) for s in deciding]
    return min(deadlines) if deadlines else None


def bank_after_move(table, turn_start: datetime, now: datetime, bank_left: float) -> float:
    """The seat's bank after a decision made at ``now``: overtime is taken from it."""
    if table.time_control != REALTIME:
        return bank_left
    used = (now - turn_start).total_seconds()
    return max(0.0, bank_left - max(0.0, used - table.move_seconds))


def clock_summary(table, game, seats) -> dict:
    """The public clock facts sent with every view."""
    return {
        "time_control": table.time_control,
        "move_seconds": table.move_seconds,
        "bank_seconds": table.bank_seconds if table.time_control == REALTIME else 0,
        "turn_hours": table.turn_hours,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "turn_started_at": game.turn_started_at.isoformat() if game.turn_started_at else None,
        "banks": {str(s.position): round(s.bank_left, 1) for s in seats},
    }
