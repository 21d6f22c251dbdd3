"""Rounds of a tournament: pairing, starting the tables, results, and the end.

``tournament_advance`` is the one step function: it does whatever is due now (start the
tournament, start a paired round, close a round whose tables are all done and pair the next,
finish after the last) and nothing twice, because it runs under the tournament lock and
reads what has been done from the rows. The beat tick, a finished game and the organizer's
actions all end by calling it.

Places at a table: the engine's ranks with abandoned seats last (as for ratings,
``ladder.rating.effective_places``); a table the organizer ends ranks by the public score
at that moment, equal scores sharing a place. Places become tournament points by the
tournament's scheme (``ladder.standings.placement_points``).
"""

import contextlib
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import services as games
from games.errors import GameError
from games.models import Seat
from ladder import broadcast, pairing, rating, standings
from ladder.errors import LadderError
from ladder.models import Entry, Pairing, PairingSeat, Round, Tournament
from ladder.services import tournament_arena as arena
from ladder.services import tournament_knockout as knockout
from ladder.services.tournament_entries import seeding_rating
from ladder.services.tournaments import (
    announce,
    locked_tournament,
    notify_entrants,
    organized_tournament,
)
from ttr_site.jobs import enqueue

Status = Tournament.Status
MAX_STEPS = 8  # start, close a round, pair, start the next... never more in one call


def tournament_advance(*, tournament_id: int, now=None) -> bool:
    """Do what is due now; returns whether anything happened. Safe to call any time."""
    now = now or timezone.now()
    with transaction.atomic():
        return _run_due(locked_tournament(tournament_id), now)


def tournament_start_now(*, tournament_id: int, by) -> Tournament:
    """The organizer starts the tournament before its planned time."""
    now = timezone.now()
    with transaction.atomic():
        tournament = organized_tournament(tournament_id, by)
        if tournament.status != Status.REGISTRATION:
            raise LadderError("tournament_started")
        _start(tournament, now)
        _run_due(tournament, now)
        announce(tournament)
    return tournament


def _run_due(t: Tournament, now) -> bool:
    """Take every step that is due (caller holds the lock); whether any was taken."""
    done = False
    for _step in range(MAX_STEPS):
        if not _step_once(t, now):
            break
        done = True
    if done:
        announce(t)
    return done


def _step_once(t: Tournament, now) -> bool:
    if t.status == Status.REGISTRATION:
        return _registration_step(t, now)
    if t.status != Status.RUNNING:
        return False
    if t.format == Tournament.Format.ARENA:
        return arena.step(t, now)
    current = t.rounds.order_by("-number").first()
    if current is None:
        return False
    if current.status == Round.Status.PLAYING and _all_done(current):
        _close_round(t, current, now)
        return True
    if current.status == Round.Status.PAIRED and current.starts_at <= now and not t.paused:
        _start_round(t, current, now)
        return True
    return False


def _registration_step(t: Tournament, now) -> bool:
    if t.paused:
        return False
    if t.starts_at <= now:
        _start(t, now)
        return True
    if t.checkin_open(now) and not t.checkin_announced:
        t.checkin_announced = True
        t.save(update_fields=["checkin_announced"])
        text = gettext_lazy("Check-in for {name} is open: check in before it starts.")
        notify_entrants(t, text, params={"name": t.name})
        return True
    return False


def _start(t: Tournament, now) -> None:
    """Drop no-shows, take fresh seeding ratings, pair round 1 and start it."""
    if t.checkin_minutes:
        no_shows = list(t.entries.filter(status=Entry.Status.ACTIVE, checked_in_at__isnull=True))
        Entry.objects.filter(pk__in=[e.pk for e in no_shows]).update(status=Entry.Status.NO_SHOW)
        text = gettext_lazy("You did not check in, so you are not playing in {name}.")
        notify_entrants(t, text, entries=no_shows, params={"name": t.name})
    active = list(t.entries.filter(status=Entry.Status.ACTIVE).select_related("user"))
    if len(active) < _fewest_to_start(t):
        t.status, t.finished_at = Status.CANCELLED, now
        t.save(update_fields=["status", "finished_at"])
        text = gettext_lazy("{name} was cancelled: too few players checked in.")
        notify_entrants(t, text, entries=active, params={"name": t.name})
        return
    for entry in active:
        if entry.user_id is not None:
            entry.rating = seeding_rating(t, entry.user)
            entry.save(update_fields=["rating"])
    t.status, t.started_at = Status.RUNNING, now
    t.save(update_fields=["status", "started_at"])
    if t.format == Tournament.Format.ARENA:
        arena.begin(t, now)
    else:
        _pair(t, 1, starts_at=now)


def _fewest_to_start(t: Tournament) -> int:
    """A Swiss needs one table; a knockout two players (its final may be smaller than its
    tables); an arena one, as players may join it while it runs."""
    if t.format == Tournament.Format.KNOCKOUT:
        return 2
    if t.format == Tournament.Format.ARENA:
        return 1
    return t.min_table


# --- pairing ----------------------------------------------------------------------------------


def _in_play(t: Tournament):
    """The entrants a new round is paired for: active, and (knockout) not knocked out."""
    return t.entries.filter(status=Entry.Status.ACTIVE, eliminated_in__isnull=True)


def _pair(t: Tournament, number: int, *, starts_at) -> Round:
    """Pair round ``number`` for the active entrants from the current standings."""
    active = {e.pk: e for e in _in_play(t)}
    round_ = Round.objects.create(
        tournament=t, number=number, starts_at=starts_at, roster=sorted(active)
    )
    _seat_round(t, round_, active)
    return round_


def _seat_round(t: Tournament, round_: Round, active: dict) -> None:
    if t.format == Tournament.Format.KNOCKOUT:
        knockout.seat_round(t, round_, active)
        return
    # docs/tournaments.md "Pairing": the points keep the tables close and seat 0 fair, the
    # ratings deal players on equal points apart (in round 1, everyone).
    rows = t.standings() if round_.number > 1 else []
    points = {row.player: row.points for row in rows}
    result = pairing.pair_round(
        _order(t, rows, active),
        size=t.table_size,
        allow_smaller=t.allow_smaller,
        history=t.history(),
        seed=t.seed + round_.number,
        points={pk: points.get(pk, 0.0) for pk in active},
        ratings={pk: e.rating for pk, e in active.items()},
    )
    seats = []
    for number, players in enumerate(result.tables, 1):
        table = Pairing.objects.create(round=round_, number=number)
        seats += [PairingSeat(pairing=table, entry_id=e, seat=i) for i, e in enumerate(players)]
    first_bye = len(result.tables) + 1
    for number, entry_id in enumerate(result.byes, first_bye):
        bye = Pairing.objects.create(
            round=round_, number=number, is_bye=True, status=Pairing.Status.BYE
        )
        seats.append(
            PairingSeat(
                pairing=bye,
                entry_id=entry_id,
                seat=0,
                place=1,
                score=0,
                points=standings.BYE_POINTS,
            )  # fmt: skip
        )
    PairingSeat.objects.bulk_create(seats)


def _order(t: Tournament, rows, active: dict) -> list[int]:
    """The active entrants best first: round 1 (no ``rows``) by rating, later rounds by the
    standings ``rows``."""
    if not rows:
        key = lambda e: (-e.rating, -standings.coin(t.seed, e.pk))  # noqa: E731
        return [e.pk for e in sorted(active.values(), key=key)]
    return [row.player for row in rows if row.player in active]


def round_repair(*, tournament_id: int, by, number: int) -> Round:
    """The organizer pairs a round again before it starts (from the current standings)."""
    with transaction.atomic():
        tournament = organized_tournament(tournament_id, by)
        round_ = tournament.rounds.filter(number=number).first()
        if round_ is None or round_.status != Round.Status.PAIRED:
            raise LadderError("round_started")
        _repair(tournament, round_)
        announce(tournament)
    return round_


def _repair(t: Tournament, round_: Round) -> None:
    round_.pairings.all().delete()
    active = {e.pk: e for e in _in_play(t)}
    round_.roster = sorted(active)
    round_.save(update_fields=["roster"])
    _seat_round(t, round_, active)


# --- playing a round --------------------------------------------------------------------------


def _start_round(t: Tournament, round_: Round, now) -> None:
    """Open a live table for every pairing of the round and tell the players."""
    active = sorted(_in_play(t).values_list("pk", flat=True))
    if active != round_.roster:
        _repair(t, round_)  # someone withdrew, joined late or was removed since the pairing
    for table in round_.pairings.filter(is_bye=False).prefetch_related("seats__entry__user"):
        _open_table(t, table)
    round_.status, round_.started_at = Round.Status.PLAYING, now
    round_.save(update_fields=["status", "started_at"])
    _notify_round(t, round_)


def _open_table(t: Tournament, table: Pairing) -> None:
    seats = sorted(table.seats.all(), key=lambda s: s.seat)
    players = [s.entry.user if s.entry.user_id else s.entry.bot_level for s in seats]
    live = games.table_open_full(
        players=players,
        ruleset=t.ruleset,
        variant=t.variant,
        options=t.options,
        time_control=t.time_control,
        move_seconds=t.move_seconds,
        bank_seconds=t.bank_seconds,
        turn_hours=t.turn_hours,
        rated=t.rated,
        # Always the tournament's league (rated or not): its tables are as visible as the
        # league (Table.visible_to); only a rated table's result reaches the ladder.
        league=t.league,
    )
    table.table, table.status = live, Pairing.Status.PLAYING
    table.save(update_fields=["table", "status"])
    _call_players(table)


def _call_players(table: Pairing) -> None:
    """After commit, the players' open pages go to their table: its clock is running."""
    ids = [s.entry.user_id for s in table.seats.all() if s.entry.user_id]
    live_id, url = table.table.pk, table.table.get_absolute_url()
    transaction.on_commit(
        lambda: broadcast.table_started(
            user_ids=ids, table_id=live_id, url=url, source="tournament"
        )
    )


def _notify_round(t: Tournament, round_: Round) -> None:
    from ttr_site.accounts.services import notification_send

    seats = PairingSeat.objects.filter(pairing__round=round_, entry__user__isnull=False)
    for seat in seats.select_related("entry__user", "pairing__table"):
        table = seat.pairing
        if table.is_bye:
            text = gettext_lazy("Round {round} of {name}: you have a bye ({points} points).")
            params = {"round": round_.number, "name": t.name, "points": int(standings.BYE_POINTS)}
            url = t.get_absolute_url()
        else:
            text = gettext_lazy("Round {round} of {name} has started: you play at table {table}.")
            params = {"round": round_.number, "name": t.name, "table": table.number}
            url = table.table.get_absolute_url()
        notification_send(user=seat.entry.user, text=text, params=params, url=url)


def _all_done(round_: Round) -> bool:
    return not round_.pairings.exclude(status__in=Pairing.DONE).exists()


def _close_round(t: Tournament, round_: Round, now) -> None:
    round_.status, round_.finished_at = Round.Status.FINISHED, now
    round_.save(update_fields=["status", "finished_at"])
    if t.format == Tournament.Format.KNOCKOUT:
        more = knockout.eliminate(t, round_)  # who went out; whether another round follows
    else:
        more = round_.number < t.round_count
    if more:
        starts = now + timedelta(seconds=t.round_break_seconds)
        _pair(t, round_.number + 1, starts_at=starts)
    else:
        _finish(t, now)


def _finish(t: Tournament, now) -> None:
    """Publish the final standings; a rated tournament's games then go to its ladder."""
    t.status, t.finished_at = Status.FINISHED, now
    t.save(update_fields=["status", "finished_at"])
    rows = t.standings()
    entries = {e.pk: e for e in t.entries.select_related("user")}
    for row in rows:
        entry = entries[row.player]
        if entry.user_id is not None and entry.status != Entry.Status.NO_SHOW:
            text = gettext_lazy("{name} is over: you finished {place} of {count}.")
            params = {"name": t.name, "place": row.rank, "count": len(rows)}
            notify_entrants(t, text, entries=[entry], params=params)
    if t.rated:
        tournament_id = t.pk
        transaction.on_commit(lambda: _rate_later(tournament_id))


def _rate_later(tournament_id: int) -> None:
    enqueue("ladder.tasks.tournament_rate", tournament_id)


# --- results ----------------------------------------------------------------------------------


def tournament_game_finished(*, table_id: int, result: dict, abandoned=()) -> bool:
    """Record a tournament table's final result (engine ``final_result``), then advance.

    Ignored when the organizer has already set the table's result. Returns whether it was
    recorded.
    """
    tournament_id = (
        Pairing.objects.filter(table_id=table_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        return False
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        table = Pairing.objects.get(table_id=table_id)
        if table.status != Pairing.Status.PLAYING:
            return False
        by_seat = {p["seat"]: p for p in result["players"]}
        flags = {s: s in set(abandoned) for s in by_seat}
        ranks = {s: p["rank"] for s, p in by_seat.items()}
        scores = {s: p["score"] for s, p in by_seat.items()}
        _record(tournament, table, ranks, scores, flags, Pairing.Status.FINISHED)
    tournament_advance(tournament_id=tournament_id)
    return True


def _record(t: Tournament, table: Pairing, ranks, scores, flags, status) -> None:
    """Store places (abandoned seats last), scores and points of every seat at ``table``."""
    seats = sorted(table.seats.all(), key=lambda s: s.seat)
    places = rating.effective_places([ranks[s.seat] for s in seats], [flags[s.seat] for s in seats])
    points = standings.placement_points(places, t.points_scheme)
    for seat, place, value in zip(seats, places, points, strict=True):
        seat.place, seat.points = place, value
        seat.score, seat.abandoned = scores[seat.seat], flags[seat.seat]
    if t.format == Tournament.Format.ARENA:
        arena.table_done(t, table, seats)  # streak bonus; the players are free again
    PairingSeat.objects.bulk_update(seats, ["place", "points", "score", "abandoned", "doubled"])
    table.status = status
    table.save(update_fields=["status"])
    announce(t)


def pairing_set_result(*, pairing_id: int, by, places: dict, scores: dict | None = None):
    """The organizer sets or corrects a table's result: ``places`` (and optionally
    ``scores``) by entry id. A table still in play is ended first."""
    with transaction.atomic():
        t, table = _organized_pairing(pairing_id, by)
        if t.format == Tournament.Format.KNOCKOUT and table.round.status == Round.Status.FINISHED:
            detail = _("that knockout round is over: who went through is settled")
            raise LadderError("invalid_result", detail=detail)
        seats = list(table.seats.all())
        ranks = _checked_places(seats, places)
        scores = _checked_scores(seats, scores)
        if table.status == Pairing.Status.PLAYING:
            # If the game ended by itself a moment ago, the organizer's result stands.
            with contextlib.suppress(GameError):
                games.table_end_early(table_id=table.table_id)
        flags = {s.seat: False for s in seats}  # the organizer's places are final as given
        _record(t, table, ranks, scores, flags, Pairing.Status.SET)
    tournament_advance(tournament_id=t.pk)
    return table


def pairing_end(*, pairing_id: int, by) -> Pairing:
    """The organizer ends a stuck table: places by the public score now (abandoned seats
    last, equal scores share a place)."""
    with transaction.atomic():
        t, table = _organized_pairing(pairing_id, by)
        if table.status != Pairing.Status.PLAYING:
            raise LadderError("table_not_playing")
        try:
            scores = games.table_end_early(table_id=table.table_id)
        except GameError:
            raise LadderError("table_not_playing") from None
        ranks = {s: 1 + sum(1 for v in scores.values() if v > mine) for s, mine in scores.items()}
        abandoned = set(
            Seat.objects.filter(table_id=table.table_id, abandoned=True).values_list(
                "position", flat=True
            )
        )
        flags = {s: s in abandoned for s in scores}
        _record(t, table, ranks, scores, flags, Pairing.Status.ENDED)
    tournament_advance(tournament_id=t.pk)
    return table


def _organized_pairing(pairing_id: int, by) -> tuple[Tournament, Pairing]:
    tournament_id = (
        Pairing.objects.filter(pk=pairing_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise LadderError("pairing_not_found")
    t = organized_tournament(tournament_id, by)
    if t.status != Status.RUNNING:
        raise LadderError("tournament_not_running")
    table = Pairing.objects.select_related("round").get(pk=pairing_id)
    if table.is_bye or table.status == Pairing.Status.WAITING:
        raise LadderError("table_not_playing")
    return t, table


def _checked_places(seats, places: dict) -> dict[int, int]:
    """Seat -> place from entry id -> place; places must be a ranking (1, 1, 3, 4...)."""
    try:
        by_entry = {int(k): int(v) for k, v in places.items()}
    except (TypeError, ValueError, AttributeError):
        raise LadderError("invalid_result", detail=_("places must be whole numbers")) from None
    if set(by_entry) != {s.entry_id for s in seats}:
        raise LadderError("invalid_result", detail=_("give a place for every player"))
    ordered = sorted(by_entry.values())
    if any(p != i + 1 and p != ordered[i - 1] for i, p in enumerate(ordered)) or ordered[0] != 1:
        raise LadderError(
            "invalid_result", detail=_("places run 1, 2, 3...; equal places share a rank")
        )
    return {s.seat: by_entry[s.entry_id] for s in seats}


def _checked_scores(seats, scores: dict | None) -> dict[int, int]:
    known = {s.entry_id: s.score or 0 for s in seats}
    try:
        given = {int(k): int(v) for k, v in (scores or {}).items()}
    except (TypeError, ValueError, AttributeError):
        raise LadderError("invalid_result", detail=_("scores must be whole numbers")) from None
    if not set(given) <= set(known) or any(abs(v) > 10_000 for v in given.values()):
        raise LadderError("invalid_result", detail=_("scores belong to the table's players"))
    return {s.seat: given.get(s.entry_id, known[s.entry_id]) for s in seats}


def tournament_rate(*, tournament_id: int) -> int:
    """Send a finished rated tournament's games to its league's ladder, in playing order
    (idempotent: a table is recorded once). Returns how many games were recorded."""
    from ladder.services.results import match_record

    tables = Pairing.objects.filter(
        round__tournament_id=tournament_id,
        round__tournament__status=Status.FINISHED,
        round__tournament__rated=True,
        table__isnull=False,
        table__ladder_match__isnull=True,  # recorded once: a second run finds nothing to do
    ).exclude(status=Pairing.Status.BYE)
    recorded = 0
    for table in tables.order_by("round__number", "number").prefetch_related("seats"):
        seats = sorted(table.seats.all(), key=lambda s: s.seat)
        if any(s.place is None for s in seats):
            continue
        result = {
            "reason": "tournament",
            "players": [{"seat": s.seat, "rank": s.place, "score": s.score or 0} for s in seats],
        }
        abandoned = [s.seat for s in seats if s.abandoned]
        recorded += (
            match_record(table_id=table.table_id, result=result, abandoned=abandoned) is not None
        )
    return recorded
