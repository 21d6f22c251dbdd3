"""The standings snapshot's use cases: rebuild it after a change, and read the current one.

Every change a page shows bumps ``Tournament.version`` in its own transaction
(``services.tournaments.announce``) and, after commit, queues ``snapshot_rebuild``. A full
rebuild, not an incremental update: one result moves the Buchholz of everyone who ever met
its players (and so their ranks), the pure ``ladder.standings`` recomputes all of it from
the seats, and a rebuild after several results costs the same as after one, so rebuilds
coalesce during a busy round.

Never stale: a reader compares the version of the tournament row it read with the stored
snapshot's; an older snapshot is rebuilt (one builder at a time per tournament, the others
wait for it), and a snapshot is only ever replaced by one of a higher version (compare-and-
set under the snapshot row's lock), so two concurrent rebuilds never store the older one.
"""

import contextlib
import logging
import time

from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from redis.exceptions import RedisError

from ladder import tournament_snapshots as snapshots
from ladder.models import Tournament, TournamentSnapshot
from ttr_site.jobs import enqueue

log = logging.getLogger(__name__)

WAIT_SECONDS = 10.0  # how long a reader waits for another process's rebuild before its own
POLL_SECONDS = 0.05
LOCK_SECONDS = 60  # a builder that died frees the lock after this
CACHE_ERRORS = (RedisError, OSError)


def snapshot_current(tournament: Tournament) -> snapshots.View:
    """The snapshot of ``tournament`` at its version or newer (rebuilt first if older)."""
    version = tournament.version
    view = snapshots.remembered(tournament)
    if view is not None:
        return view
    view = _stored(tournament.pk, version)
    if view is not None:
        return view
    return _rebuild_or_wait(tournament.pk, version)


def snapshot_rebuild(*, tournament_id: int) -> snapshots.View | None:
    """Build the tournament's snapshot now and store it unless a newer one is stored; after
    commit, the live standings hear of the change. None if the tournament is gone."""
    started = time.perf_counter()
    payload = _build(tournament_id)
    if payload is None:
        return None
    view = snapshots.load(payload)
    _store(tournament_id, payload, view, round((time.perf_counter() - started) * 1000))
    return snapshots.remember(tournament_id, view)


def snapshot_refresh(*, tournament_id: int) -> None:
    """The task after a change: rebuild unless a snapshot as new as the tournament is stored
    (a later task, or a reader, got there first)."""
    version = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    if version is None:
        return
    stored = TournamentSnapshot.objects.filter(tournament_id=tournament_id)
    if stored.filter(version__gte=version).exists():
        return
    _rebuild_or_wait(tournament_id, version)


def snapshot_refresh_stale() -> int:
    """Queue the rebuild of every snapshot older than its tournament (``tasks.tournaments_tick``):
    a rebuild task that was lost (a broker outage) would leave the pages on the old standings
    until the next change, and open pages hear of a change only from its rebuild
    (``live_standings``). A rebuild queued twice does nothing the second time."""
    stale = Tournament.objects.exclude(status=Tournament.Status.CANCELLED).exclude(
        snapshot__version__gte=F("version")
    )
    ids = list(stale.values_list("id", flat=True))
    for tournament_id in ids:
        enqueue("ladder.tasks.tournament_snapshot", tournament_id)
    return len(ids)


def _rebuild_or_wait(tournament_id: int, version: int) -> snapshots.View:
    """One builder per tournament: the others poll for its snapshot, and build their own if
    it takes longer than ``WAIT_SECONDS`` (a builder that died)."""
    key = f"tournament-snapshot-build:{tournament_id}"
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        if _claim(key):
            try:
                return snapshot_rebuild(tournament_id=tournament_id) or _missing()
            finally:
                _release(key)
        time.sleep(POLL_SECONDS)
        view = _stored(tournament_id, version)
        if view is not None:
            return view
        if time.monotonic() > deadline:
            return snapshot_rebuild(tournament_id=tournament_id) or _missing()


def _claim(key: str) -> bool:
    """The build lock; without the cache (Redis down) everyone builds: slower, still right."""
    try:
        return cache.add(key, 1, timeout=LOCK_SECONDS)
    except CACHE_ERRORS as exc:
        log.warning("snapshot build lock unavailable: %r", exc)
        return True


def _release(key: str) -> None:
    with contextlib.suppress(*CACHE_ERRORS):
        cache.delete(key)


def _missing():
    raise Tournament.DoesNotExist


def _stored(tournament_id: int, version: int) -> snapshots.View | None:
    """The stored snapshot if it is at least ``version`` (and of the current format)."""
    stored = TournamentSnapshot.objects.filter(tournament_id=tournament_id, version__gte=version)
    data = stored.values_list("data", flat=True).first()
    if data is None:
        return None
    payload = snapshots.loads(data)
    if payload.get("format") != snapshots.FORMAT:
        return None
    return snapshots.remember(tournament_id, snapshots.load(payload))


def _build(tournament_id: int) -> dict | None:
    """The payload from one consistent moment: on PostgreSQL a REPEATABLE READ transaction
    (every query sees the same commits, and the version read first labels them)."""
    outer = connection.in_atomic_block
    with transaction.atomic():
        # SET TRANSACTION must come first in a transaction; inside an outer one (a test, a
        # service) that one's view of the rows is what there is to read.
        if connection.vendor == "postgresql" and not outer:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        t = Tournament.objects.filter(pk=tournament_id).first()
        return snapshots.build(t) if t is not None else None


def _store(tournament_id: int, payload: dict, view: snapshots.View, ms: int) -> bool:
    """Store the snapshot if it is newer than the stored one (compare-and-set under the
    snapshot row's lock); after commit, publish the standings' change."""
    after = snapshots.live_rows(view)
    fields = {
        "version": view.version,
        "data": snapshots.dumps(payload),
        "rows": snapshots.dumps(after),
        "built_at": timezone.now(),
        "build_ms": ms,
    }
    with transaction.atomic():
        old = TournamentSnapshot.objects.select_for_update().filter(tournament_id=tournament_id)
        old = old.only("version", "rows").first()
        if old is not None and old.version >= view.version:
            return False
        before = snapshots.loads(old.rows) if old is not None else []
        if old is None:
            try:
                with transaction.atomic():
                    TournamentSnapshot.objects.create(tournament_id=tournament_id, **fields)
            except IntegrityError:  # another builder stored the first one meanwhile
                return _store(tournament_id, payload, view, ms)
        else:
            TournamentSnapshot.objects.filter(tournament_id=tournament_id).update(**fields)
        transaction.on_commit(lambda: _publish(tournament_id, view.version, before, after))
    return True


def _publish(tournament_id: int, version: int, before: list, after: list) -> None:
    try:
        from ladder import live_standings
    except ImportError:  # the live standings are not installed (yet)
        return
    live_standings.publish(tournament_id=tournament_id, version=version, before=before,
                           after=after)  # fmt: skip
