"""Post-game analysis use cases (issue 26): ask for a finished game's analysis, run it in the
background, read it, and a player's accuracy over their recent analysed games.

An analysis is made once per game and served to everyone who may see the replay
(``Table.replay_visible_to``, the replay's own check). Asking again while one is queued,
running or done returns that one; a failed one, or one whose job was lost (unfinished
after ``STALE_RUN``), is queued again. New analyses are rate
limited per user (``ANALYSIS_RATE_LIMIT`` per ``ANALYSIS_RATE_WINDOW`` seconds). The job
(``tasks.analyse_game``) claims the row with a compare-and-set, so a duplicate or late
delivery does nothing; a run whose worker died is taken over after ``STALE_RUN``.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import engine
from games.engine.bots import grading
from games.errors import GameError
from games.models import Game, GameAnalysis, Table
from games.storage import game_state
from ttr_site import jobs
from ttr_site.ratelimit import rate_limit_hit

log = logging.getLogger(__name__)
STALE_RUN = timedelta(minutes=30)
PROGRESS_STEP = 0.02  # the row's progress is written when it has moved this much
RECENT_GAMES = 20  # the profile's accuracy: over this many recent analysed games


def replay_game(*, table_id: int, user) -> Game:
    """The finished game at ``table_id`` if ``user`` may see its replay, else ``not_found``."""
    table = Table.objects.prefetch_related("seats__user").filter(pk=table_id).first()
    if table is None or not table.replay_visible_to(user):
        raise GameError("not_found")
    game = Game.objects.filter(table=table).select_related("table").first()
    if game is None:
        raise GameError("not_found")
    return game


def analysis_get(*, table_id: int, user) -> GameAnalysis | None:
    """The game's analysis (any status), or None if nobody asked for one yet."""
    game = replay_game(table_id=table_id, user=user)
    return GameAnalysis.objects.filter(game=game).first()


def analysis_request(*, table_id: int, user) -> tuple[GameAnalysis, bool]:
    """The game's analysis, queued now if there is none (or it failed): ``(analysis,
    created)``. Only a new job counts against the caller's rate limit."""
    if not getattr(user, "is_authenticated", False):
        raise GameError("login_required")
    game = replay_game(table_id=table_id, user=user)
    existing = GameAnalysis.objects.filter(game=game).first()
    if existing is not None and not _lost(existing):
        return existing, False
    if not rate_limit_hit(
        f"analysis:{user.pk}", settings.ANALYSIS_RATE_LIMIT, settings.ANALYSIS_RATE_WINDOW
    ):
        raise GameError("rate_limited")
    fields = {"status": GameAnalysis.Status.QUEUED, "progress": 0.0, "requested_by": user,
              "evaluator": settings.ANALYSIS_EVALUATOR, "budget": _budget_setting(),
              "result": None, "started": None, "finished": None}  # fmt: skip
    try:
        with transaction.atomic():
            if existing is not None:
                updated = GameAnalysis.objects.filter(
                    pk=existing.pk, status=existing.status, created=existing.created
                ).update(**fields, created=timezone.now())
                analysis = GameAnalysis.objects.get(pk=existing.pk)
                if not updated:
                    return analysis, False
            else:
                analysis = GameAnalysis.objects.create(game=game, **fields)
            transaction.on_commit(lambda: jobs.enqueue("games.tasks.analyse_game", analysis.pk))
    except IntegrityError:  # someone asked at the same moment: theirs is the one
        return GameAnalysis.objects.get(game=game), False
    return analysis, True


def _lost(analysis: GameAnalysis) -> bool:
    """Failed, or unfinished so long that its job must have been lost: to be queued again."""
    if analysis.status == GameAnalysis.Status.FAILED:
        return True
    since = analysis.started or analysis.created
    late = since < timezone.now() - STALE_RUN
    return analysis.status != GameAnalysis.Status.DONE and late


def _budget_setting() -> dict:
    cap = settings.ANALYSIS_MAX_PLAYOUTS
    return {"seconds": settings.ANALYSIS_SECONDS_PER_DECISION, "playouts": cap or None}


def analysis_run(*, analysis_id: int) -> bool:
    """Run a queued analysis to its end (the background job). False if it was not ours to
    run: done, failed, or running elsewhere."""
    now = timezone.now()
    claimable = GameAnalysis.objects.filter(pk=analysis_id).filter(
        status=GameAnalysis.Status.QUEUED
    ) | GameAnalysis.objects.filter(
        pk=analysis_id, status=GameAnalysis.Status.RUNNING, started__lt=now - STALE_RUN
    )
    if not claimable.update(status=GameAnalysis.Status.RUNNING, started=now, progress=0.0):
        return False
    analysis = GameAnalysis.objects.select_related("game__table").get(pk=analysis_id)
    try:
        result = _analyse(analysis)
    except Exception:
        log.exception("analysis %s of game %s failed", analysis.pk, analysis.game_id)
        _finish(analysis, GameAnalysis.Status.FAILED, None)
        return True
    _finish(analysis, GameAnalysis.Status.DONE, result)
    return True


def _finish(analysis: GameAnalysis, status: str, result) -> None:
    GameAnalysis.objects.filter(pk=analysis.pk, status=GameAnalysis.Status.RUNNING).update(
        status=status,
        result=result,
        progress=1.0 if result is not None else analysis.progress,
        finished=timezone.now(),
    )


def _analyse(analysis: GameAnalysis) -> dict:
    game = analysis.game
    events = list(game.events.filter(seq__gt=0).order_by("seq").values_list(
        "seat", "action", "user_id", "by_bot", "by_timeout"))  # fmt: skip
    records = [[seat, action] for seat, action, *_ in events]
    # graded: the steps a person decided (not a bot seat, a seat handed to a bot, a timeout)
    people = {(k, seat) for k, (seat, _a, user, bot, timeout) in enumerate(events, start=1)
              if user is not None and not bot and not timeout}  # fmt: skip
    edition = engine.rules_edition(game_state(game))
    params = game.table.game_params(game.seed) | {"edition": edition}
    budget = grading.Budget(**analysis.budget)
    marks = {"last": 0.0}

    def progress(done: int, total: int) -> None:
        share = done / max(1, total)
        if share - marks["last"] >= PROGRESS_STEP and done < total:
            marks["last"] = share
            GameAnalysis.objects.filter(pk=analysis.pk).update(progress=round(share, 3))

    evaluator = grading.EVALUATORS[analysis.evaluator]
    result = grading.analyse(params, records, people, evaluator=evaluator, budget=budget,
                             seed=game.seed & 0xFFFFFFFF, progress=progress)  # fmt: skip
    users = {s.position: s.user_id for s in game.table.seats.all()}
    for row in result["seats"]:
        row["user_id"] = users.get(row["seat"])
    return result


def analysis_payload(analysis: GameAnalysis | None) -> dict:
    """The analysis as the page and the API serve it (``status`` ``none`` if not asked)."""
    if analysis is None:
        return {"status": "none", "progress": 0.0, "result": None}
    return {
        "status": analysis.status,
        "progress": analysis.progress,
        "evaluator": analysis.evaluator,
        "budget": analysis.budget,
        "created": analysis.created.isoformat(),
        "finished": analysis.finished.isoformat() if analysis.finished else None,
        "result": _public_result(analysis.result),
    }


def _public_result(result: dict | None) -> dict | None:
    if result is None:
        return None
    seats = [{k: v for k, v in row.items() if k != "user_id"} for row in result["seats"]]
    return result | {"seats": seats}


def player_accuracy(*, player, viewer, limit: int = RECENT_GAMES) -> dict | None:
    """``player``'s average loss per graded decision over their ``limit`` most recent
    analysed games that ``viewer`` may see the replay of: ``{"games", "decisions",
    "average_loss", "mistakes", "inaccuracies"}``, or None without any."""
    tables = Table.objects.visible_to(viewer).filter(
        status=Table.Status.FINISHED, seats__user=player
    )
    analyses = (
        GameAnalysis.objects.filter(status=GameAnalysis.Status.DONE, game__table__in=tables)
        .order_by("-game__table__finished_at", "-pk")
        .values_list("result", flat=True)
    )
    rows = []
    for result in analyses:
        mine = [r for r in (result or {}).get("seats", []) if r.get("user_id") == player.pk]
        rows += mine
        if len(rows) >= limit:
            break
    decisions = sum(r["decisions"] for r in rows)
    if not decisions:
        return None
    loss = sum(r["average_loss"] * r["decisions"] for r in rows)
    return {
        "games": len(rows),
        "decisions": decisions,
        "average_loss": round(loss / decisions, 1),
        "mistakes": sum(r["mistakes"] for r in rows),
        "inaccuracies": sum(r["inaccuracies"] for r in rows),
    }
