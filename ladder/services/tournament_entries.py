"""Who plays a tournament: registration, withdrawal, check-in, and the organizer's changes.

Every change holds the tournament lock. A change to who is active between the pairing of a
round and its start is picked up when the round starts: it is paired again then. A person is
entered only by their own act (registering, or accepting an organizer's invitation); an
organizer enters bots only.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.models import BotLevel
from ladder import rating
from ladder.errors import LadderError
from ladder.models import Entry, League, Membership, Tournament, TournamentInvitation
from ladder.services.queue import current_rating
from ladder.services.tournaments import (
    announce,
    bot_entry_rating,
    kick,
    locked_tournament,
    notify_entrants,
    organized_tournament,
)
from ttr_site.accounts.services import notification_send

Status = Tournament.Status


def seeding_rating(tournament: Tournament, user) -> float:
    """The user's rating on the tournament's ladder (its league, else the rule set's public
    ladder), in the tournament's time control: what round 1 and the tie-breaks use."""
    league = (
        tournament.league
        or League.objects.filter(
            is_default=True, ruleset=tournament.ruleset, variant=tournament.variant
        ).first()
    )
    if league is None:
        return rating.START
    return current_rating(league, user, tournament.time_control)


def tournament_register(*, tournament_id: int, user, now=None) -> Entry:
    """Enter the tournament (late entrants join from the next round to be played)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if not tournament.registration_open(now):
            raise LadderError("registration_closed")
        entry = _enter(tournament, user, now)
        announce(tournament)
    return entry


def tournament_withdraw(*, tournament_id: int, user) -> Entry:
    """Leave the tournament: no later round pairs the player; results so far stay, and a
    game in progress is theirs to finish."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        _require_open(tournament)
        entry = _active_entry(tournament, user)
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
        announce(tournament)
    return entry


def tournament_check_in(*, tournament_id: int, user, now=None) -> Entry:
    """Confirm being there for round 1 (players who have not checked in by the start are
    dropped when the tournament uses check-in)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if not tournament.checkin_open(now):
            raise LadderError("checkin_closed")
        entry = _active_entry(tournament, user)
        if entry.checked_in_at is None:
            entry.checked_in_at = now
            entry.save(update_fields=["checked_in_at"])
            announce(tournament)
    return entry


def entry_invite(*, tournament_id: int, by, user) -> TournamentInvitation:
    """The organizer invites a player, who is entered only if they accept (a player who
    declined is not asked again; they may still register themselves)."""
    with transaction.atomic():
        tournament = organized_tournament(tournament_id, by)
        _require_rounds_left(tournament)
        name = user.public_name
        if tournament.entries.filter(user=user, status=Entry.Status.ACTIVE).exists():
            raise LadderError("already_entered", name=name)
        league = tournament.league
        if league is not None and league.is_private and league.membership_of(user) is None:
            raise LadderError("invitee_not_member", name=name)
        invitation, created = TournamentInvitation.objects.get_or_create(
            tournament=tournament, user=user, defaults={"invited_by": by}
        )
        if not created:
            if invitation.status == TournamentInvitation.Status.PENDING:
                raise LadderError("already_invited", name=name)
            if invitation.status == TournamentInvitation.Status.DECLINED:
                raise LadderError("invitation_declined", name=name)
            invitation.status = TournamentInvitation.Status.PENDING  # a withdrawn entrant
            invitation.invited_by, invitation.answered_at = by, None
            invitation.save(update_fields=["status", "invited_by", "answered_at"])
        announce(tournament)
        notification_send(
            user=user,
            text=gettext_lazy("{organizer} invites you to {name}: accept or decline on its page."),
            params={"organizer": by.public_name, "name": tournament.name},
            url=tournament.get_absolute_url(),
        )
    return invitation


def invitation_accept(*, tournament_id: int, user, now=None) -> Entry:
    """Accept an organizer's invitation: entered as by registering, with the same checks."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        invitation = _pending_invitation(tournament, user)
        if not tournament.registration_open(now):
            raise LadderError("registration_closed")
        entry = _enter(tournament, user, now)
        _answer(invitation, TournamentInvitation.Status.ACCEPTED, now)
        announce(tournament)
    return entry


def invitation_decline(*, tournament_id: int, user, now=None) -> TournamentInvitation:
    """Decline an organizer's invitation: nothing is entered, and the organizer is told."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        invitation = _pending_invitation(tournament, user)
        _answer(invitation, TournamentInvitation.Status.DECLINED, now or timezone.now())
        announce(tournament)
    return invitation


def _pending_invitation(tournament: Tournament, user) -> TournamentInvitation:
    invitation = tournament.invitations.filter(
        user=user, status=TournamentInvitation.Status.PENDING
    ).first()
    if invitation is None:
        raise LadderError("no_invitation")
    return invitation


def _answer(invitation: TournamentInvitation, status: str, now) -> None:
    """Record the player's answer and tell the organizer who asked."""
    invitation.status, invitation.answered_at = status, now
    invitation.save(update_fields=["status", "answered_at"])
    if invitation.invited_by_id is None:
        return
    if status == TournamentInvitation.Status.ACCEPTED:
        text = gettext_lazy("{player} accepted your invitation to {name}.")
    else:
        text = gettext_lazy("{player} declined your invitation to {name}.")
    tournament = invitation.tournament
    params = {"player": invitation.user.public_name, "name": tournament.name}
    notification_send(
        user=invitation.invited_by, text=text, params=params, url=tournament.get_absolute_url()
    )


def entry_add_bot(*, tournament_id: int, by, level: str = BotLevel.MEDIUM) -> Entry:
    """The organizer fills the field with a bot (unrated tournaments only)."""
    if level not in BotLevel.values:
        raise LadderError("invalid_tournament", detail=level)
    with transaction.atomic():
        tournament = organized_tournament(tournament_id, by)
        if tournament.rated:
            raise LadderError("bots_unrated_only")
        _require_rounds_left(tournament)
        _require_room(tournament)
        entry = Entry(
            tournament=tournament,
            bot_level=level,
            rating=bot_entry_rating(level),
            checked_in_at=timezone.now(),
            first_round=_joining_round(tournament),
        )
        _arena_free(tournament, entry, entry.checked_in_at)
        entry.save()
        announce(tournament)
    return entry


def entry_remove(*, tournament_id: int, by, entry_id: int) -> Entry:
    """The organizer takes an entrant out of the rest of the tournament."""
    with transaction.atomic():
        tournament = organized_tournament(tournament_id, by)
        _require_open(tournament)
        entry = tournament.entries.filter(pk=entry_id, status=Entry.Status.ACTIVE).first()
        if entry is None:
            raise LadderError("not_registered")
        entry.status = Entry.Status.REMOVED
        entry.save(update_fields=["status"])
        announce(tournament)
    text = gettext_lazy("The organizer removed you from {name}.")
    notify_entrants(tournament, text, entries=[entry], params={"name": tournament.name})
    return entry


def _enter(tournament: Tournament, user, now) -> Entry:
    """Register ``user`` (caller holds the lock and has checked the window)."""
    _require_membership(tournament, user)
    entry = tournament.entries.filter(user=user).first()
    if entry is not None and entry.is_active:
        raise LadderError("already_registered")
    if entry is not None and tournament.status != Status.REGISTRATION:
        raise LadderError("registration_closed")  # a withdrawn player does not come back
    _require_room(tournament)
    entry = entry or Entry(tournament=tournament, user=user)
    entry.status = Entry.Status.ACTIVE
    entry.rating = seeding_rating(tournament, user)
    entry.first_round = _joining_round(tournament)
    running = tournament.status == Status.RUNNING
    entry.checked_in_at = now if running or tournament.checkin_open(now) else None
    _arena_free(tournament, entry, now)
    entry.save()
    return entry


def _arena_free(tournament: Tournament, entry: Entry, now) -> None:
    """Someone entering a running arena is free at once: a seating pass after commit."""
    if tournament.format == Tournament.Format.ARENA and tournament.status == Status.RUNNING:
        entry.free_since = now
        tournament_id = tournament.pk
        transaction.on_commit(lambda: kick(tournament_id))


def _require_membership(tournament: Tournament, user) -> None:
    """League tournaments are for its members; a public league is joined on the way in."""
    league = tournament.league
    if league is None or league.memberships.filter(user=user).exists():
        return
    if league.is_private:
        raise LadderError("not_member")
    Membership.objects.create(league=league, user=user)


def _require_room(tournament: Tournament) -> None:
    limit = tournament.max_players
    active = tournament.entries.filter(status="active")
    if tournament.format == Tournament.Format.ARENA:  # an arena's stand-in bots take no place
        active = active.exclude(user__isnull=True, paused=True)
    if limit is not None and active.count() >= limit:
        raise LadderError("tournament_full")


def _require_open(tournament: Tournament) -> None:
    if tournament.status not in (Status.REGISTRATION, Status.RUNNING):
        raise LadderError("tournament_over")


def _require_rounds_left(tournament: Tournament) -> None:
    _require_open(tournament)
    if tournament.format == Tournament.Format.KNOCKOUT and tournament.status == Status.RUNNING:
        raise LadderError("registration_closed")  # its rounds are seeded from the first
    if tournament.format == Tournament.Format.ARENA:  # an arena takes entrants until its end
        if tournament.status == Status.RUNNING and not tournament.registration_open():
            raise LadderError("registration_closed")
        return
    if _joining_round(tournament) > tournament.round_count:
        raise LadderError("registration_closed")


def _joining_round(tournament: Tournament) -> int:
    if tournament.status == Status.REGISTRATION or tournament.format == Tournament.Format.ARENA:
        return 1
    return tournament.next_round_number()


def _active_entry(tournament: Tournament, user) -> Entry:
    entry = tournament.entries.filter(user=user, status=Entry.Status.ACTIVE).first()
    if entry is None:
        raise LadderError("not_registered")
    return entry
