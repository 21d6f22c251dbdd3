"""Arenas: one long round whose tables open as soon as enough entrants are free, until the
arena's end (docs/tournaments.md "Arena"). ``begin``, ``step`` and ``table_done`` are called
by ``tournament_rounds`` under the tournament lock; the entrants' pause and play-on and the
organizer's end-now are use cases of their own.

Terms: an entrant is *free* while active and not at a table (``Entry.free_since`` is set:
when they became free; null while seated); a free entrant who is not *paused* is seated by
the next *seating pass* (``ladder.pairing.arena``). *Stand-in* bots are the bots that fill a
table for a player who waited ``bot_fill_seconds``: bot entries kept paused, so that the
seating pass never seats them on their own; the organizer's own bot entrants play as anyone.
"""

from datetime import timedelta

from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy

from ladder.errors import LadderError
from ladder.models import Entry, Pairing, PairingSeat, Round, Tournament
from ladder.pairing.arena import Free, seat_free
from ladder.services.tournaments import (
    announce,
    bot_entry_rating,
    kick,
    locked_tournament,
    notify_entrants,
    organized_tournament,
)

ACTIVE = Entry.Status.ACTIVE


# --- the arena's run (under the tournament lock) ----------------------------------------------


def begin(t: Tournament, now) -> None:
    """The arena starts: its one round, every entrant free, and the first tables."""
    t.ends_at = now + timedelta(minutes=t.duration_minutes)
    t.save(update_fields=["ends_at"])
    active = t.entries.filter(status=ACTIVE)
    Round.objects.create(
        tournament=t, number=1, status=Round.Status.PLAYING, starts_at=now, started_at=now,
        roster=sorted(active.values_list("pk", flat=True)),
    )  # fmt: skip
    active.update(free_since=now, streak=0)
    _seat(t, now)
    waiting = t.entries.filter(status=ACTIVE, free_since__isnull=False).select_related("user")
    text = gettext_lazy("{name} has started: you get a table as soon as enough players are free.")
    notify_entrants(t, text, entries=list(waiting), params={"name": t.name})


def step(t: Tournament, now) -> bool:
    """Whatever is due in a running arena now; whether anything happened. After the end no
    table opens and, once the last game in progress has its result, the arena finishes; a
    pause (the organizer's) holds new tables only."""
    round_ = arena_round(t)
    if round_ is None or round_.status != Round.Status.PLAYING:
        return False
    if t.ends_at is not None and now >= t.ends_at:
        if round_.pairings.filter(status=Pairing.Status.PLAYING).exists():
            return False
        from ladder.services.tournament_rounds import _finish  # it imports this module

        round_.status, round_.finished_at = Round.Status.FINISHED, now
        round_.save(update_fields=["status", "finished_at"])
        _finish(t, now)
        return True
    if t.paused:
        return False
    return bool(_seat(t, now) + _fill(t, now))


def table_done(t: Tournament, table: Pairing, seats: list[PairingSeat]) -> None:
    """A table's places and points are set on ``seats`` (not yet saved): add the streak bonus
    and free the players."""
    first = table.status == Pairing.Status.PLAYING  # not a correction of a known result
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=[s.entry_id for s in seats])}
    now = timezone.now()
    for seat in seats:
        entry = entries[seat.entry_id]
        won = seat.place == 1 and not seat.abandoned
        # docs/tournaments.md "Arena": a win right after a win scores double; any other
        # result (an abandoned seat too) ends the streak. A corrected result keeps the
        # bonus its winner had; the streaks it counted are not recounted.
        seat.doubled = won and (entry.streak >= 1 if first else seat.doubled)
        if seat.doubled:
            seat.points *= 2
        if first:
            entry.streak = entry.streak + 1 if won else 0
            entry.free_since = now if entry.status == ACTIVE else None
            entry.save(update_fields=["streak", "free_since"])


def arena_round(t: Tournament) -> Round | None:
    return t.rounds.filter(number=1).first()


def _seat(t: Tournament, now) -> int:
    """A seating pass: tables for the free, unpaused entrants; how many opened."""
    pool = list(t.entries.filter(status=ACTIVE, paused=False, free_since__isnull=False))
    if len(pool) < t.min_table:
        return 0
    points = _points(t)
    met = _last_met(t, [e.pk for e in pool])
    free = [
        Free(e.pk, points.get(e.pk, 0.0), e.rating, e.free_since.timestamp(), met.get(e.pk, ()))
        for e in pool
    ]
    round_ = arena_round(t)
    seed = t.seed + round_.pairings.count()
    tables = seat_free(free, size=t.table_size, min_table=t.min_table, seed=seed)
    for players in tables:
        _open(t, round_, players)
    return len(tables)


def _fill(t: Tournament, now) -> int:
    """Bots fill a table for the free human entrants when one has waited ``bot_fill_seconds``
    (and the seating pass could not seat them); how many tables opened (0 or 1)."""
    if not t.bot_fill_seconds:
        return 0
    free = t.entries.filter(status=ACTIVE, paused=False, free_since__isnull=False)
    waited = now - timedelta(seconds=t.bot_fill_seconds)
    if not free.filter(user__isnull=False, free_since__lte=waited).exists():
        return 0
    players = [e.pk for e in free.order_by("free_since", "pk")[: t.table_size]]
    stand_ins = list(
        t.entries.filter(
            status=ACTIVE, user__isnull=True, paused=True, free_since__isnull=False,
            bot_level=t.bot_fill_level,
        ).order_by("pk")[: t.table_size - len(players)]
    )  # fmt: skip
    players += [e.pk for e in stand_ins]
    while len(players) < t.table_size:
        bot = Entry.objects.create(
            tournament=t, bot_level=t.bot_fill_level, paused=True,
            rating=bot_entry_rating(t.bot_fill_level), checked_in_at=now,
        )  # fmt: skip
        players.append(bot.pk)
    _open(t, arena_round(t), players)
    return 1


def _open(t: Tournament, round_: Round, players: list[int]) -> Pairing:
    """Open a table of ``players`` (in seat order) and tell its human players."""
    from ladder.services import tournament_rounds as rounds  # it imports this module

    number = (round_.pairings.aggregate(n=Max("number"))["n"] or 0) + 1
    table = Pairing.objects.create(round=round_, number=number)
    PairingSeat.objects.bulk_create(
        PairingSeat(pairing=table, entry_id=entry, seat=i) for i, entry in enumerate(players)
    )
    Entry.objects.filter(pk__in=players).update(free_since=None)
    table = Pairing.objects.prefetch_related("seats__entry__user").get(pk=table.pk)
    rounds._open_table(t, table)
    _notify_table(t, table)
    return table


def _notify_table(t: Tournament, table: Pairing) -> None:
    from ttr_site.accounts.services import notification_send

    text = gettext_lazy("{name}: your table {table} has started.")
    url = table.table.get_absolute_url()
    for seat in table.seats.all():
        if seat.entry.user_id is not None:
            params = {"name": t.name, "table": table.number}
            notification_send(user=seat.entry.user, text=text, params=params, url=url)


def _points(t: Tournament) -> dict[int, float]:
    """Every entrant's arena points so far."""
    rows = (
        PairingSeat.objects.filter(pairing__round__tournament=t, points__isnull=False)
        .values("entry_id")
        .annotate(total=Sum("points"))
    )
    return {row["entry_id"]: row["total"] for row in rows}


def _last_met(t: Tournament, entry_ids: list[int]) -> dict[int, frozenset[int]]:
    """The players each of ``entry_ids`` met in their last game."""
    mine = PairingSeat.objects.filter(pairing__round__tournament=t, entry_id__in=entry_ids)
    last = {}
    for entry, pairing, number in mine.values_list("entry_id", "pairing_id", "pairing__number"):
        if entry not in last or number > last[entry][1]:
            last[entry] = (pairing, number)
    tables: dict[int, set[int]] = {}
    others = PairingSeat.objects.filter(pairing_id__in={p for p, _n in last.values()})
    for pairing, entry in others.values_list("pairing_id", "entry_id"):
        tables.setdefault(pairing, set()).add(entry)
    return {e: frozenset(tables[p] - {e}) for e, (p, _n) in last.items()}


# --- the entrants' and the organizer's actions ------------------------------------------------


def arena_pause(*, tournament_id: int, user) -> Entry:
    """Take a break from a running arena: no new table seats you until you play on; a game
    in progress is yours to finish."""
    with transaction.atomic():
        t = locked_tournament(tournament_id)
        entry = _arena_entry(t, user)
        if not entry.paused:
            entry.paused = True
            entry.save(update_fields=["paused"])
            announce(t)
    return entry


def arena_resume(*, tournament_id: int, user) -> Entry:
    """Play on after a pause: free again (waiting from now), seated as soon as a table can
    start."""
    with transaction.atomic():
        t = locked_tournament(tournament_id)
        entry = _arena_entry(t, user)
        if entry.paused:
            entry.paused = False
            if entry.free_since is not None:  # not at a table: waiting starts now
                entry.free_since = timezone.now()
            entry.save(update_fields=["paused", "free_since"])
            announce(t)
            transaction.on_commit(lambda: kick(tournament_id))
    return entry


def tournament_end_now(*, tournament_id: int, by) -> Tournament:
    """End a running arena now: no new table opens; the games in progress still count, and
    the arena finishes with the last of them."""
    from ladder.services.tournament_rounds import _run_due  # it imports this module

    now = timezone.now()
    with transaction.atomic():
        t = organized_tournament(tournament_id, by)
        _require_running_arena(t)
        if t.ends_at is None or t.ends_at > now:
            t.ends_at = now
            t.save(update_fields=["ends_at"])
        _run_due(t, now)
        announce(t)
    return t


def _arena_entry(t: Tournament, user) -> Entry:
    _require_running_arena(t)
    entry = t.entries.filter(user=user, status=ACTIVE).first() if user.is_authenticated else None
    if entry is None:
        raise LadderError("not_registered")
    return entry


def _require_running_arena(t: Tournament) -> None:
    if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise LadderError("tournament_over")
    if t.format != Tournament.Format.ARENA:
        raise LadderError("not_arena")
    if t.status != Tournament.Status.RUNNING:
        raise LadderError("tournament_not_running")
