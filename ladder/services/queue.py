"""Ranked play: the matchmaking queue, and starting a rated table for a group of members.

One writer per league: the matchmaker holds the league row's lock while it reads the queue,
forms tables and removes the players it seated, so a player is seated at most once even when
many matchmaker runs overlap (issue 7).
"""

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import services as games
from games.models import Table, TimeControl
from ladder import broadcast, matchmaking, rating
from ladder.errors import LadderError
from ladder.models import League, QueueEntry, Rating
from ladder.services.leagues import locked_league
from ttr_site.jobs import enqueue

# Clock of a ranked table per time control: the house defaults of a new table.
CLOCKS = {
    TimeControl.REALTIME: {"move_seconds": 90},
    TimeControl.TURN_BASED: {"turn_hours": 24},
}
SIZES = range(2, 6)


def current_rating(league: League, user, time_control: str) -> float:
    row = Rating.objects.filter(league=league, user=user, time_control=time_control).first()
    return row.rating if row else rating.START


def queue_join(
    *, league_id: int, user, time_control: str, min_size: int, max_size: int
) -> QueueEntry:
    """Wait for a ranked table of ``min_size``..``max_size`` players; the matchmaker runs."""
    if not (min_size in SIZES and max_size in SIZES and min_size <= max_size):
        raise LadderError("invalid_queue", detail=_("table sizes are 2 to 5 players"))
    with transaction.atomic():
        league = locked_league(league_id)
        if not league.memberships.filter(user=user).exists():
            raise LadderError("not_member")
        if time_control not in league.time_controls:
            raise LadderError("invalid_queue", detail=_("this league does not play that clock"))
        if QueueEntry.objects.filter(user=user).exists():
            raise LadderError("already_queued")
        entry = QueueEntry.objects.create(
            league=league,
            user=user,
            time_control=time_control,
            min_size=min_size,
            max_size=max_size,
            rating=current_rating(league, user, time_control),
            joined_at=timezone.now(),
        )
        transaction.on_commit(lambda: _kick_matchmaker(league.pk))
        transaction.on_commit(lambda: broadcast.queue_changed(user.pk))
    return entry


def _kick_matchmaker(league_id: int) -> None:
    enqueue("ladder.tasks.matchmake", league_id)


def queue_leave(*, user) -> None:
    """Stop waiting. Refused if the matchmaker has seated the player already."""
    if not QueueEntry.objects.filter(user=user).delete()[0]:
        raise LadderError("not_queued")
    transaction.on_commit(lambda: broadcast.queue_changed(user.pk))


def queue_match(*, league_id: int, now=None) -> list[Table]:
    """Seat every group the queue of a league allows now; return the tables started."""
    now = now or timezone.now()
    with transaction.atomic():
        league = locked_league(league_id)
        entries = list(league.queue.select_for_update().select_related("user"))
        tables = []
        for time_control in sorted({e.time_control for e in entries}):
            waiting = [e for e in entries if e.time_control == time_control]
            for group in matchmaking.form_tables([_waiter(e, now) for e in waiting]):
                QueueEntry.objects.filter(pk__in=[w.key.pk for w in group]).delete()
                users = [w.key.user for w in group]
                tables.append(rated_table_start(league=league, users=users, tc=time_control))
    return tables


def _waiter(entry: QueueEntry, now) -> matchmaking.Waiter:
    waited = (now - entry.joined_at).total_seconds()
    return matchmaking.Waiter(entry, entry.rating, entry.min_size, entry.max_size, waited)


def rated_table_start(*, league: League, users: list, tc: str) -> Table:
    """Create, fill and start a rated table of ``league``; tell each player where it is.

    The caller holds the league lock and has checked that every user may play.
    """
    users = list(users)
    random.SystemRandom().shuffle(users)  # seat 0 moves first: nobody may choose it
    table = games.table_create(
        owner=users[0],
        ruleset=league.ruleset,
        variant=league.variant,
        seat_count=len(users),
        time_control=tc,
        rated=True,
        league=league,
        is_private=league.is_private,
        **CLOCKS[tc],
    )
    for user in users[1:]:  # the last join fills the table, which starts the game
        games.table_join(table_id=table.pk, user=user, invite_token=table.invite_token)
    _notify_seated(table, league, users)
    ids, url = [u.pk for u in users], table.get_absolute_url()
    transaction.on_commit(
        lambda: broadcast.table_started(user_ids=ids, table_id=table.pk, url=url, source="ranked")
    )
    return table


def _notify_seated(table: Table, league: League, users: list) -> None:
    from ttr_site.accounts.services import notification_send

    text = gettext_lazy("Your ranked table in {league} has started: table {table}.")
    params = {"league": league.name, "table": table.pk}
    for user in users:
        notification_send(user=user, text=text, params=params, url=table.get_absolute_url())
