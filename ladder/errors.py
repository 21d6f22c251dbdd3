"""User errors of leagues and ranked play: expected, shown to the player, never a 500."""

from django.utils.translation import gettext_lazy as _

from ttr_site.errors import UserError, statuses

MESSAGES = {
    "not_found": _("There is no such league."),
    "not_member": _("Only members of this league can do that."),
    "already_member": _("You are already a member of this league."),
    "private_league": _("This league is private; you need its invite link."),
    "not_admin": _("Only the league's admins can do that."),
    "invalid_league": _("These league settings are not valid: {detail}"),
    "invalid_queue": _("That is not a valid request for a table: {detail}"),
    "already_queued": _("You are already waiting for a ranked table."),
    "not_queued": _("You are not waiting for a table (it may have just started)."),
    "invalid_challenge": _("That challenge is not possible: {detail}"),
    "challenge_closed": _("This challenge has already been answered."),
    "match_not_found": _("There is no such rated match."),
    "already_annulled": _("This match has already been annulled."),
    "tournament_not_found": _("There is no such tournament."),
    "not_organizer": _("Only the tournament's organizer can do that."),
    "invalid_tournament": _("These tournament settings are not valid: {detail}"),
    "registration_closed": _("Registration for this tournament is closed."),
    "already_registered": _("You are already registered for this tournament."),
    "not_registered": _("You are not registered for this tournament."),
    "tournament_full": _("This tournament is full."),
    "checkin_closed": _("Check-in is not open."),
    "tournament_started": _("The tournament has already started."),
    "tournament_not_running": _("The tournament is not running."),
    "tournament_over": _("The tournament is over."),
    "not_arena": _("Only an arena can be paused, resumed or ended this way by its players."),
    "round_started": _("That round has already started; it cannot be paired again."),
    "pairing_not_found": _("There is no such table in this tournament."),
    "table_not_playing": _("That table is not being played."),
    "invalid_result": _("That result is not valid: {detail}"),
    "bots_unrated_only": _("Bots can only enter unrated tournaments."),
    "not_enough_entrants": _("Too few players for a table."),
    "already_entered": _("{name} is already entered in this tournament."),
    "already_invited": _("{name} has already been invited and has not answered yet."),
    "invitation_declined": _("{name} declined the invitation to this tournament."),
    "invitee_not_member": _("{name} is not a member of this tournament's league."),
    "no_invitation": _("You have no open invitation to this tournament."),
}


STATUSES = statuses({
    403: {"not_member", "private_league", "not_admin", "not_organizer"},
    404: {"not_found", "match_not_found", "tournament_not_found", "pairing_not_found"},
    409: {"already_member", "already_queued", "not_queued", "challenge_closed",
          "already_annulled", "registration_closed", "already_registered", "not_registered",
          "tournament_full", "checkin_closed", "tournament_started", "tournament_not_running",
          "not_arena", "tournament_over", "round_started", "table_not_playing"},
})  # fmt: skip


class LadderError(UserError):
    """A user error of the ladder."""

    messages = MESSAGES
    statuses = STATUSES
