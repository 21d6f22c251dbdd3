"""Celery tasks of the ladder: thin wrappers that call ``ladder.services``.

All are safe to run twice: a result is recorded once per table, the matchmaker seats only
players still queued (under the league lock), and a recalculation rebuilds from the history.
"""

import logging

from celery import shared_task
from django.db import OperationalError

from ladder import services
from ladder.models import QueueEntry, Round, Tournament

log = logging.getLogger(__name__)
RETRY = {
    "autoretry_for": (OperationalError,),
    "retry_backoff": 0.5,
    "retry_backoff_max": 10,
    "max_retries": 8,
}


@shared_task(**RETRY)
def record_result(table_id: int, result: dict, abandoned: list) -> int | None:
    """Record a finished rated table and move its ladder; returns the match id."""
    match = services.match_record(table_id=table_id, result=result, abandoned=abandoned)
    return match.pk if match else None


@shared_task(**RETRY)
def matchmake(league_id: int | None = None) -> int:
    """Seat whoever can be seated now, in one league or (beat) every league with a queue."""
    if league_id is None:
        leagues = QueueEntry.objects.values_list("league_id", flat=True).distinct()
    else:
        leagues = [league_id]
    started = 0
    for league in list(leagues):
        started += len(services.queue_match(league_id=league))
    return started


@shared_task(**RETRY)
def recalculate(league_id: int) -> dict:
    """Rebuild a league's ladders from its history (after an annulment, or on request)."""
    report = services.ladder_recalculate(league_id=league_id)
    log.info("league %s recalculated: %s matches in %.1f s", league_id, report.matches,
             report.total_seconds)  # fmt: skip
    return {"matches": report.matches, "rows": report.rows}


@shared_task(**RETRY)
def tournament_advance(tournament_id: int) -> bool:
    """Do whatever is due in one tournament (safe to run twice: it runs under its lock)."""
    return services.tournament_advance(tournament_id=tournament_id)


@shared_task(**RETRY)
def tournament_game_finished(table_id: int, result: dict, abandoned: list) -> bool:
    """A tournament table's game is over: record its result and move the tournament on."""
    return services.tournament_game_finished(table_id=table_id, result=result, abandoned=abandoned)


@shared_task(**RETRY)
def tournament_rate(tournament_id: int) -> int:
    """A rated tournament is over: its games go to the league's ladder (once each)."""
    return services.tournament_rate(tournament_id=tournament_id)


@shared_task
def tournaments_tick() -> int:
    """Beat: advance every tournament with something due (a start, a check-in to announce,
    a paired round to start, or a round whose last result a lost task never reported)."""
    from django.utils import timezone

    now = timezone.now()
    due = set(
        Tournament.objects.filter(
            status=Tournament.Status.REGISTRATION, paused=False, starts_at__lte=now
        ).values_list("id", flat=True)
    )
    due |= {
        t.pk
        for t in Tournament.objects.filter(
            status=Tournament.Status.REGISTRATION, paused=False, checkin_announced=False
        ).exclude(checkin_minutes=0)
        if t.checkin_open(now)
    }
    due |= set(
        Round.objects.filter(
            tournament__status=Tournament.Status.RUNNING,
            status__in=[Round.Status.PAIRED, Round.Status.PLAYING],
        ).values_list("tournament_id", flat=True)
    )
    advanced = 0
    for tournament_id in sorted(due):
        try:
            advanced += services.tournament_advance(tournament_id=tournament_id, now=now)
        except Exception:
            log.exception("advancing tournament %s failed", tournament_id)
    services.snapshot_refresh_stale()
    return advanced


@shared_task(**RETRY)
def tournament_snapshot(tournament_id: int) -> None:
    """Rebuild a tournament's standings snapshot after a change (nothing if it is current)."""
    services.snapshot_refresh(tournament_id=tournament_id)
