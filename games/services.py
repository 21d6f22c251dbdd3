"""Use cases of the live tables. The only code that changes a table, a seat or a game.

Every write locks its aggregate (the table row, or the game row for moves: one writer per
table), checks the caller's right to act, and schedules pushes and tasks with
``transaction.on_commit`` so nothing is announced that was rolled back.
"""

import secrets

from django.db import transaction
from django.utils import timezone

from games import broadcast, engine
from games.errors import GameError
from games.models import BotLevel, ChatMessage, Game, GameEvent, Seat, Table, TimeControl

CHAT_LIMIT = 300
CHAT_BURST = 5  # messages per CHAT_WINDOW seconds per player and table
CHAT_WINDOW = 10


# --- Tables ---------------------------------------------------------------------------------


def table_create(
    *,
    owner,
    ruleset: str = "europe",
    variant: str = "classic",
    seat_count: int = 4,
    options: dict | None = None,
    time_control: str = TimeControl.REALTIME,
    move_seconds: int = 90,
    bank_seconds: int = 0,
    turn_hours: int = 24,
    rated: bool = False,
    is_private: bool = False,
) -> Table:
    """Open a table with the owner in seat 0."""
    options = options or {}
    _check_options(ruleset, variant, seat_count, options)
    with transaction.atomic():
        table = Table.objects.create(
            owner=owner,
            ruleset=ruleset,
            variant=variant,
            seat_count=seat_count,
            options=options,
            time_control=time_control,
            move_seconds=move_seconds,
            bank_seconds=bank_seconds,
            turn_hours=turn_hours,
            rated=rated,
            is_private=is_private,
        )
        Seat.objects.create(table=table, position=0, user=owner)
        transaction.on_commit(lambda: broadcast.lobby_changed(table.pk))
    return table


def _check_options(ruleset, variant, seat_count, options) -> None:
    """Ask the engine itself whether it can set up this game (one source of truth)."""
    try:
        engine.new_game(ruleset=ruleset, variant=variant, seats=seat_count, seed=0, options=options)
    except engine.EngineError as exc:
        raise GameError("invalid_options", detail=exc.message) from None
    except (TypeError, ValueError) as exc:
        raise GameError("invalid_options", detail=str(exc)) from None


def _locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise GameError("not_found") from None


def _free_position(table: Table) -> int:
    taken = set(table.seats.values_list("position", flat=True))
    return next(p for p in range(table.seat_count) if p not in taken)


def table_join(*, table_id: int, user, invite_token: str | None = None) -> Seat:
    """Take a free seat; the game starts by itself when the last seat is filled."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status != Table.Status.OPEN:
            raise GameError("table_not_open")
        if table.is_private and invite_token != table.invite_token:
            raise GameError("private_table")
        if table.seats.filter(user=user).exists():
            raise GameError("already_seated")
        if table.is_full:
            raise GameError("table_full")
        seat = Seat.objects.create(table=table, position=_free_position(table), user=user)
        if table.is_full:
            _start(table)
        _announce_table(table)
    return seat


def table_leave(*, table_id: int, user) -> None:
    """Give up a seat before the game starts; an owner who leaves closes the table."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status != Table.Status.OPEN:
            raise GameError("table_not_open")
        seat = table.seat_of(user)
        if seat is None:
            raise GameError("not_seated")
        seat.delete()
        if table.owner_id == user.pk:
            table.status = Table.Status.CANCELLED
            table.save(update_fields=["status"])
        _announce_table(table)


def table_add_bot(*, table_id: int, by, level: str = BotLevel.EASY) -> Seat:
    """The owner fills a free seat with a bot; the game starts when the table is full."""
    if level not in BotLevel.values:
        raise GameError("invalid_options", detail=f"unknown bot level {level!r}")
    with transaction.atomic():
        table = _owned_open_table(table_id, by)
        if table.is_full:
            raise GameError("table_full")
        seat = Seat.objects.create(table=table, position=_free_position(table), bot_level=level)
        if table.is_full:
            _start(table)
        _announce_table(table)
    return seat


def table_remove_seat(*, table_id: int, by, position: int) -> None:
    """The owner removes a bot or a player (not themself) before the start."""
    with transaction.atomic():
        table = _owned_open_table(table_id, by)
        seat = table.seats.filter(position=position).first()
        if seat is None or seat.user_id == by.pk:
            raise GameError("invalid_options", detail=f"no removable seat {position}")
        seat.delete()
        _announce_table(table)


def table_start(*, table_id: int, by) -> Game:
    """The owner starts the game with the seats filled so far (at least two)."""
    with transaction.atomic():
        table = _owned_open_table(table_id, by)
        game = _start(table)
        _announce_table(table)
    return game


def _owned_open_table(table_id: int, user) -> Table:
    table = _locked_table(table_id)
    if table.owner_id != user.pk:
        raise GameError("not_owner")
    if table.status != Table.Status.OPEN:
        raise GameError("table_not_open")
    return table


def _start(table: Table) -> Game:
    """Close the seats up to positions 0..n-1 and deal. Caller holds the table lock."""
    seats = list(table.seats.order_by("position"))
    if len(seats) < 2:
        raise GameError("not_enough_players")
    for position, seat in enumerate(seats):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])
    seed = secrets.randbits(62)
    try:
        state = engine.new_game(
            ruleset=table.ruleset,
            variant=table.variant,
            seats=len(seats),
            seed=seed,
            options=table.options,
        )
    except engine.EngineError as exc:
        raise GameError("invalid_options", detail=exc.message) from None
    table.seat_count = len(seats)
    table.status = Table.Status.PLAYING
    table.started_at = timezone.now()
    table.save(update_fields=["seat_count", "status", "started_at"])
    game = Game.objects.create(table=table, seed=seed, state=engine.to_json(state), version=0)
    transaction.on_commit(lambda: _after_move(game.pk, table.pk, 0, state, 0))
    return game


def _announce_table(table: Table) -> None:
    transaction.on_commit(lambda: broadcast.table_changed(table.pk))
    transaction.on_commit(lambda: broadcast.lobby_changed(table.pk))


# --- Moves ----------------------------------------------------------------------------------


def game_submit_action(
    *,
    game_id: int,
    action,
    expected_version,
    user=None,
    bot_seat: int | None = None,
) -> Game:
    """Apply one action for the user's seat (or a bot's seat) if based on the current version.

    Raises ``GameError`` (stale version, not seated, not running) or the engine's
    ``IllegalAction``; either way nothing changes.
    """
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise GameError("malformed_message", detail="'version' must be a whole number")
    if not isinstance(action, dict):
        raise GameError("malformed_message", detail="'action' must be an object")
    with transaction.atomic():
        game = _locked_game(game_id)
        table = game.table
        if table.status != Table.Status.PLAYING:
            raise GameError("game_not_running")
        if expected_version != game.version:
            raise GameError("stale_version")
        seat = _acting_seat(table, user, bot_seat)
        state = engine.from_json(game.state)
        since = len(state.log)
        engine.apply_action(state, seat.position, action)
        game.version += 1
        game.state = engine.to_json(state)
        game.save(update_fields=["state", "version", "updated_at"])
        _record_event(game, seat, user, action, state, since)
        if engine.is_terminal(state):
            table.status = Table.Status.FINISHED
            table.finished_at = timezone.now()
            table.save(update_fields=["status", "finished_at"])
            transaction.on_commit(lambda: broadcast.lobby_changed(table.pk))
        version = game.version
        transaction.on_commit(lambda: _after_move(game.pk, table.pk, version, state, since))
    return game


def _locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().select_related("table").get(pk=game_id)
    except Game.DoesNotExist:
        raise GameError("not_found") from None


def _acting_seat(table: Table, user, bot_seat: int | None) -> Seat:
    seats = list(table.seats.select_related("user"))
    if bot_seat is not None:
        seat = next((s for s in seats if s.position == bot_seat), None)
        if seat is None or not seat.is_bot:
            raise GameError("not_your_seat")
        return seat
    if user is None or not user.is_authenticated:
        raise GameError("login_required")
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise GameError("not_seated")
    if seat.abandoned:
        raise GameError("not_your_seat")
    return seat


def _record_event(game, seat, user, action, state, since) -> None:
    public = engine.log_for(state, None, since)
    private = {}
    for position in range(state.n):
        entries = engine.log_for(state, position, since)
        if entries != public:
            private[str(position)] = entries
    GameEvent.objects.create(
        game=game,
        seq=game.version,
        seat=seat.position,
        user=user if user is not None and user.is_authenticated else None,
        by_bot=user is None,
        action=action,
        public=public,
        private=private,
    )


def _after_move(game_id: int, table_id: int, version: int, state, since: int) -> None:
    """After commit: push every audience its view, then let bots move if it is their turn."""
    broadcast.game_changed(table_id, version, state, since)
    from games import tasks

    tasks.schedule_bots(game_id, version, state)


# --- Reads ----------------------------------------------------------------------------------


def game_view_for_user(*, game: Game, user) -> dict:
    """The caller's view (their seat's, or a spectator's) with the version it belongs to."""
    seat = game.table.seat_of(user)
    viewer = seat.position if seat is not None and not seat.abandoned else None
    return broadcast.view_frame(engine.from_json(game.state), game.version, viewer)


# --- Chat -----------------------------------------------------------------------------------


def chat_post(*, table_id: int, user, text) -> ChatMessage:
    """Store a chat line (length- and rate-limited) and push it to everyone at the table."""
    from django.core.cache import cache

    if not getattr(user, "is_authenticated", False):
        raise GameError("login_required")
    if not isinstance(text, str):
        raise GameError("malformed_message", detail="'text' must be a string")
    text = text.strip()
    if not text:
        raise GameError("chat_empty")
    if len(text) > CHAT_LIMIT:
        raise GameError("chat_too_long", limit=CHAT_LIMIT)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise GameError("not_found")
    if table.is_private and table.seat_of(user) is None:
        raise GameError("private_table")
    key = f"chat-rate:{table_id}:{user.pk}"
    cache.add(key, 0, timeout=CHAT_WINDOW)
    try:
        sent = cache.incr(key)
    except ValueError:  # the window expired between add and incr
        cache.set(key, sent := 1, timeout=CHAT_WINDOW)
    if sent > CHAT_BURST:
        raise GameError("chat_rate_limited")
    message = ChatMessage.objects.create(table=table, user=user, text=text)
    payload = message.as_message()
    transaction.on_commit(lambda: broadcast.chat(table_id, payload))
    return message
