"""Tables and moves through games.services: who may do what, and that refusals change nothing."""

import threading

import pytest
from django.db import close_old_connections, connection

from games import engine, services
from games.errors import GameError
from games.models import Game, GameEvent, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(cast):
    return services.table_create(owner=cast["alice"], seat_count=3)


def test_the_owner_sits_in_seat_zero(table, cast):
    assert [(s.position, s.user) for s in table.seats.all()] == [(0, cast["alice"])]
    assert table.status == Table.Status.OPEN


def test_the_game_starts_when_the_last_seat_is_taken(table, cast):
    services.table_join(table_id=table.pk, user=cast["bob"])
    services.table_join(table_id=table.pk, user=cast["carol"])
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    game = Game.objects.get(table=table)
    assert game.version == 0
    assert engine.from_json(game.state).n == 3


def test_joining_twice_or_a_full_table_is_refused(table, cast):
    services.table_join(table_id=table.pk, user=cast["bob"])
    with pytest.raises(GameError) as err:
        services.table_join(table_id=table.pk, user=cast["bob"])
    assert err.value.code == "already_seated"
    services.table_add_bot(table_id=table.pk, by=cast["alice"])
    with pytest.raises(GameError) as err:
        services.table_join(table_id=table.pk, user=cast["dave"])
    assert err.value.code == "table_not_open"  # full with a bot: it started


def test_only_the_owner_adds_bots_and_starts(table, cast):
    services.table_join(table_id=table.pk, user=cast["bob"])
    for call in (
        lambda: services.table_add_bot(table_id=table.pk, by=cast["bob"]),
        lambda: services.table_start(table_id=table.pk, by=cast["bob"]),
        lambda: services.table_remove_seat(table_id=table.pk, by=cast["bob"], position=0),
    ):
        with pytest.raises(GameError) as err:
            call()
        assert err.value.code == "not_owner"


def test_a_game_needs_two_seats(table, cast):
    with pytest.raises(GameError) as err:
        services.table_start(table_id=table.pk, by=cast["alice"])
    assert err.value.code == "not_enough_players"


def test_a_private_table_needs_its_invite(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2, is_private=True)
    with pytest.raises(GameError) as err:
        services.table_join(table_id=table.pk, user=cast["bob"])
    assert err.value.code == "private_table"
    services.table_join(table_id=table.pk, user=cast["bob"], invite_token=table.invite_token)
    assert Seat.objects.filter(table=table).count() == 2


def test_invalid_options_are_refused_by_the_engine(cast):
    with pytest.raises(GameError) as err:
        services.table_create(owner=cast["alice"], seat_count=7)
    assert err.value.code == "invalid_options"
    with pytest.raises(GameError):
        services.table_create(owner=cast["alice"], variant="chess")
    assert not Table.objects.exists()


def test_seats_close_up_when_a_player_left_before_the_start(table, cast):
    services.table_join(table_id=table.pk, user=cast["bob"])
    services.table_add_bot(table_id=table.pk, by=cast["alice"])  # fills seat 2: starts
    table.refresh_from_db()
    assert sorted(table.seats.values_list("position", flat=True)) == [0, 1, 2]


@pytest.fixture
def game(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])
    return Game.objects.get(table=table)


def first_legal(game, seat):
    state = engine.from_json(game.state)
    return engine.legal_actions(state, seat)[0]


def snapshot(game):
    game.refresh_from_db()
    return game.version, game.state, GameEvent.objects.filter(game=game).count()


def test_an_accepted_action_bumps_the_version_and_logs_an_event(game, cast):
    action = first_legal(game, 0)
    services.game_submit_action(game_id=game.pk, user=cast["alice"], action=action,
                                expected_version=0)  # fmt: skip
    version, _, events = snapshot(game)
    assert (version, events) == (1, 2)  # the set-up (0) and the action
    event = GameEvent.objects.get(game=game, seq=1)
    assert (event.seat, event.action) == (0, action)
    assert [e["type"] for e in event.entries] == ["keep_tickets"]
    kept = event.entries[0]["secret"]["tickets"]
    assert kept, "the event keeps what seat 0 kept, for seat 0 only"
    assert event.entries_for(0)[0]["tickets"] == kept
    for other in (event.entries_for(None), event.entries_for(1)):
        assert "secret" not in str(other) and not any(f"'{t}'" in str(other) for t in kept)


@pytest.mark.parametrize(
    ("who", "action", "version", "code"),
    [
        ("alice", None, 5, "stale_version"),
        ("carol", None, 0, "not_seated"),
        ("alice", {"type": "keep_tickets", "tickets": ["NOPE"]}, 0, "invalid_ticket_choice"),
        ("alice", {"type": "fly"}, 0, "unknown_action"),
        ("alice", "not a dict", 0, "malformed_message"),
        ("alice", None, "0", "malformed_message"),
    ],
)
def test_refusals_change_nothing(game, cast, who, action, version, code):
    before = snapshot(game)
    action = first_legal(game, 0) if action is None else action
    with pytest.raises((GameError, engine.IllegalAction)) as err:
        services.game_submit_action(
            game_id=game.pk, user=cast[who], action=action, expected_version=version
        )
    assert err.value.code == code
    assert snapshot(game) == before


def test_an_action_for_another_seat_is_refused(game, cast):
    # Play the set-up choices, then bob tries to move in alice's turn (or the reverse).
    for seat, user in ((0, "alice"), (1, "bob")):
        game.refresh_from_db()
        services.game_submit_action(game_id=game.pk, user=cast[user],
                                    action=first_legal(game, seat),
                                    expected_version=game.version)  # fmt: skip
    game.refresh_from_db()
    state = engine.from_json(game.state)
    (current,) = engine.current_seats(state)
    idle = "bob" if current == 0 else "alice"
    before = snapshot(game)
    with pytest.raises(engine.IllegalAction) as err:
        services.game_submit_action(game_id=game.pk, user=cast[idle],
                                    action={"type": "draw_card", "source": "deck"},
                                    expected_version=game.version)  # fmt: skip
    assert err.value.code == "not_your_turn"
    assert snapshot(game) == before


@pytest.mark.postgres  # row locks; SQLite's in-memory test database has table locks only
@pytest.mark.django_db(transaction=True)
def test_two_clients_submitting_at_once_apply_exactly_one_action(cast):
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])
    game = Game.objects.get(table=table)
    actions = {"alice": first_legal(game, 0), "bob": first_legal(game, 1)}
    barrier = threading.Barrier(2)
    outcomes = {}

    def submit(name):
        close_old_connections()
        barrier.wait()
        try:
            services.game_submit_action(game_id=game.pk, user=cast[name],
                                        action=actions[name], expected_version=0)  # fmt: skip
            outcomes[name] = "applied"
        except GameError as exc:
            outcomes[name] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(n,)) for n in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes.values()) == ["applied", "stale_version"]
    game.refresh_from_db()
    assert game.version == 1
    assert list(GameEvent.objects.filter(game=game).values_list("seq", flat=True)) == [0, 1]


def test_the_owner_replaces_the_invite_and_the_old_one_stops_working(cast):
    table = services.table_create(owner=cast["alice"], seat_count=3, is_private=True)
    old = table.invite_token
    with pytest.raises(GameError) as err:
        services.table_invite_rotate(table_id=table.pk, by=cast["bob"])
    assert err.value.code == "not_owner"
    new = services.table_invite_rotate(table_id=table.pk, by=cast["alice"]).invite_token
    assert new != old
    with pytest.raises(GameError) as err:
        services.table_join(table_id=table.pk, user=cast["bob"], invite_token=old)
    assert err.value.code == "private_table"
    services.table_join(table_id=table.pk, user=cast["bob"], invite_token=new)


def test_a_user_has_at_most_the_configured_number_of_open_tables(cast, settings):
    settings.MAX_OPEN_TABLES_PER_USER = 2
    first = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_create(owner=cast["alice"], seat_count=3, is_private=True)
    with pytest.raises(GameError) as err:
        services.table_create(owner=cast["alice"], seat_count=2)
    assert err.value.code == "too_many_open_tables"
    assert "limited to 2 per player" in err.value.message
    assert Table.objects.filter(owner=cast["alice"]).count() == 2
    services.table_create(owner=cast["bob"], seat_count=2)  # a cap per user
    services.table_join(table_id=first.pk, user=cast["bob"])  # full: it starts, no longer open
    services.table_create(owner=cast["alice"], seat_count=2)


@pytest.mark.postgres  # row locks; SQLite's in-memory test database has table locks only
@pytest.mark.django_db(transaction=True)
def test_creating_tables_at_once_cannot_pass_the_open_table_cap(cast, settings):
    settings.MAX_OPEN_TABLES_PER_USER = 3
    services.table_create(owner=cast["alice"], seat_count=2)
    barrier = threading.Barrier(6)
    outcomes = []

    def create():
        close_old_connections()
        barrier.wait()
        try:
            services.table_create(owner=cast["alice"], seat_count=2)
            outcomes.append("created")
        except GameError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["created"] * 2 + ["too_many_open_tables"] * 4
    assert Table.objects.filter(owner=cast["alice"], status=Table.Status.OPEN).count() == 3
