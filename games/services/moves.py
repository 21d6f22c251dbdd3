"""Game use cases: moves, timeouts and seats handed to bots. The only code that changes a game.

Every change has one writer per table: it checks the version the caller saw, lets the engine
decide, stores the state and, in an append-only event, the log entries the move made (the
stored state holds no log: ``engine.detach_log``), bumps the version and sets the next
deadline; after commit it pushes each audience its view and queues the bot's move. A
player's or a bot's move reads the game, its table and seats without a lock and is written
only if the game row is still as read (a compare-and-set on its version and ``revision``:
``storage.store_move``), else made again from a new read; the other changes (timeouts, seats
handed over or taken back, the end of a game) lock the row, and bump ``revision`` when they
change a running game without a move. Timeouts are data: the deadline on the game row,
resolved by ``tasks.sweep_deadlines`` (ARCHITECTURE.md, "One move, end to end" and example 9).
"""

import logging
from contextlib import nullcontext

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import broadcast, clocks, effects, engine
from games.engine.bots import choose_action
from games.errors import GameError
from games.models import BotLevel, Game, GameEvent, Seat, Table
from games.storage import (
    game_state,
    locked_game,
    log_entries,
    parsed_states,
    read_game,
    seats_of,
    store_move,
)
from ttr_site.accounts.services import notification_send

log = logging.getLogger(__name__)

# A move made from a read that the game row has since left behind is made again from a new
# read, up to this many reads (another move ends it at once: the caller's version is stale).
READS = 3


class _Overtaken(Exception):
    """The game row changed between the read a move was made from and its write."""


def game_submit_action(
    *, game_id: int, action, expected_version, user=None, bot_seat: int | None = None
) -> Game:
    """Apply one action for the user's seat (or a bot's seat) if based on the current version.

    Raises ``GameError`` (stale version, not seated, not running) or the engine's
    ``IllegalAction``; either way nothing changes.
    """
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise GameError("malformed_message", detail="'version' must be a whole number")
    if not isinstance(action, dict):
        raise GameError("malformed_message", detail="'action' must be an object")
    for _read in range(READS):
        game, seats = read_game(game_id)
        if game.table.status != Table.Status.PLAYING:
            raise GameError("game_not_running")
        if expected_version != game.version:
            raise GameError("stale_version")
        seat = _acting_seat(seats, user, bot_seat)
        state = parsed_states.take(game)
        if _flagged(game, seat, state):
            # The sweep resolves the timeout within a second; a move sent in that second is
            # too late, as it would be had the sweep already run.
            raise GameError("time_up")
        try:
            _apply(game, seats, seat, state, action, user=user, unchanged=_as_read(game))
        except _Overtaken:
            continue  # read again: a move since makes the version stale; a seat change is seen
        return game
    raise GameError("stale_version")


def game_sweep_deadlines(*, limit: int = 500) -> int:
    """Resolve the games whose deadline has passed (each under its own lock, as a timeout);
    returns how many moved. One indexed query finds them (``tasks.sweep_deadlines``)."""
    overdue = Game.objects.filter(
        deadline__lte=timezone.now(), table__status=Table.Status.PLAYING
    ).values_list("id", "version")[:limit]
    handled = 0
    for game_id, version in overdue:
        try:
            handled += game_handle_timeout(game_id=game_id, expected_version=version)
        except Exception:
            log.exception("sweeping game %s failed", game_id)
    return handled


def _flagged(game: Game, seat: Seat, state) -> bool:
    """Whether the human ``seat`` is deciding now and past its deadline."""
    if seat.is_bot or game.turn_started_at is None:
        return False
    return seat.position in engine.current_seats(state) and _past_deadline(
        game, seat, timezone.now()
    )


def _past_deadline(game: Game, seat: Seat, now) -> bool:
    deadline = clocks.seat_deadline(game.table, game.turn_started_at, seat.bank_left, seat.is_bot)
    return deadline <= now


def game_bot_move(*, game_id: int, expected_version: int) -> bool:
    """Play one decision for the first bot seat that has one, if the game is still at
    ``expected_version``; return whether a move was made.

    The bot chooses from the game as read, without a lock: no player waits for a bot's
    thinking. The move is written only if the game is still as read; else the bot chooses
    again from a new read or, if a move was made since, leaves it to that version's task.
    When this process wrote the move before (the usual case: ``games.bot_turns``), the bot
    chooses from the game as written, without a read; its write then also checks the state
    text (``ParsedStates.take_written``). Under load that made a bot's move 13% cheaper in
    its thread (docs/benchmarks.md, stop 36).
    """
    written = parsed_states.take_written(game_id, expected_version)
    for _read in range(READS + (written is not None)):
        if written is not None:
            game, seats, state = written
            unchanged = (*_as_read(game), game.state)
            written = None  # whatever else comes of it, the next try reads the row
        else:
            try:
                game, seats = read_game(game_id)
            except GameError:
                return False
            unchanged = _as_read(game)
            state = None
        if game.version != expected_version or game.table.status != Table.Status.PLAYING:
            return False  # overtaken: a later version has its own bot task
        if state is None:
            state = parsed_states.take(game)
        seat = next((seats[p] for p in engine.current_seats(state) if seats[p].is_bot), None)
        legal = engine.legal_actions(state, seat.position) if seat is not None else []
        if not legal:
            if len(unchanged) == 3:
                continue  # no bot decides in the game as written here: ask the row
            return False
        view = _bot_view(game, state, seat)
        seed = game.seed ^ (expected_version * 1_000_003 + seat.position)
        action = choose_action(seat.bot_level, view, legal, seed=seed)
        try:
            _apply(game, seats, seat, state, action, unchanged=unchanged)
        except _Overtaken:
            continue
        return True
    return False


def game_handle_timeout(*, game_id: int, expected_version: int) -> bool:
    """Resolve the overdue decisions of a game, if it is still at ``expected_version``.

    The check of the version under the row lock makes duplicate and late runs do nothing (a
    timeout plays all the steps of a decision in one transaction). Each overdue human seat
    gets the medium bot's choice (a tunnel payment is declined: docs/rules.md 1.3.2 Decision)
    and one more timeout in a row; at ``TIMEOUTS_BEFORE_ABANDON`` the seat is handed to a
    bot. Overdue bots simply move.
    """
    now = timezone.now()
    if not Game.objects.filter(pk=game_id, version=expected_version).exists():
        # The usual case: the seat moved in time. Versions only grow, so the locked check
        # below could only say the same; no need to lock and read the whole state for it.
        return False
    with transaction.atomic():
        game, seats = locked_game(game_id)
        if (
            game.version != expected_version
            or game.table.status != Table.Status.PLAYING
            or game.deadline is None
            or game.deadline > now
        ):
            return False
        state = parsed_states.take(game)
        deciding = [seats[p] for p in engine.current_seats(state)]
        overdue = [seat for seat in deciding if _past_deadline(game, seat, now)]
        for seat in overdue:
            _resolve_turn(game, seats, seat, state)
        return bool(overdue)


def _resolve_turn(game, seats, seat: Seat, state) -> None:
    """Play the overdue seat's whole pending decision (all steps of its turn): one timeout."""
    human = not seat.is_bot
    first = True
    started = game.turn_started_at
    while (
        seat.position in engine.current_seats(state)
        and game.turn_started_at == started  # a new turn of the same seat is not overdue
        and not engine.is_terminal(state)
    ):
        action = _timeout_action(game, state, seat)
        _apply(game, seats, seat, state, action, timed_out=human, count_timeout=first)
        first = False
        if not human:
            return  # a bot's later steps come from its own task, as usual


def game_seat_concede(*, table: Table, seat: Seat) -> None:
    """A player gives up the seat a bot already plays for them after timeouts: it stays the
    bot's for good (caller holds the table lock). ``revision`` is bumped, as for every other
    change to a running game that is not a move, so that no move is written from seats read
    or kept before it (``storage.ParsedStates.take_written``)."""
    seat.conceded = True
    seat.save(update_fields=["conceded"])
    Game.objects.filter(table=table).update(revision=F("revision") + 1)


def game_seat_leave(*, table: Table, seat: Seat) -> None:
    """A player leaves a running game: the seat is handed to a bot (caller holds the lock)."""
    game = Game.objects.select_for_update().get(table=table)
    _abandon(seat)
    _abandon_save(seat)
    seats = seats_of(table)
    state = engine.from_json(game.state)
    _set_clock(game, table, seats, state, timezone.now(), restart=False)
    game.revision += 1  # a move read before this is made again (storage.store_move)
    game.save(update_fields=["deadline", "revision"])
    version = game.version
    since = engine.log_length(state)
    transaction.on_commit(
        lambda: effects.move_committed(game, table, seats, version, state, since, [])
    )


def game_seat_return(*, table: Table, seat: Seat) -> None:
    """A player takes back the seat a bot played for them (caller holds the table lock and
    announces the table): they play it from its next decision (docs/rules.md 1.7). If the
    seat decides now, the bot's decision becomes theirs with a fresh move clock."""
    game = Game.objects.select_for_update().get(table=table)
    seat.abandoned = False
    seat.bot_level = ""
    seat.timeouts_in_row = 0
    seat.save(update_fields=["abandoned", "bot_level", "timeouts_in_row"])
    seats = seats_of(table)
    state = engine.from_json(game.state)
    deciding = seat.position in engine.current_seats(state)
    _set_clock(game, table, seats, state, timezone.now(), restart=deciding)
    game.revision += 1
    game.save(update_fields=["deadline", "turn_started_at", "revision"])
    version = game.version
    since = engine.log_length(state)
    # The pushes of this version name the player as the seat's holder again; their sockets
    # move to the seat's view on ``table.changed`` (TableConsumer._follow_access).
    transaction.on_commit(
        lambda: effects.move_committed(game, table, seats, version, state, since, [])
    )


def game_end(*, table: Table) -> dict[int, int]:
    """Stop a running game where it stands (caller holds the table lock and announces the
    table): no more moves, clocks or bot turns. Returns each seat's public score now."""
    game = Game.objects.select_for_update().get(table=table)
    table.status = Table.Status.FINISHED
    table.finished_at = timezone.now()
    table.ended_early = True
    table.save(update_fields=["status", "finished_at", "ended_early"])
    game.deadline = None
    game.revision += 1
    game.save(update_fields=["deadline", "revision", "updated_at"])
    state = engine.from_json(game.state)
    return {p["seat"]: p["score"] for p in engine.view_for(state, None)["players"]}


def game_opened(*, table: Table, seed: int, state) -> Game:
    """Store a game just dealt, with its set-up as event 0 (the deal's log entries), and
    start its clocks (caller holds the table lock)."""
    entries = engine.detach_log(state)
    game = Game.objects.create(table=table, seed=seed, state=engine.to_json(state), version=0)
    GameEvent.objects.create(game=game, seq=0, seat=None, action=None, entries=entries)
    seats = seats_of(table)
    for seat in seats.values():
        seat.bank_left = float(table.bank_seconds)
        seat.save(update_fields=["bank_left"])
    _set_clock(game, table, seats, state, timezone.now(), restart=True)
    game.save(update_fields=["deadline", "turn_started_at"])
    transaction.on_commit(lambda: effects.move_committed(game, table, seats, 0, state, 0, entries))
    return game


def game_view_for_user(*, game: Game, user) -> dict:
    """The caller's view (their seat's, or a spectator's) with the version it belongs to."""
    return game_frame(game=game, seat=game.table.held_position(user))


def game_frame(*, game: Game, seat: int | None) -> dict:
    """A full sync frame for ``seat`` (``None``: spectator): the view, its version, the clock."""
    running = game.table.status == Table.Status.PLAYING
    state = game_state(game, whole_log=True)
    frame = broadcast.view_frame(state, game.version, seat, running=running)
    frame["clock"] = clocks.clock_summary(game.table, game, game.table.seats.all())
    return frame


# --- internals ------------------------------------------------------------------------------


def _acting_seat(seats: dict[int, Seat], user, bot_seat: int | None) -> Seat:
    if bot_seat is not None:
        seat = seats.get(bot_seat)
        if seat is None or not seat.is_bot:
            raise GameError("not_your_seat")
        return seat
    if user is None or not user.is_authenticated:
        raise GameError("login_required")
    seat = next((s for s in seats.values() if s.user_id == user.pk), None)
    if seat is None:
        raise GameError("not_seated")
    if seat.abandoned:
        raise GameError("not_your_seat")
    return seat


def _timeout_action(game, state, seat: Seat) -> dict:
    legal = engine.legal_actions(state, seat.position)
    decline = next((a for a in legal if a["type"] == "decline_tunnel"), None)
    if decline is not None and not seat.is_bot:
        return decline
    level = seat.bot_level or BotLevel.MEDIUM
    seed = state.seed ^ engine.log_length(state)
    return choose_action(level, _bot_view(game, state, seat, level), legal, seed=seed)


def _bot_view(game, state, seat: Seat, level: str | None = None) -> dict:
    """The seat's view for a bot's choice. Without the log for every level but the expert:
    they do not read it, and redacting a log of hundreds of entries was the largest part of
    a bot's move. The expert reads the whole log, redacted for its seat, for the cards the
    other seats are known to hold (``expert_world.known_cards``); its second of search
    dwarfs the read of the game's events."""
    if (level or seat.bot_level) == BotLevel.EXPERT:
        if not state.log_base:
            return engine.view_for(state, seat.position)  # it holds its whole log
        whole = engine.clone(state)  # the state itself stays as it is
        try:
            engine.attach_log(whole, log_entries(game))
            return engine.view_for(whole, seat.position)
        except ValueError:  # never seen: a bot's move must not fail for it
            log.warning("game %s: events do not match its state; the expert reads no log", game.pk)
    return engine.view_for(state, seat.position, log_since=engine.log_length(state))


def _as_read(game: Game) -> tuple[int, int]:
    return game.version, game.revision


def _apply(
    game,
    seats,
    seat,
    state,
    action,
    *,
    user=None,
    timed_out=False,
    count_timeout=True,
    unchanged: tuple | None = None,
) -> None:
    """Apply ``action`` for ``seat`` to ``game``; store, log, re-clock, announce.

    ``unchanged``: the game was read without a lock (``read_game``), with this version and
    revision (and state text, when it was not read: ``store_move``); nothing is written and
    ``_Overtaken`` raised if its row has changed since.
    None: the caller holds the row's lock. A move that writes only the game row and its
    event (most: no bank charged, no seat handed over, not the end) is one statement in
    autocommit; the others are a transaction."""
    table = game.table
    now = timezone.now()
    since = state.log_base  # the entries detached below start here (none are held before)
    step = engine.step(state, seat.position, action)
    entries = engine.detach_log(state)  # stored in the event, not in the state
    game.version += 1
    game.state = engine.to_json(state)
    # The steps of one decision share one clock: the bank pays the decision's overtime once,
    # when the seat has finished deciding (charging every step took it again at each step).
    decided = (
        step.clock_restarts or step.game_over or seat.position not in engine.current_seats(state)
    )
    seat_change = _charge(table, game, seat, now, timed_out, count_timeout, decided=decided)
    # The clock restarts when a turn begins, not for the later steps of a turn (second card,
    # tunnel payment, keeping tickets): the engine says which (engine.Step).
    _set_clock(game, table, seats, state, now, restart=step.clock_restarts)
    if step.game_over:
        game.deadline = None
        table.status = Table.Status.FINISHED
        table.finished_at = now
    event = _event(game, seat, user, action, entries, timed_out)
    alone = unchanged is not None and seat_change is None and not step.game_over
    with nullcontext() if alone else transaction.atomic(savepoint=False):
        # A row changed since the read: nothing is written, the block ends normally and
        # _Overtaken is raised after it (raised inside, it would mark a caller's own
        # transaction for rollback: savepoint=False makes no savepoint to roll back to).
        written = store_move(game, event, unchanged=unchanged)
        if written:
            _after_write(game, seats, seat, state, seat_change, step.game_over, since, entries)
    if not written:
        raise _Overtaken


def _after_write(game, seats, seat, state, seat_change, game_over, since, entries) -> None:
    """The rest of a move's writes, after its game row and event, and what follows its
    commit (in autocommit: at once)."""
    table = game.table
    if seat_change == "abandoned":
        _abandon_save(seat)
    elif seat_change == "charged":
        seat.save(update_fields=["bank_left", "timeouts_in_row"])
    if game_over:
        table.save(update_fields=["status", "finished_at"])
        result = engine.final_result(state)
        abandoned = sorted(p for p, s in seats.items() if s.abandoned)
        # robust: the game is over whatever its listeners (ratings, tournaments) manage.
        transaction.on_commit(lambda: effects.game_over(table.pk, result, abandoned), robust=True)
    version = game.version
    transaction.on_commit(
        lambda: effects.move_committed(game, table, seats, version, state, since, entries)
    )


def _charge(
    table, game, seat: Seat, now, timed_out: bool, count_timeout: bool, *, decided: bool
) -> str | None:
    """Update the acting seat's bank and its run of timeouts (one per timed-out turn), in
    memory; says what the move must write of the seat: None, ``"charged"`` or
    ``"abandoned"`` (``_abandon_save``). The bank is charged when the seat's decision is over
    (``decided``), or at its first timed-out step (the timeout plays out the rest of the
    decision at once)."""
    if seat.is_bot or (timed_out and not count_timeout):
        return None
    before = (seat.bank_left, seat.timeouts_in_row)
    if decided or timed_out:
        seat.bank_left = clocks.bank_after_move(table, game.turn_started_at, now, seat.bank_left)
    if timed_out:
        seat.timeouts_in_row += 1
        if seat.timeouts_in_row >= settings.TIMEOUTS_BEFORE_ABANDON:
            _abandon(seat)
            return "abandoned"
    else:
        seat.timeouts_in_row = 0
    if (seat.bank_left, seat.timeouts_in_row) != before:  # a move in time changes neither
        return "charged"
    return None


def _abandon(seat: Seat) -> None:
    """Hand the seat to a bot for the rest of the game (docs/rules.md 1.7); ratings see it
    last. In memory: ``_abandon_save`` writes it and tells the player."""
    seat.abandoned = True
    seat.bot_level = seat.bot_level or BotLevel.MEDIUM


def _abandon_save(seat: Seat) -> None:
    """Write the seat ``_abandon`` handed over, and tell its player."""
    fields = ["abandoned", "conceded", "bot_level", "timeouts_in_row", "bank_left"]
    seat.save(update_fields=fields)
    # The player's sockets at the table stop seeing the seat and watch on (TableConsumer).
    transaction.on_commit(lambda: broadcast.table_changed(seat.table_id))
    user = seat.user
    if user is not None and not seat.conceded:  # who gave the seat up knows it
        notification_send(
            user=user,
            text=_("A bot took over your seat at table %(id)s."),
            params={"id": seat.table_id},  # translated when read, in the reader's language
            url=seat.table.get_absolute_url(),
        )


def _set_clock(game, table, seats, state, now, *, restart: bool) -> None:
    if restart or game.turn_started_at is None:
        game.turn_started_at = now
    deciding = [seats[p] for p in engine.current_seats(state)]
    game.deadline = clocks.game_deadline(table, game.turn_started_at, deciding)


def _event(game, seat, user, action, entries, timed_out) -> GameEvent:
    """The move's event (appended with the game row's update: ``storage.store_move``)."""
    return GameEvent(
        game=game,
        seq=game.version,
        seat=seat.position,
        user=user if user is not None and user.is_authenticated else None,
        by_bot=user is None and not timed_out,
        by_timeout=timed_out,
        action=action,
        entries=entries,
    )
