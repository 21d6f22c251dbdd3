"""Live standings: each change of a tournament's standings reaches its open pages as one small
diff (``ladder.standings_diff``) over the tournament's socket group, and a page that missed one
reloads the whole table once from a cached JSON read (``standings_json``).

The *model* is the last published standings of a tournament, stored in the cache as the JSON
text the reload endpoint serves as is: ``{"v": version, "key": id field, "rank": place field,
"stage": ..., "fields": [...], "rows": [[...], ...]}`` (columns, not dicts: a third of the
size at 2,000 players). A *standings frame* is ``{"type": "standings", "v": version, "from":
the version it follows, "stage": ..., ...diff}``; ``from`` is null when the server cannot
vouch for the version before (the model was lost), and the page reloads. The *stage*
(``stage_of``) tells a page on the standings tab when the rest of the tab (header, current
round) is worth fetching again: when a round starts or ends, not on every result.
"""

import json
import logging
import secrets
import time
from contextlib import contextmanager

from django.core.cache import cache
from django.http import Http404, HttpResponse
from redis.exceptions import RedisError

from games.broadcast import encode, send
from ladder import standings_diff
from ladder.broadcast import tournament_group

log = logging.getLogger(__name__)

MODEL_SECONDS = 7 * 24 * 3600  # a running tournament's model outlives any page left open
LOCK_SECONDS = 5
DIGITS = 3
ID_FIELDS = ("player", "player_id", "id", "entry")
RANK_FIELDS = ("place", "rank")


def publish(*, tournament_id: int, version: int, before: list[dict], after: list[dict]) -> None:
    """Push the change from ``before`` to ``after`` (snapshot ``version``) to open pages.

    Call only from ``transaction.on_commit``, after the snapshot of ``version`` is stored.
    The diff is taken from the model last published (what open pages hold), not ``before``,
    so that two publishes racing for one tournament still chain; an older ``version`` than
    the model's is dropped. Best effort, as every push.
    """
    key, rank = fields_of(after or before)
    after = compact(after)
    try:
        with _lock(tournament_id):
            _publish(tournament_id, version, before, after, key=key, rank=rank)
    except (RedisError, OSError) as exc:
        log.warning("standings of tournament %s at version %s not pushed: %r", tournament_id,
                    version, exc)  # fmt: skip


def _publish(tournament_id: int, version: int, before, after, *, key: str, rank) -> None:
    model = load_model(tournament_id)
    if model is not None and model["v"] is not None and model["v"] >= version:
        return
    if model is not None and model["key"] == key and model["rank"] == rank:
        base, follows = model_rows(model), model["v"]
    else:
        base, follows = compact(before), None
    try:
        change = standings_diff.diff(base, after, key=key, rank=rank)
    except ValueError:  # the rows' shape changed (a deployment): pages reload instead
        change, follows = {}, None
    stage = stage_of(tournament_id)
    store_model(tournament_id, version, after, key=key, rank=rank, stage=stage)
    # ``at``: when it left (epoch seconds), so that a lag can be split into the rebuild
    # before the publish and the fan-out after it (benchmarks/tournament_live.py).
    frame = {"type": "standings", "v": version, "from": follows, "stage": stage, **change}
    frame["at"] = round(time.time(), 3)
    send(tournament_group(tournament_id), {"type": "text.push", "text": encode(frame)})


def compact(rows: list[dict]) -> list[dict]:
    """Rows with floats cut to ``DIGITS`` decimals: the pages show two, and 6.666666666666667
    is most of a diff's bytes."""
    return [
        {f: round(v, DIGITS) if isinstance(v, float) else v for f, v in row.items()} for row in rows
    ]


def fields_of(rows: list[dict]) -> tuple[str, str | None]:
    """The id field and the place field of a standings row."""
    sample = rows[0] if rows else {"player": 0}
    key = next((f for f in ID_FIELDS if f in sample), None)
    if key is None:
        raise ValueError(f"a standings row needs one of {ID_FIELDS}: {sorted(sample)}")
    return key, next((f for f in RANK_FIELDS if f in sample), None)


def _cache_key(tournament_id: int) -> str:
    return f"live-standings:{tournament_id}"


def stage_of(tournament_id: int) -> str:
    """Where the tournament is (status, pause, current round and its status): a page on the
    standings tab fetches the rest of its fragment (header, current round) only when this
    changes, not on every result."""
    from ladder.models import Round, Tournament

    t = Tournament.objects.filter(pk=tournament_id).values("status", "paused").first() or {}
    rounds = Round.objects.filter(tournament_id=tournament_id).order_by("-number")
    current = rounds.values("number", "status").first() or {}
    return ":".join(str(v) for v in (*t.values(), *current.values()))


def encode_model(version, rows: list[dict], *, key: str, rank, stage: str = "") -> str:
    names: list[str] = [key]
    for row in rows:
        names += [f for f in row if f not in names]
    columns = [[row.get(f) for f in names] for row in rows]
    model = {"v": version, "key": key, "rank": rank, "stage": stage}
    return encode(model | {"fields": names, "rows": columns})


def model_rows(model: dict) -> list[dict]:
    names = model["fields"]
    return [dict(zip(names, values, strict=True)) for values in model["rows"]]


def store_model(tournament_id: int, version, rows: list[dict], *, key: str, rank, stage) -> str:
    text = encode_model(version, rows, key=key, rank=rank, stage=stage)
    cache.set(_cache_key(tournament_id), text, MODEL_SECONDS)
    return text


def load_model(tournament_id: int) -> dict | None:
    text = cache.get(_cache_key(tournament_id))
    return None if text is None else json.loads(text)


@contextmanager
def _lock(tournament_id: int):
    """One publish per tournament at a time, so frames leave in version order; after
    ``LOCK_SECONDS`` a holder that died is ignored (its frame may then arrive late: pages
    see the gap and reload)."""
    name = f"live-standings-lock:{tournament_id}"
    token = secrets.token_hex(8)
    deadline = time.monotonic() + LOCK_SECONDS
    held = cache.add(name, token, LOCK_SECONDS)
    while not held and time.monotonic() < deadline:
        time.sleep(0.005)
        held = cache.add(name, token, LOCK_SECONDS)
    try:
        yield
    finally:
        # Only the holder frees it: after a timed-out wait the lock is another publish's.
        if held and cache.get(name) == token:
            cache.delete(name)


# --- the reload endpoint -------------------------------------------------------------------


def current_rows(tournament) -> tuple[int, list[dict]]:
    """The tournament's standings rows now and their version, when no model is cached."""
    from ladder import services
    from ladder import tournament_snapshots as snapshots

    view = services.snapshot_current(tournament)
    return view.version, compact(snapshots.live_rows(view))


def standings_json(request, slug):
    """The tournament's live standings model (JSON), for a page that missed a diff."""
    from ladder.models import Tournament

    tournament = Tournament.objects.visible_to(request.user).filter(slug=slug).first()
    if tournament is None:
        raise Http404
    text = cache.get(_cache_key(tournament.pk))
    if text is None:
        version, rows = current_rows(tournament)
        key, rank = fields_of(rows)
        text = encode_model(version, rows, key=key, rank=rank, stage=stage_of(tournament.pk))
        cache.add(_cache_key(tournament.pk), text, MODEL_SECONDS)  # a publish may be first
    response = HttpResponse(text, content_type="application/json")
    response["Cache-Control"] = "private, no-cache"
    return response
