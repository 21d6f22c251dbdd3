"""Taking back a seat a bot took over, leaving (conceding) a game, and the names of bot
seats (docs/rules.md 1.7): the services on a real database, the REST API, the pages."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import engine, services
from games.engine.bots import choose_action
from games.errors import GameError
from games.models import Game, GameEvent, Seat, Table
from games.presenters import table_summary
from games.seat_names import BOT_NAMES, bot_name, covered_name
from games.signals import game_finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(cast):
    """alice (seat 0) and bob (seat 1) at a running two-seat table, 30 s per move."""
    table = services.table_create(owner=cast["alice"], seat_count=2, move_seconds=30)
    services.table_join(table_id=table.pk, user=cast["bob"])
    return table


def game_of(table) -> Game:
    return Game.objects.get(table=table)


def seat(table, user) -> Seat:
    return Seat.objects.get(table=table, user=user)


def move(table, position: int, user=None) -> None:
    """One decision of ``position``: the player's (a medium bot's choice for them) or the bot's."""
    game = game_of(table)
    if user is None:
        assert services.game_bot_move(game_id=game.pk, expected_version=game.version)
        return
    state = services.game_state(game)
    legal = engine.legal_actions(state, position)
    action = choose_action("medium", engine.view_for(state, position), legal, seed=game.version)
    services.game_submit_action(
        game_id=game.pk, user=user, action=action, expected_version=game.version
    )


def time_out(table, settings) -> None:
    """Every seat deciding now runs out of time once; one timeout hands a seat to a bot."""
    settings.TIMEOUTS_BEFORE_ABANDON = 1
    game = game_of(table)
    past = timezone.now() - timedelta(hours=1)
    Game.objects.filter(pk=game.pk).update(deadline=past, turn_started_at=past)
    assert services.game_handle_timeout(game_id=game.pk, expected_version=game.version)


def abandon_bob(table, cast, settings) -> None:
    """alice keeps her tickets in time; bob does not, and a bot takes his seat."""
    move(table, 0, cast["alice"])
    time_out(table, settings)
    assert seat(table, cast["bob"]).abandoned


def test_a_player_takes_back_a_seat_a_bot_took_after_timeouts(table, cast, settings):
    bob = cast["bob"]
    abandon_bob(table, cast, settings)
    table.refresh_from_db()
    assert table_summary(table, bob)["can_take_back"] is True
    assert table_summary(table, bob)["your_seat"] is None

    services.table_take_back(table_id=table.pk, user=bob)

    mine = seat(table, bob)
    assert (mine.abandoned, mine.bot_level, mine.timeouts_in_row, mine.is_bot) == (
        False, "", 0, False,
    )  # fmt: skip
    summary = table_summary(Table.objects.get(pk=table.pk), bob)
    assert summary["your_seat"] == 1 and summary["can_take_back"] is False
    assert summary["seats"][1]["name"] == bob.public_name
    # bob decides again from his seat's next decision.
    while 1 not in engine.current_seats(services.game_state(game_of(table))):
        move(table, 0, cast["alice"])
    move(table, 1, bob)


def test_a_bot_in_the_middle_of_a_decision_hands_it_over_with_a_fresh_clock(table, cast, settings):
    bob = cast["bob"]
    abandon_bob(table, cast, settings)
    while 1 not in engine.current_seats(services.game_state(game_of(table))):
        move(table, 0, cast["alice"])
    before = game_of(table)
    Game.objects.filter(pk=before.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))

    services.table_take_back(table_id=table.pk, user=bob)

    game = game_of(table)
    assert game.version == before.version  # no move was made, none is skipped
    assert timezone.now() - game.turn_started_at < timedelta(minutes=1)  # restarted
    assert game.deadline == game.turn_started_at + timedelta(seconds=30)  # a player's clock
    # The bot's pending move finds no bot deciding: the decision is bob's.
    assert services.game_bot_move(game_id=game.pk, expected_version=game.version) is False
    move(table, 1, bob)
    assert GameEvent.objects.filter(game=game).latest("seq").user == bob


def test_a_seat_given_up_cannot_be_taken_back(table, cast):
    bob = cast["bob"]
    services.table_leave(table_id=table.pk, user=bob)
    mine = seat(table, bob)
    assert mine.abandoned and mine.conceded and mine.is_bot
    assert table_summary(Table.objects.get(pk=table.pk), bob)["can_take_back"] is False
    with pytest.raises(GameError) as err:
        services.table_take_back(table_id=table.pk, user=bob)
    assert err.value.code == "seat_conceded"
    assert seat(table, bob).abandoned
    with pytest.raises(GameError) as err:
        services.table_leave(table_id=table.pk, user=bob)
    assert err.value.code == "seat_conceded"


def test_leaving_after_timeouts_gives_the_seat_up_for_good(table, cast, settings):
    bob = cast["bob"]
    abandon_bob(table, cast, settings)
    services.table_leave(table_id=table.pk, user=bob)
    assert seat(table, bob).conceded
    with pytest.raises(GameError) as err:
        services.table_take_back(table_id=table.pk, user=bob)
    assert err.value.code == "seat_conceded"


@pytest.mark.parametrize(
    "who, code",
    [("alice", "seat_not_abandoned"), ("carol", "not_seated"), ("anonymous", "not_seated")],
)
def test_only_the_player_whose_seat_a_bot_plays_can_take_it_back(table, cast, settings, who, code):
    from django.contrib.auth.models import AnonymousUser

    abandon_bob(table, cast, settings)
    user = AnonymousUser() if who == "anonymous" else cast[who]
    with pytest.raises(GameError) as err:
        services.table_take_back(table_id=table.pk, user=user)
    assert err.value.code == code
    assert seat(table, cast["bob"]).abandoned  # still the bot's


def test_a_seat_cannot_be_taken_back_once_the_game_is_over(table, cast, settings):
    abandon_bob(table, cast, settings)
    services.table_end_early(table_id=table.pk)
    with pytest.raises(GameError) as err:
        services.table_take_back(table_id=table.pk, user=cast["bob"])
    assert err.value.code == "game_not_running"


def play_to_the_end(table, players: dict) -> None:
    """Play the game out: ``players`` maps a position to its user (other seats: bots)."""
    for _ in range(2000):
        state = services.game_state(game_of(table))
        if engine.is_terminal(state):
            return
        position = engine.current_seats(state)[0]
        move(table, position, players.get(position) if position in players else None)
    raise AssertionError("the game did not end")


@pytest.mark.django_db(transaction=True)
def test_a_seat_taken_back_counts_as_played_and_one_left_to_the_bot_as_abandoned(cast, settings):
    """Three seats: alice plays throughout, bob loses his seat to timeouts and takes it back,
    carol loses hers and does not: at the end only carol's seat is abandoned (rules 1.7)."""
    settings.TIMEOUTS_BEFORE_ABANDON = 1
    alice, bob, carol = cast["alice"], cast["bob"], cast["carol"]
    table = services.table_create(owner=alice, seat_count=3, move_seconds=30)
    for user in (bob, carol):
        services.table_join(table_id=table.pk, user=user)
    heard = []

    def listener(sender, table_id, result, abandoned, **kwargs):
        heard.append((table_id, abandoned))

    game_finished.connect(listener)
    try:
        move(table, 0, alice)
        time_out(table, settings)  # bob and carol: the bot's now
        services.table_take_back(table_id=table.pk, user=bob)
        play_to_the_end(table, {0: alice, 1: bob})
    finally:
        game_finished.disconnect(listener)
    assert heard == [(table.pk, [2])]


# --- the REST API ---------------------------------------------------------------------------


def api(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_the_api_takes_a_seat_back_and_then_shows_its_secrets(table, cast, settings):
    bob = cast["bob"]
    abandon_bob(table, cast, settings)
    url = f"/api/v1/tables/{table.pk}"
    before = api(bob).get(f"{url}/game/").json()
    assert before["seat"] is None and "you" not in before["view"]
    events = api(bob).get(f"{url}/game/events/").json()["results"]
    hidden = [e for step in events for e in step["entries"] if e.get("seat") == 1]
    assert hidden and not any("secret" in e or "private" in e for e in hidden)

    answer = api(bob).post(f"{url}/take-back/")
    assert answer.status_code == 200, answer.content
    assert answer.json()["your_seat"] == 1 and answer.json()["can_take_back"] is False

    after = api(bob).get(f"{url}/game/").json()
    assert after["seat"] == 1 and after["view"]["you"]["seat"] == 1
    assert after["view"]["you"]["tickets"]  # his tickets again
    again = api(bob).post(f"{url}/take-back/")
    assert again.status_code == 409 and again.json()["code"] == "seat_not_abandoned"


@pytest.mark.parametrize(
    "who, status, code",
    [("alice", 409, "seat_not_abandoned"), ("carol", 403, "not_seated"), (None, 401, None)],
)
def test_the_api_refuses_a_take_back_by_anyone_else(table, cast, settings, who, status, code):
    abandon_bob(table, cast, settings)
    answer = api(cast[who] if who else None).post(f"/api/v1/tables/{table.pk}/take-back/")
    assert answer.status_code in ((status,) if who else (401, 403)), answer.content
    if code:
        assert answer.json()["code"] == code
    assert seat(table, cast["bob"]).abandoned


def test_the_api_refuses_to_take_back_a_conceded_seat(table, cast):
    bob = cast["bob"]
    assert api(bob).post(f"/api/v1/tables/{table.pk}/leave/").status_code == 200
    answer = api(bob).post(f"/api/v1/tables/{table.pk}/take-back/")
    assert answer.status_code == 409 and answer.json()["code"] == "seat_conceded"
    frame = api(bob).get(f"/api/v1/tables/{table.pk}/game/").json()
    assert frame["seat"] is None and "you" not in frame["view"]


# --- the pages ------------------------------------------------------------------------------


def test_the_table_page_offers_the_take_back_to_that_player_only(table, cast, settings):
    abandon_bob(table, cast, settings)
    pages = {}
    for name in ("alice", "bob", "carol"):
        client = Client()
        client.force_login(cast[name])
        pages[name] = client.get(f"/table/{table.pk}/").content.decode()
    assert 'id="take-back" class="take-back"' in pages["bob"]  # shown
    assert "Take my seat back" in pages["bob"]
    assert "This game is not rated" in pages["bob"]
    for name in ("alice", "carol"):
        assert 'class="take-back hidden"' in pages[name]
    assert 'id="leave-game" class="leave-game"' in pages["alice"]  # alice may leave
    assert 'id="leave-game" class="leave-game hidden"' in pages["carol"]  # a spectator may not


def test_the_page_form_takes_the_seat_back_and_leaving_keeps_the_player_watching(
    table, cast, settings
):
    bob = cast["bob"]
    abandon_bob(table, cast, settings)
    client = Client()
    client.force_login(bob)
    answer = client.post(f"/table/{table.pk}/take-back/")
    assert answer.status_code == 302 and answer.url == f"/table/{table.pk}/"
    assert not seat(table, bob).abandoned
    answer = client.post(f"/table/{table.pk}/leave/")
    assert answer.status_code == 302 and answer.url == f"/table/{table.pk}/"
    assert seat(table, bob).conceded
    page = client.get(answer.url).content.decode()
    assert "You left the game" in page and 'class="take-back hidden"' in page


def test_the_leave_dialog_of_a_rated_table_says_the_rating_drops(table, cast):
    Table.objects.filter(pk=table.pk).update(rated=True)
    client = Client()
    client.force_login(cast["alice"])
    page = client.get(f"/table/{table.pk}/").content.decode()
    assert "You will be placed last at this table" in page
    assert "your rating will drop" in page
    assert "This game is not rated" not in page


# --- the names of bot seats -----------------------------------------------------------------


def test_every_bot_at_a_table_has_its_own_name_with_its_level(cast):
    alice = cast["alice"]
    table = services.table_create(owner=alice, seat_count=4)
    for level in ("medium", "medium", "hard"):
        services.table_add_bot(table_id=table.pk, by=alice, level=level)
    names = [s["name"] for s in table_summary(Table.objects.get(pk=table.pk), alice)["seats"]]
    assert names[0] == alice.public_name
    assert len(set(names)) == 4
    assert names[1].endswith(" (medium bot)") and names[2].endswith(" (medium bot)")
    assert names[3].endswith(" (hard bot)")
    assert all(n.split(" ")[0] in BOT_NAMES for n in names[1:])
    # The same on every read: the name comes from the table and the seat.
    again = [s.label for s in Seat.objects.filter(table=table).order_by("position")]
    assert again == names


def test_bot_names_are_unique_at_every_table_and_numbered_past_the_list():
    from games.seat_names import table_bot_index

    for table_id in range(1, 60):
        indexes = {table_bot_index(table_id, p) for p in range(5)}
        assert len(indexes) == 5
    assert bot_name("easy", 0) == "Ada (easy bot)"
    assert bot_name("hard", len(BOT_NAMES) + 1) == "Bram 2 (hard bot)"


def test_a_players_seat_a_bot_plays_keeps_the_players_name(table, cast):
    bob = cast["bob"]
    services.table_leave(table_id=table.pk, user=bob)
    names = [s["name"] for s in table_summary(Table.objects.get(pk=table.pk), None)["seats"]]
    assert names == [cast["alice"].public_name, covered_name(bob.public_name)]
    assert names[1] == f"{bob.public_name} (bot playing)"


def test_a_tournament_bot_has_one_name_in_the_standings_and_at_its_table(cast):
    from ladder import services as ladder_services
    from ladder.models import Pairing
    from tests.ladder.factories import register, tournament

    alice = cast["alice"]
    t = tournament(alice, table_size=3, rated=False, round_count=1)
    register(t, [alice])
    for level in ("hard", "medium"):
        ladder_services.entry_add_bot(tournament_id=t.pk, by=alice, level=level)
    ladder_services.tournament_start_now(tournament_id=t.pk, by=alice)
    pairing = Pairing.objects.get(round__tournament=t, is_bye=False)
    seats = table_summary(Table.objects.get(pk=pairing.table_id), alice)["seats"]
    bots = sorted(s["name"] for s in seats if s["user_id"] is None)
    assert bots == ["Ada (hard bot)", "Bram (medium bot)"]  # named in order of entry
    standings = Client().get(t.get_absolute_url()).content.decode()
    for name in bots:
        assert name in standings
    assert "#" + str(t.entries.filter(user__isnull=True).first().pk) not in standings
    table_page = Client().get(f"/table/{pairing.table_id}/").content.decode()
    for name in bots:
        assert name in table_page


def test_a_tournament_bot_has_that_name_on_the_players_tab_and_in_the_api(cast):
    from ladder import services as ladder_services
    from tests.ladder.factories import register, tournament

    alice = cast["alice"]
    t = tournament(alice, table_size=3, rated=False, round_count=1)
    register(t, [alice])
    for level in ("hard", "medium"):
        ladder_services.entry_add_bot(tournament_id=t.pk, by=alice, level=level)
    players = Client().get(reverse("tournament_tab", args=[t.slug, "players"])).content.decode()
    assert "Ada (hard bot)" in players and "Bram (medium bot)" in players
    client = Client()
    client.force_login(alice)
    body = client.get(f"/api/v1/tournaments/{t.slug}/entries/").json()
    labels = [e["label"] for e in body["results"]]
    assert labels == [alice.public_name, "Ada (hard bot)", "Bram (medium bot)"]
    bot = t.entries.get(bot_level="medium")
    assert bot.label == "Bram (medium bot)"  # the model names it on its own too
