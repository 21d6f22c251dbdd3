"""Table use cases: open, join, leave, bots, start. One writer per table (its row lock)."""

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import broadcast, engine
from games.errors import GameError
from games.models import BotLevel, Game, Seat, Table, TimeControl, new_invite_token
from games.services.moves import (
    game_end,
    game_opened,
    game_seat_concede,
    game_seat_leave,
    game_seat_return,
)


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
    league=None,
    is_private: bool = False,
) -> Table:
    """Open a table with the owner in seat 0 (``league``: a ladder's rated table)."""
    options = options or {}
    _check_options(ruleset, variant, seat_count, options)
    with transaction.atomic():
        if league is None:  # a league's tables are formed and started at once
            _check_open_table_cap(owner)
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
            league=league,
            is_private=is_private,
        )
        Seat.objects.create(table=table, position=0, user=owner)
        transaction.on_commit(lambda: broadcast.lobby_changed(table.pk))
    return table


def _check_open_table_cap(owner) -> None:
    """Refuse a table beyond ``MAX_OPEN_TABLES_PER_USER`` open ones (docs/security.md: one
    account must not flood the lobby). The owner's row lock makes concurrent creations by
    the same user take turns, so the count cannot be raced past the cap."""
    limit = settings.MAX_OPEN_TABLES_PER_USER
    list(get_user_model().objects.select_for_update().filter(pk=owner.pk).values_list("pk"))
    if Table.objects.filter(owner=owner, status=Table.Status.OPEN).count() >= limit:
        raise GameError("too_many_open_tables", limit=limit)


def table_open_full(
    *,
    players: list,
    ruleset: str,
    variant: str,
    options: dict | None = None,
    time_control: str = TimeControl.REALTIME,
    move_seconds: int = 90,
    bank_seconds: int = 0,
    turn_hours: int = 24,
    rated: bool = False,
    league=None,
) -> Table:
    """Open a table with no owner, seat ``players`` in this order (a user, or a bot level),
    and start it: how organised play (tournaments) seats a table it has already formed."""
    with transaction.atomic():
        table = Table.objects.create(
            ruleset=ruleset,
            variant=variant,
            seat_count=len(players),
            options=options or {},
            time_control=time_control,
            move_seconds=move_seconds,
            bank_seconds=bank_seconds,
            turn_hours=turn_hours,
            rated=rated,
            league=league,
        )
        Seat.objects.bulk_create(
            Seat(table=table, position=position, bot_level=player)
            if isinstance(player, str)
            else Seat(table=table, position=position, user=player)
            for position, player in enumerate(players)
        )
        _start(table)
        _announce_table(table)
    return table


def table_end_early(*, table_id: int) -> dict[int, int]:
    """End a running game now (an organizer's call on a stuck table): the table is finished
    without a final scoring; returns each seat's public score at that moment."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status != Table.Status.PLAYING:
            raise GameError("game_not_running")
        scores = game_end(table=table)
        _announce_table(table)
    return scores


def check_game_options(*, ruleset: str, variant: str, seats: int, options: dict) -> None:
    """Raise ``GameError("invalid_options")`` unless the engine can set up this game."""
    _check_options(ruleset, variant, seats, options)


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
    """Give up a seat. Before the start it is freed (an owner who leaves closes the table);
    during the game a bot plays it on, it counts as abandoned and it cannot be taken back
    (docs/rules.md 1.7): also a seat a bot already plays after timeouts."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = table.seat_of(user)
        if seat is None:
            raise GameError("not_seated")
        if table.status == Table.Status.PLAYING:
            if seat.conceded:
                raise GameError("seat_conceded")
            if seat.abandoned:
                game_seat_concede(table=table, seat=seat)
            else:
                seat.conceded = True
                game_seat_leave(table=table, seat=seat)
            _announce_table(table)
            return
        if table.status != Table.Status.OPEN:
            raise GameError("table_not_open")
        seat.delete()
        if table.owner_id == user.pk:
            table.status = Table.Status.CANCELLED
            table.save(update_fields=["status"])
        _announce_table(table)


def table_take_back(*, table_id: int, user) -> Seat:
    """Take back the seat a bot took over after timeouts, while the game runs: the player
    plays it again from its next decision, and sees its cards and tickets again; a seat its
    player gave up stays the bot's (docs/rules.md 1.7)."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = table.seat_of(user)
        if seat is None:
            raise GameError("not_seated")
        if table.status != Table.Status.PLAYING:
            raise GameError("game_not_running")
        if seat.conceded:
            raise GameError("seat_conceded")
        if not seat.abandoned:
            raise GameError("seat_not_abandoned")
        game_seat_return(table=table, seat=seat)
        _announce_table(table)
    return seat


def table_add_bot(*, table_id: int, by, level: str = BotLevel.EASY) -> Seat:
    """The owner fills a free seat with a bot; the game starts when the table is full."""
    if level not in BotLevel.values:
        raise GameError("invalid_options", detail=_("unknown bot level"))
    with transaction.atomic():
        table = _owned_open_table(table_id, by)
        if table.rated:
            # Issue 7: bots never take part in rated games.
            raise GameError("invalid_options", detail=_("bots do not play rated games"))
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
            raise GameError(
                "invalid_options", detail=_("no seat %(n)s to remove") % {"n": position}
            )
        seat.delete()
        _announce_table(table)


def table_start(*, table_id: int, by) -> Game:
    """The owner starts the game with the seats filled so far (at least two)."""
    with transaction.atomic():
        table = _owned_open_table(table_id, by)
        game = _start(table)
        _announce_table(table)
    return game


def table_invite_rotate(*, table_id: int, by) -> Table:
    """The owner replaces the table's invite link: the old one stops working at once."""
    with transaction.atomic():
        table = _owned_open_table(table_id, by)
        table.invite_token = new_invite_token()
        table.save(update_fields=["invite_token"])
        _announce_table(table)
    return table


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
    if table.rated and sum(1 for s in seats if s.user_id is not None and not s.bot_level) < 2:
        # Issue 7: a rated game needs at least two humans.
        raise GameError("invalid_options", detail=_("a rated game needs two human players"))
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
    return game_opened(table=table, seed=seed, state=state)


def _announce_table(table: Table) -> None:
    transaction.on_commit(lambda: broadcast.table_changed(table.pk))
    transaction.on_commit(lambda: broadcast.lobby_changed(table.pk))
