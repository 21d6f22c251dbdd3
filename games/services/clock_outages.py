"""Outage time: when the platform could not serve the running games, their clocks get back
the time they lost (docs/reliability.md, "Outage time").

Terms: the *sweep beat* is the deadline sweep's heartbeat (``ClockBeat``, one row), written
by every sweep (``tasks.sweep_deadlines``, every ``SWEEP_SECONDS``); a *web beat* is one web
process's liveness beat (``WebBeat``, written by ``games.web_beat``). An *outage* is a span in
which clocks ran but nobody could be served: no sweep ran for more than
``CLOCK_OUTAGE_SECONDS`` (the worker, beat, Redis or PostgreSQL was down), or no web process
was alive (players cannot move). Each running game gets back the part of the outage that
fell in its current turn: its ``turn_started_at`` and ``deadline`` move forward by it in one
UPDATE, so the bank is charged from the shifted turn start and a move inside the returned
time is in time. The row's compare-and-set makes two racing sweeps give the time once, and
``given_until`` makes sure no span is given twice (a database outage also stales the web
beats).
"""

import logging
import os
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, DateTimeField, F, Max, Q, Value
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from games import broadcast, clocks
from games.models import ClockBeat, ClockOutage, Game, Table, WebBeat

log = logging.getLogger(__name__)
BEAT_ROW = 1
WEB_BEATS_KEPT = timedelta(hours=1)  # the beats of processes gone longer than this are dropped


@dataclass(frozen=True)
class Beat:
    """What one sweep beat found: whether human seats may time out now (a web process is
    alive, or none has ever beaten: tests, commands), and the outage it gave back, if any."""

    serving: bool
    outage: ClockOutage | None = None


def clock_sweep_beat(*, now: datetime | None = None) -> Beat:
    """The sweep's heartbeat: detect an outage that just ended and give every running game the
    time it lost, before the sweep resolves any deadline (the caller sweeps only if
    ``serving``)."""
    now = now or timezone.now()
    beat, _ = ClockBeat.objects.get_or_create(pk=BEAT_ROW)
    serving, last_web = _web_serving(now)
    start, cause = _outage_over(beat, now, serving)
    web_down_since = None
    if not serving:
        web_down_since = beat.web_down_since or max(last_web or now, _given(beat, now, start))
    outage = None
    with transaction.atomic():
        claimed = ClockBeat.objects.filter(
            pk=BEAT_ROW, beat_at=beat.beat_at, web_down_since=beat.web_down_since
        ).update(
            beat_at=now,
            web_down_since=web_down_since,
            given_until=now if start is not None else beat.given_until,
        )
        if not claimed:
            return Beat(serving)  # another sweep took this beat (and gave any time back)
        if start is not None:
            outage = _give_back(start, now, cause)
        if serving and last_web is not None:  # one commit a sweep: the clean-up goes with it
            WebBeat.objects.filter(beat_at__lt=now - WEB_BEATS_KEPT).delete()
    return Beat(serving, outage)


def clock_sweep_touch(*, now: datetime | None = None) -> None:
    """A sweep that ran long beats again at its end (no outage: it was working)."""
    now = now or timezone.now()
    ClockBeat.objects.filter(pk=BEAT_ROW, beat_at__lt=now).update(beat_at=now)


def web_beat(*, name: str, now: datetime | None = None) -> None:
    """A web process is alive (``games.web_beat``, every ``WEB_BEAT_SECONDS``)."""
    now = now or timezone.now()
    if not WebBeat.objects.filter(name=name).update(beat_at=now, stopped_at=None):
        WebBeat.objects.get_or_create(name=name, defaults={"beat_at": now})  # its first beat


def web_stopped(*, name: str, now: datetime | None = None) -> None:
    """A web process is shutting down (gracefully): it serves nobody from now on, so if it was
    the last one the outage starts now, not when its beat would have gone stale."""
    now = now or timezone.now()
    WebBeat.objects.filter(name=name).update(beat_at=now, stopped_at=now)


def web_process_name() -> str:
    """This process's name in ``WebBeat``: unique while it runs."""
    return f"{socket.gethostname()}:{os.getpid()}"


# --- internals ------------------------------------------------------------------------------


def _web_serving(now: datetime) -> tuple[bool, datetime | None]:
    """Whether a web process is alive, and when the last one was last seen (``None``: no web
    process has ever beaten here, so there is nothing to guard)."""
    window = now - timedelta(seconds=settings.WEB_ALIVE_SECONDS)
    found = WebBeat.objects.aggregate(
        last=Max(Coalesce("stopped_at", "beat_at")),
        alive=Count("pk", filter=Q(stopped_at__isnull=True, beat_at__gte=window)),
    )
    if found["last"] is None:
        return True, None
    return found["alive"] > 0, found["last"]


def _outage_over(beat: ClockBeat, now: datetime, serving: bool) -> tuple[datetime | None, str]:
    """The start of the outage this beat ends (``None``: none) and its cause. A gap between
    sweeps counts from when the next sweep was due; a span without web processes ends when
    one is alive again."""
    starts = []
    if beat.beat_at is not None:
        gap = (now - beat.beat_at).total_seconds()
        if gap > settings.CLOCK_OUTAGE_SECONDS:
            starts.append((beat.beat_at + timedelta(seconds=settings.SWEEP_SECONDS), "sweep"))
    if serving and beat.web_down_since is not None:
        starts.append((beat.web_down_since, "web"))
    if not starts:
        return None, ""
    start, cause = min(starts)
    if beat.given_until is not None:
        start = max(start, beat.given_until)  # never give the same time twice
    return (start, cause) if start < now else (None, "")


def _given(beat: ClockBeat, now: datetime, start: datetime | None) -> datetime:
    """Up to when the clocks have been given back after this beat."""
    if start is not None:
        return now
    return beat.given_until or datetime.min.replace(tzinfo=now.tzinfo)


def _give_back(start: datetime, end: datetime, cause: str) -> ClockOutage:
    """Shift each running game's turn start and deadline forward by the part of
    ``start..end`` in its current turn (a turn that began during the outage starts afresh at
    ``end``), and record the outage. Pushes the new clocks after commit."""
    lost = Value(end, output_field=DateTimeField()) - Greatest(
        F("turn_started_at"), Value(start, output_field=DateTimeField())
    )
    running = Game.objects.filter(
        table__status=Table.Status.PLAYING,
        deadline__isnull=False,
        turn_started_at__isnull=False,
        turn_started_at__lt=end,
    )
    ids = list(running.values_list("pk", flat=True))
    # revision: a move read before the shift is made again from the shifted clock
    # (games.storage.store_move), not written over it.
    shifted = Game.objects.filter(pk__in=ids).update(
        turn_started_at=F("turn_started_at") + lost,
        deadline=F("deadline") + lost,
        revision=F("revision") + 1,
    )
    outage = ClockOutage.objects.create(
        started_at=start,
        ended_at=end,
        seconds=(end - start).total_seconds(),
        cause=cause,
        games=shifted,
    )
    log.warning("outage (%s) of %.1fs: %d running game(s) got the time back",
                cause, outage.seconds, shifted)  # fmt: skip
    transaction.on_commit(lambda: _push_clocks(ids), robust=True)
    return outage


def _push_clocks(game_ids: list[int]) -> None:
    """Best effort: tell every socket at the shifted tables the new clock (a ``clock`` frame of
    the version they have; a client that missed it gets it with its next view)."""
    games = Game.objects.filter(pk__in=game_ids).select_related("table")
    messages = []
    for game in games.prefetch_related("table__seats"):
        summary = clocks.clock_summary(game.table, game, game.table.seats.all())
        frame = {"type": "clock", "version": game.version, "clock": summary}
        messages.append((broadcast.table_group(game.table_id), {"type": "frame", "frame": frame}))
    for i in range(0, len(messages), 200):
        broadcast.send_all(messages[i : i + 200])
