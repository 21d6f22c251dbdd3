"""Tournament use cases: setting one up, and the organizer's controls of the whole event.

One writer per tournament: every change locks the tournament row (``locked_tournament``),
so two triggers of the same step (a finished game and the beat tick, say) never both act.
Open tournament pages are told after commit, by the snapshot rebuild (``announce``).
"""

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.errors import GameError
from games.models import BotLevel, TimeControl
from games.services.tables import check_game_options
from ladder import standings
from ladder.errors import LadderError
from ladder.models import Tournament
from ladder.services.leagues import free_slug
from ttr_site.jobs import enqueue

MAX_ROUNDS = 15
SIZES = range(2, 6)
# Seeding ratings of bot entrants (unrated tournaments): roughly where each level plays.
BOT_RATINGS = {
    BotLevel.EASY: 1200.0,
    BotLevel.MEDIUM: 1500.0,
    BotLevel.HARD: 1650.0,
    BotLevel.EXPERT: 1750.0,
}


def locked_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked: one writer per tournament."""
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise LadderError("tournament_not_found") from None


def organized_tournament(tournament_id: int, by) -> Tournament:
    """The locked tournament, if ``by`` organizes it (or is staff)."""
    tournament = locked_tournament(tournament_id)
    if not tournament.is_organizer(by):
        raise LadderError("not_organizer")
    return tournament


def announce(tournament: Tournament) -> None:
    """The tournament changed: a new version (in this transaction, so the standings snapshot
    of the old one is stale from the commit on); after commit, its snapshot is rebuilt, and
    the rebuild tells open pages (``live_standings.publish``: one ``standings`` frame per
    change, sent once the snapshot is ready, so pages never refetch before it is). A lost
    rebuild task is caught by ``tasks.tournaments_tick``."""
    tournament_id = tournament.pk
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    tournament.version += 1  # the caller holds the row lock: the row's value now
    transaction.on_commit(lambda: enqueue("ladder.tasks.tournament_snapshot", tournament_id))


def notify_entrants(tournament: Tournament, text, *, entries=None, params=None) -> None:
    """A notice to human entrants: ``text`` is a lazy message, ``params`` fill it, and each
    reader reads it in their own language (``notification_send``)."""
    from ttr_site.accounts.services import notification_send

    entries = entries if entries is not None else tournament.entries.filter(status="active")
    url = tournament.get_absolute_url()
    for entry in entries:
        if entry.user_id is not None:
            notification_send(user=entry.user, text=text, params=params, url=url)


def tournament_create(*, by, name: str, starts_at, now=None, **settings) -> Tournament:
    """Announce a tournament; registration opens as its window says.

    ``settings``: any ``Tournament`` field an organizer chooses (``league``, ``ruleset``,
    ``variant``, ``options``, ``table_size``, ``allow_smaller``, ``round_count``, the clock,
    the registration and check-in windows, ``rated``, ``late_registration_rounds``,
    ``tiebreaks``, ``points_scheme``, ``round_break_seconds``, ``max_players``...).
    """
    tournament = Tournament(organizer=by, name=name.strip(), starts_at=starts_at, **settings)
    if not tournament.tiebreaks:
        tournament.tiebreaks = list(standings.DEFAULT_TIEBREAKS)
    check_settings(tournament, by, now or timezone.now())
    tournament.slug = free_slug(Tournament, tournament.name, fallback="tournament")
    tournament.save()
    return tournament


def check_settings(t: Tournament, by, now) -> None:
    """Refuse a tournament that could not run as set (``invalid_tournament``)."""
    problem = _setting_problem(t, now) or _league_problem(t, by)
    if problem:
        raise LadderError("invalid_tournament", detail=problem)


def _setting_problem(t: Tournament, now) -> str | None:
    if not t.name:
        return _("a tournament needs a name")
    if t.table_size not in SIZES:
        return _("tables seat 2 to 5 players")
    if not 1 <= t.round_count <= MAX_ROUNDS:
        return _("a tournament has 1 to %(n)s rounds") % {"n": MAX_ROUNDS}
    for size in sorted({t.table_size, t.min_table}):
        try:
            check_game_options(ruleset=t.ruleset, variant=t.variant, seats=size, options=t.options)
        except GameError as exc:
            return exc.message
    return _format_problem(t) or _clock_problem(t) or _window_problem(t, now) or _rules_problem(t)


def _format_problem(t: Tournament) -> str | None:
    """The settings of an arena or a knockout (docs/tournaments.md "Formats")."""
    if t.format not in Tournament.Format.values:
        return _("unknown tournament format")
    if t.format == Tournament.Format.ARENA:
        if not 10 <= t.duration_minutes <= 600:
            return _("an arena lasts 10 to 600 minutes")
        if t.bot_fill_level not in BotLevel.values or t.bot_fill_seconds > 600:
            return _("bots fill a table after at most 10 minutes, at a known level")
        if t.bot_fill_seconds and t.rated:
            return _("bots fill tables in unrated arenas only")
    if t.format == Tournament.Format.KNOCKOUT and not 1 <= t.advance_count < t.table_size:
        return _("from each table, 1 to %(n)s players go through") % {"n": t.table_size - 1}
    if t.format == Tournament.Format.KNOCKOUT and t.late_registration_rounds:
        return _("a knockout takes no late entries: its rounds are seeded from the first")
    return None


def _clock_problem(t: Tournament) -> str | None:
    if t.time_control not in TimeControl.values:
        return _("unknown time control")
    if not 10 <= t.move_seconds <= 600 or not 0 <= t.bank_seconds <= 3600:
        return _("moves take 10 to 600 seconds, with a bank of up to an hour")
    if not 1 <= t.turn_hours <= 72:
        return _("turn-based moves take 1 to 72 hours")
    if t.round_break_seconds > 3600:
        return _("the break between rounds is at most an hour")
    return None


def _window_problem(t: Tournament, now) -> str | None:
    if t.starts_at <= now:
        return _("the start time must be in the future")
    opens, closes = t.registration_opens_at, t.registration_closes
    if closes > t.starts_at or (opens is not None and opens >= closes):
        return _("registration must open before it closes, and close by the start")
    if t.checkin_minutes > 24 * 60:
        return _("check-in opens at most a day before the start")
    return None


def _rules_problem(t: Tournament) -> str | None:
    if t.late_registration_rounds > t.round_count:
        return _("late registration cannot go past the last round")
    if len(set(t.tiebreaks)) != len(t.tiebreaks) or not set(t.tiebreaks) <= set(
        standings.TIEBREAKS
    ):
        return _("unknown or repeated tie-break")
    if t.points_scheme not in standings.SCHEMES:
        return _("unknown placement points")
    if t.max_players is not None and t.max_players < t.min_table:
        return _("the player limit is below one table")
    return None


def _league_problem(t: Tournament, by) -> str | None:
    league = t.league
    if league is None:
        return _("a rated tournament belongs to a league") if t.rated else None
    if (league.ruleset, league.variant) != (t.ruleset, t.variant):
        return _("the league plays another map or tickets")
    if t.time_control not in league.time_controls:
        return _("the league does not play that time control")
    if not league.is_admin(by):
        return _("only the league's admins run its tournaments")
    return None


def tournament_pause(*, tournament_id: int, by) -> Tournament:
    """No new round starts until resumed; tables in play finish as usual."""
    with transaction.atomic():
        tournament = organized_tournament(tournament_id, by)
        _require_not_over(tournament)
        tournament.paused = True
        tournament.save(update_fields=["paused"])
        announce(tournament)
    return tournament


def tournament_resume(*, tournament_id: int, by) -> Tournament:
    """Resume a paused tournament; whatever became due meanwhile happens now."""
    with transaction.atomic():
        tournament = organized_tournament(tournament_id, by)
        _require_not_over(tournament)
        tournament.paused = False
        tournament.save(update_fields=["paused"])
        announce(tournament)
        transaction.on_commit(lambda: kick(tournament_id))
    return tournament


def tournament_cancel(*, tournament_id: int, by) -> Tournament:
    """Call the tournament off; games in play finish as ordinary games."""
    with transaction.atomic():
        tournament = organized_tournament(tournament_id, by)
        _require_not_over(tournament)
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        text = gettext_lazy("{name} has been cancelled.")
        notify_entrants(tournament, text, params={"name": tournament.name})
        announce(tournament)
    return tournament


def _require_not_over(tournament: Tournament) -> None:
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise LadderError("tournament_over")


def kick(tournament_id: int) -> None:
    """Queue a step of the tournament (pairing, starting, finishing) in the worker."""
    enqueue("ladder.tasks.tournament_advance", tournament_id)


def bot_entry_rating(level: str) -> float:
    return BOT_RATINGS.get(level, BOT_RATINGS[BotLevel.MEDIUM])
