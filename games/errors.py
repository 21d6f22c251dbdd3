"""User errors of the live tables: expected, shown to the player, never a 500.

Each carries a stable ``code`` (clients and translations key on it) and a clear message.
Engine refusals (``games.engine.IllegalAction``) are reported the same way by the adapters.
"""

from django.utils.translation import gettext_lazy as _

from ttr_site.errors import UserError, statuses

MESSAGES = {
    "not_found": _("There is no such table."),
    "not_seated": _("You do not hold a seat at this table."),
    "not_owner": _("Only the table's owner can do that."),
    "table_full": _("This table is full."),
    "already_seated": _("You already have a seat at this table."),
    "table_not_open": _("This table is no longer taking players."),
    "game_not_running": _("This game is not running."),
    "stale_version": _("The game has moved on since your view; here is the current one."),
    "time_up": _("Your time for this turn ran out; the bot plays it for you."),
    "not_enough_players": _("A game needs at least two seats filled."),
    "private_table": _("This table is private; you need its invite link."),
    "invalid_options": _("These table options are not valid: {detail}"),
    "chat_too_long": _("Chat messages are limited to {limit} characters."),
    "chat_empty": _("Write something first."),
    "chat_rate_limited": _("You are sending messages too fast; wait a moment."),
    "rate_limited": _("You are sending too fast; wait a moment, nothing was changed."),
    "malformed_message": _("That message could not be understood: {detail}"),
    "not_your_seat": _("That seat is not yours to play."),
    "seat_taken": _("That seat is taken."),
    "seat_conceded": _("You gave up this seat: it cannot be taken back."),
    "seat_not_abandoned": _("You are playing this seat already."),
    "login_required": _("Log in to do that."),
    "too_many_open_tables": _(
        "Tables waiting for players are limited to {limit} per player; start or close one of "
        "yours first."
    ),
}


STATUSES = statuses({
    401: {"login_required"},
    403: {"not_seated", "not_owner", "private_table", "not_your_seat"},
    404: {"not_found"},
    409: {"table_full", "already_seated", "table_not_open", "game_not_running", "stale_version",
          "time_up", "seat_taken", "seat_conceded", "seat_not_abandoned"},
    429: {"chat_rate_limited", "rate_limited"},
})  # fmt: skip


class GameError(UserError):
    """A user error of the live tables."""

    messages = MESSAGES
    statuses = STATUSES
