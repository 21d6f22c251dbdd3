"""Deadlines, timeouts and seats handed to bots (games.services.game_handle_timeout)."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine, services
from games.errors import GameError
from games.models import Game, GameEvent, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=30)
    services.table_join(table_id=table.pk, user=cast["bob"])
    return Game.objects.get(table=table)


def overdue(game):
    Game.objects.filter(pk=game.pk).update(
        deadline=timezone.now() - timedelta(seconds=1),
        turn_started_at=timezone.now() - timedelta(hours=1),
    )
    game.refresh_from_db()


def test_a_new_game_has_a_deadline_for_the_set_up_choice(game):
    assert game.turn_started_at is not None
    seconds = (game.deadline - game.turn_started_at).total_seconds()
    assert seconds == pytest.approx(30)


def test_a_timeout_before_the_deadline_does_nothing(game):
    assert services.game_handle_timeout(game_id=game.pk, expected_version=0) is False
    game.refresh_from_db()
    assert game.version == 0


def test_an_overdue_set_up_choice_is_made_for_every_silent_seat(game):
    overdue(game)
    assert services.game_handle_timeout(game_id=game.pk, expected_version=0) is True
    game.refresh_from_db()
    assert game.version == 2  # both seats kept tickets
    events = GameEvent.objects.filter(game=game, seq__gt=0)  # 0 is the set-up
    assert all(e.by_timeout and e.action["type"] == "keep_tickets" for e in events)
    assert [s.timeouts_in_row for s in Seat.objects.filter(table=game.table)] == [1, 1]
    state = engine.from_json(game.state)
    assert state.phase == "turn"


def test_a_duplicate_or_late_timeout_does_nothing(game):
    overdue(game)
    services.game_handle_timeout(game_id=game.pk, expected_version=0)
    game.refresh_from_db()
    before = (game.version, game.state)
    overdue(game)
    assert services.game_handle_timeout(game_id=game.pk, expected_version=0) is False
    game.refresh_from_db()
    assert (game.version, game.state) == before


def test_three_timeouts_in_a_row_hand_the_seat_to_a_bot(game, cast):
    # Set-up (both seats time out), then one timed-out turn each: the first player to move
    # reaches three timeouts on their second turn.
    for _ in range(4):
        overdue(game)
        services.game_handle_timeout(game_id=game.pk, expected_version=game.version)
        game.refresh_from_db()
    state = engine.from_json(game.state)
    seats = {s.user.username: s for s in Seat.objects.filter(table=game.table)}
    abandoned = [name for name, s in seats.items() if s.abandoned]
    assert len(abandoned) == 1, "exactly the first player timed out three turns in a row"
    timed_out_turns = GameEvent.objects.filter(game=game, by_timeout=True).values("seat")
    assert {e["seat"] for e in timed_out_turns} == {0, 1}
    for name in abandoned:
        assert seats[name].bot_level == "medium" and seats[name].is_bot
        assert cast[name].notifications.filter(text__contains="bot took over").exists()
        # The player can no longer move for that seat.
        with pytest.raises(GameError) as err:
            legal = engine.legal_actions(state, seats[name].position) or [{"type": "pass"}]
            services.game_submit_action(game_id=game.pk, user=cast[name], action=legal[0],
                                        expected_version=game.version)  # fmt: skip
        assert err.value.code == "not_your_seat"


def test_a_move_resets_the_run_of_timeouts(game, cast):
    overdue(game)
    services.game_handle_timeout(game_id=game.pk, expected_version=0)
    game.refresh_from_db()
    state = engine.from_json(game.state)
    (seat,) = engine.current_seats(state)
    user = Seat.objects.get(table=game.table, position=seat).user
    services.game_submit_action(game_id=game.pk, user=user,
                                action=engine.legal_actions(state, seat)[0],
                                expected_version=game.version)  # fmt: skip
    assert Seat.objects.get(table=game.table, position=seat).timeouts_in_row == 0


def test_a_timed_out_tunnel_payment_is_declined(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])
    game = Game.objects.get(table=table)
    state = _state_waiting_for_tunnel_payment(game.seed)
    engine.detach_log(state)  # as a game's state is stored
    Game.objects.filter(pk=game.pk).update(state=engine.to_json(state))
    game.refresh_from_db()
    (seat,) = engine.current_seats(state)
    overdue(game)
    services.game_handle_timeout(game_id=game.pk, expected_version=game.version)
    event = GameEvent.objects.get(game=game, seq__gt=0)
    assert (event.seat, event.action, event.by_timeout) == (seat, {"type": "decline_tunnel"}, True)


def _state_waiting_for_tunnel_payment(seed):
    rng = random.Random(seed)
    for attempt in range(200):
        state = engine.new_game(seats=2, seed=seed + attempt)
        while not engine.is_terminal(state):
            seat = engine.current_seats(state)[0]
            legal = engine.legal_actions(state, seat)
            if state.phase == "tunnel" and any(a["type"] == "pay_tunnel" for a in legal):
                return state
            tunnels = [a for a in legal if a["type"] == "claim_route"
                       and engine.board("europe")["routes"][a["route"] - 1]["tunnel"]]  # fmt: skip
            engine.apply_action(state, seat, rng.choice(tunnels or legal))
    raise AssertionError("no tunnel payment found")


def test_a_player_who_leaves_a_running_game_is_replaced_by_a_bot(game, cast):
    services.table_leave(table_id=game.table_id, user=cast["bob"])
    seat = Seat.objects.get(table=game.table, user=cast["bob"])
    assert seat.abandoned and seat.is_bot
    game.table.refresh_from_db()
    assert game.table.status == "playing"


def test_the_sweep_handles_overdue_games(game):
    from games.tasks import sweep_deadlines

    overdue(game)
    assert sweep_deadlines() == 1
    game.refresh_from_db()
    assert game.version == 2


def test_only_one_sweep_runs_at_a_time(game):
    from django.core.cache import cache

    from games.tasks import SWEEP_LOCK, sweep_deadlines

    overdue(game)
    cache.add(SWEEP_LOCK, 1)  # a sweep is still running
    try:
        assert sweep_deadlines() == 0
    finally:
        cache.delete(SWEEP_LOCK)
    assert sweep_deadlines() == 1


def test_turn_based_games_tell_the_player_whose_turn_it_is(cast, mailoutbox):
    from games.tasks import notify_turn

    table = services.table_create(owner=cast["alice"], seat_count=2, time_control="turn_based",
                                  turn_hours=24)  # fmt: skip
    services.table_join(table_id=table.pk, user=cast["bob"])
    game = Game.objects.get(table=table)
    assert (game.deadline - game.turn_started_at).total_seconds() == 24 * 3600
    notify_turn(table.pk, game.version, [0, 1])
    for name in ("alice", "bob"):
        assert cast[name].notifications.filter(text__contains="your turn").exists()
    assert sorted(m.to[0] for m in mailoutbox) == ["alice@example.com", "bob@example.com"]
    assert table.get_absolute_url() in mailoutbox[0].body
    # A notice for a version the game has left behind is dropped: they already moved.
    notify_turn(table.pk, game.version + 7, [0])
    assert len(mailoutbox) == 2


def test_a_real_time_bank_absorbs_overtime(cast):
    from games import clocks

    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=30,
                                  bank_seconds=60)  # fmt: skip
    start = timezone.now()
    assert clocks.bank_after_move(table, start, start + timedelta(seconds=20), 60) == 60
    assert clocks.bank_after_move(table, start, start + timedelta(seconds=50), 60) == 40
    assert clocks.bank_after_move(table, start, start + timedelta(seconds=500), 60) == 0
    deadline = clocks.seat_deadline(table, start, 40, is_bot=False)
    assert (deadline - start).total_seconds() == 70


def test_a_move_after_the_deadline_is_refused_and_the_sweep_plays_it(game, cast):
    """The flag falls at the deadline, not when the sweep comes round: a move sent in between
    is ``time_up``, changes nothing, and the sweep then plays the turn as a timeout."""
    overdue(game)
    state = engine.from_json(game.state)
    action = engine.legal_actions(state, 0)[0]
    with pytest.raises(GameError) as refused:
        services.game_submit_action(
            game_id=game.pk, user=cast["alice"], action=action, expected_version=0
        )
    assert refused.value.code == "time_up"
    game.refresh_from_db()
    assert game.version == 0 and not GameEvent.objects.filter(game=game, seq__gt=0).exists()
    assert services.game_sweep_deadlines() == 1
    game.refresh_from_db()
    assert game.version == 2
    assert all(e.by_timeout for e in GameEvent.objects.filter(game=game, seq__gt=0))


def test_a_move_just_in_time_is_taken(game, cast):
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=29))
    state = engine.from_json(game.state)
    action = engine.legal_actions(state, 0)[0]
    services.game_submit_action(
        game_id=game.pk, user=cast["alice"], action=action, expected_version=0
    )
    game.refresh_from_db()
    assert game.version == 1
    assert not GameEvent.objects.get(game=game, seq__gt=0).by_timeout


def test_the_bank_pays_a_turns_overtime_once_over_its_steps(cast):
    """Move 60 s, bank 120 s: the first card at 70 s and the second at 80 s take 20 s from
    the bank, not 10 + 20; the deadline between them counts from the turn's whole bank."""
    table = services.table_create(
        owner=cast["alice"], seat_count=2, move_seconds=60, bank_seconds=120
    )
    services.table_join(table_id=table.pk, user=cast["bob"])
    game = Game.objects.get(table=table)
    users = {0: cast["alice"], 1: cast["bob"]}
    for seat in (0, 1):  # both keep their tickets
        legal = engine.legal_actions(engine.from_json(game.state), seat)
        keep = next(a for a in legal if a["type"] == "keep_tickets")
        game = services.game_submit_action(
            game_id=game.pk, user=users[seat], action=keep, expected_version=game.version
        )
    state = engine.from_json(game.state)
    mover = engine.current_seats(state)[0]
    seat = Seat.objects.get(table=table, position=mover)

    def draw_at(seconds_into_turn):
        started = timezone.now() - timedelta(seconds=seconds_into_turn)
        Game.objects.filter(pk=game.pk).update(turn_started_at=started)
        game.refresh_from_db()
        legal = engine.legal_actions(engine.from_json(game.state), mover)
        draw = next(a for a in legal if a.get("source") == "deck")
        return services.game_submit_action(
            game_id=game.pk, user=users[mover], action=draw, expected_version=game.version
        )

    game = draw_at(70)
    seat.refresh_from_db()
    assert seat.bank_left == pytest.approx(120)  # the turn is not over: nothing charged yet
    left = (game.deadline - game.turn_started_at).total_seconds()
    assert left == pytest.approx(60 + 120)
    game = draw_at(80)
    seat.refresh_from_db()
    assert seat.bank_left == pytest.approx(100, abs=1)
    assert mover not in engine.current_seats(engine.from_json(game.state))
