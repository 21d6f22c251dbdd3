"""Arena use cases on the database (docs/tournaments.md "Arena"): the start, reseating after
each game, the winning streak, pausing, late entry, withdrawal and removal, the end (on time
or now, with the games in progress counted), bots that fill a table, and the page, the API
and the exports of an arena. Games end here the way the ``game_finished`` task reports them
(``finish_table``); tests/ladder/test_arena_live.py plays one with a real worker."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ladder import services
from ladder.errors import LadderError
from ladder.models import Entry, Match, PairingSeat, Tournament
from tests.factories import UserFactory
from tests.ladder.factories import (
    LeagueFactory,
    MembershipFactory,
    finish_table,
    playing_tables,
    register,
    tournament,
)
from ttr_site.accounts.models import Notification

pytestmark = pytest.mark.django_db


def players(n, prefix="p"):
    return [UserFactory(username=f"{prefix}{i}") for i in range(n)]


def arena(organizer, **settings):
    settings.setdefault("format", "arena")
    settings.setdefault("duration_minutes", 60)
    return tournament(organizer, **settings)


def start(t) -> Tournament:
    services.tournament_start_now(tournament_id=t.pk, by=t.organizer)
    t.refresh_from_db()
    return t


def advance(t, *, after=0) -> bool:
    """A beat tick ``after`` seconds from now."""
    now = timezone.now() + timedelta(seconds=after)
    return services.tournament_advance(tournament_id=t.pk, now=now)


def seats_of(pairing) -> list[int]:
    return list(pairing.seats.order_by("seat").values_list("entry_id", flat=True))


def table_of(t, entry_id):
    return next(p for p in playing_tables(t) if entry_id in seats_of(p))


def win(pairing, winner: int, *, abandoned=()) -> None:
    """Finish ``pairing`` with ``winner`` (an entry id) first, the others in seat order."""
    seats = seats_of(pairing)
    others = iter(range(2, len(seats) + 1))
    finish_table(pairing, [1 if e == winner else next(others) for e in seats],
                 abandoned=[seats.index(e) for e in abandoned])  # fmt: skip


def points(t) -> dict[int, float]:
    return {row.player: row.points for row in Tournament.objects.get(pk=t.pk).standings()}


def entry(pk) -> Entry:
    return Entry.objects.get(pk=pk)


# --- the start and the seating ----------------------------------------------------------------


def test_an_arena_starts_with_one_round_and_seats_everyone_it_can(cast):
    t = arena(cast["alice"], table_size=4, allow_smaller=False, duration_minutes=90)
    users = players(9)
    entries = register(t, users)
    t = start(t)
    assert t.status == "running" and t.ends_at == t.started_at + timedelta(minutes=90)
    (round_,) = t.rounds.all()
    assert (round_.number, round_.status) == (1, "playing")
    tables = playing_tables(t)
    assert [p.number for p in tables] == [1, 2] and all(p.table_id for p in tables)
    seated = {e for p in tables for e in seats_of(p)}
    (waiting,) = {e.pk for e in entries} - seated
    assert entry(waiting).free_since is not None
    assert all(entry(e).free_since is None for e in seated)
    for user, e in zip(users, entries, strict=True):
        note = Notification.objects.get(user=user)
        if e.pk == waiting:
            assert "as soon as enough players are free" in note.text
        else:
            assert "your table" in note.text and note.url.startswith("/table/")
    assert not advance(t)  # nothing more is due: the version is not bumped for nothing


def test_a_finished_table_frees_its_players_who_sit_down_again_at_once(cast):
    t = arena(cast["alice"], table_size=2)
    register(t, players(2))
    t = start(t)
    (first,) = playing_tables(t)
    win(first, seats_of(first)[0])
    (second,) = playing_tables(t)
    assert second.number == 2 and set(seats_of(second)) == set(seats_of(first))
    # Seat 0 goes to who waited longest, then to the fewest points: the loser of table 1.
    assert seats_of(second)[0] == seats_of(first)[1]


def test_players_who_just_met_are_mixed_with_the_others_when_tables_free_up_together(cast):
    t = arena(cast["alice"], table_size=2)
    register(t, players(4))
    t = start(t)
    one, two = playing_tables(t)
    services.tournament_pause(tournament_id=t.pk, by=cast["alice"])  # hold new tables
    win(one, seats_of(one)[0])
    win(two, seats_of(two)[0])
    assert not playing_tables(t)
    services.tournament_resume(tournament_id=t.pk, by=cast["alice"])
    advance(t)
    new = playing_tables(t)
    assert len(new) == 2
    for pairing in new:
        met = [p for p in (one, two) if set(seats_of(pairing)) == set(seats_of(p))]
        assert not met  # nobody plays their last opponent again
    # Near in points: the two winners meet, and the two losers.
    winners = {seats_of(one)[0], seats_of(two)[0]}
    assert any(set(seats_of(p)) == winners for p in new)


# --- scoring: the winning streak ---------------------------------------------------------------


def test_a_win_after_a_win_scores_double_and_any_other_result_ends_the_streak(cast):
    t = arena(cast["alice"], table_size=2)
    a, b = (e.pk for e in register(t, players(2)))
    t = start(t)
    win(table_of(t, a), a)
    assert points(t) == {a: 12, b: 0} and entry(a).streak == 1
    win(table_of(t, a), a)
    assert points(t) == {a: 36, b: 0} and entry(a).streak == 2
    doubled = PairingSeat.objects.get(entry_id=a, pairing__number=2)
    assert doubled.doubled and doubled.points == 24
    win(table_of(t, a), b)  # the streak ends; b's begins without a bonus
    assert points(t) == {a: 36, b: 12}
    assert (entry(a).streak, entry(b).streak) == (0, 1)
    assert not PairingSeat.objects.filter(entry_id=b, doubled=True).exists()


def test_a_win_at_an_abandoned_seat_ends_the_streak(cast):
    t = arena(cast["alice"], table_size=2)
    a, b = (e.pk for e in register(t, players(2)))
    t = start(t)
    win(table_of(t, a), a)
    win(table_of(t, a), a, abandoned=[a])  # a left: placed last
    assert entry(a).streak == 0 and points(t) == {a: 12, b: 12}


def test_a_corrected_result_keeps_the_bonus_of_a_winner_who_still_won(cast):
    t = arena(cast["alice"], table_size=2)
    a, b = (e.pk for e in register(t, players(2)))
    t = start(t)
    win(table_of(t, a), a)
    second = table_of(t, a)
    win(second, a)
    services.pairing_set_result(
        pairing_id=second.pk, by=cast["alice"], places={a: 1, b: 2}, scores={a: 99}
    )
    assert points(t) == {a: 36, b: 0}
    services.pairing_set_result(pairing_id=second.pk, by=cast["alice"], places={a: 2, b: 1})
    assert points(t) == {a: 12, b: 12}
    assert len(playing_tables(t)) == 1  # a correction frees nobody twice


# --- entrants: pause, late entry, withdrawal, removal --------------------------------------------


def test_a_paused_player_finishes_their_game_and_is_not_seated_until_they_play_on(cast):
    t = arena(cast["alice"], table_size=2)
    users = players(2)
    a, b = (e.pk for e in register(t, users))
    t = start(t)
    services.arena_pause(tournament_id=t.pk, user=users[0])
    assert entry(a).paused
    win(table_of(t, a), a)  # the game in progress counts
    assert not playing_tables(t) and points(t)[a] == 12
    assert not advance(t, after=600)
    services.arena_resume(tournament_id=t.pk, user=users[0])
    advance(t)
    assert set(seats_of(table_of(t, a))) == {a, b}
    # Pausing twice, or playing on unpaused, changes nothing.
    services.arena_resume(tournament_id=t.pk, user=users[0])
    assert not entry(a).paused


def test_only_an_entrant_of_a_running_arena_pauses(cast):
    swiss = tournament(cast["alice"], table_size=2)
    t = arena(cast["alice"], table_size=2)
    users = players(2)
    register(swiss, users)
    register(t, users)
    with pytest.raises(LadderError, match="tournament_not_running"):
        services.arena_pause(tournament_id=t.pk, user=users[0])  # not started
    start(swiss)
    with pytest.raises(LadderError, match="not_arena"):
        services.arena_pause(tournament_id=swiss.pk, user=users[0])
    start(t)
    with pytest.raises(LadderError, match="not_registered"):
        services.arena_pause(tournament_id=t.pk, user=cast["bob"])
    with pytest.raises(LadderError, match="tournament_not_found"):
        services.arena_resume(tournament_id=0, user=users[0])
    with pytest.raises(LadderError, match="not_organizer"):
        services.tournament_end_now(tournament_id=t.pk, by=users[0])


def test_a_late_entrant_joins_a_running_arena_and_is_seated_with_a_waiting_player(cast):
    t = arena(cast["alice"], table_size=2)
    users = players(3)
    entries = register(t, users)
    t = start(t)
    assert t.registration_open()
    (waiting,) = [e.pk for e in entries if entry(e.pk).free_since is not None]
    late = services.tournament_register(tournament_id=t.pk, user=cast["bob"])
    assert late.free_since is not None and late.first_round == 1
    advance(t)
    assert set(seats_of(table_of(t, late.pk))) == {late.pk, waiting}
    # After the end nobody joins.
    with pytest.raises(LadderError, match="registration_closed"):
        services.tournament_register(
            tournament_id=t.pk, user=cast["carol"], now=t.ends_at + timedelta(seconds=1)
        )


def test_a_withdrawn_player_keeps_their_points_and_is_not_seated_again(cast):
    t = arena(cast["alice"], table_size=2)
    users = players(3)
    a, b, c = (e.pk for e in register(t, users))
    t = start(t)
    table = playing_tables(t)[0]
    leaver, other = seats_of(table)
    services.tournament_withdraw(tournament_id=t.pk, user=Entry.objects.get(pk=leaver).user)
    win(table, leaver)  # the game they were playing still counts
    assert points(t)[leaver] == 12
    assert all(leaver not in seats_of(p) for p in playing_tables(t))
    assert entry(leaver).free_since is None
    with pytest.raises(LadderError):
        services.tournament_register(tournament_id=t.pk, user=entry(leaver).user)


def test_the_organizer_removes_a_player_whose_game_still_counts(cast):
    t = arena(cast["alice"], table_size=2)
    register(t, players(4))
    t = start(t)
    one, _two = playing_tables(t)
    gone, stays = seats_of(one)
    services.entry_remove(tournament_id=t.pk, by=cast["alice"], entry_id=gone)
    win(one, gone)
    assert points(t)[gone] == 12 and entry(gone).status == "removed"
    assert all(gone not in seats_of(p) for p in playing_tables(t))
    assert entry(stays).free_since is not None  # waiting for the next free player


def test_the_organizer_adds_a_bot_to_a_running_arena_who_plays_at_once(cast):
    t = arena(cast["alice"], table_size=2)
    entries = register(t, players(3))
    t = start(t)
    (waiting,) = [e.pk for e in entries if entry(e.pk).free_since is not None]
    bot = services.entry_add_bot(tournament_id=t.pk, by=cast["alice"], level="easy")
    assert bot.free_since is not None and not bot.paused
    advance(t)
    assert set(seats_of(table_of(t, bot.pk))) == {bot.pk, waiting}


# --- the end -----------------------------------------------------------------------------------


def test_the_arena_ends_on_time_once_the_games_in_progress_have_their_results(cast):
    t = arena(cast["alice"], table_size=2, duration_minutes=10)
    users = players(4)
    register(t, users)
    t = start(t)
    one, two = playing_tables(t)
    assert not advance(t, after=9 * 60)
    later = t.ends_at + timedelta(seconds=1)
    assert not services.tournament_advance(tournament_id=t.pk, now=later)  # games in play
    assert t.rounds.get().status == "playing"
    # The ten minutes are over (as if the games took that long): no new table from now on.
    Tournament.objects.filter(pk=t.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    win(one, seats_of(one)[0])  # reported after the end: it counts, and no table opens
    assert playing_tables(t) == [two]
    assert Tournament.objects.get(pk=t.pk).status == "running"
    win(two, seats_of(two)[1])  # the last game's report finishes the arena
    t.refresh_from_db()
    assert t.status == "finished" and t.rounds.get().status == "finished"
    assert sorted(points(t).values()) == [0, 0, 12, 12]
    assert Notification.objects.filter(text__contains="is over: you finished").count() == 4


def test_the_organizer_ends_the_arena_now_and_the_games_in_progress_count(cast):
    t = arena(cast["alice"], table_size=2)
    a, b, c, d = (e.pk for e in register(t, players(4)))
    t = start(t)
    one, two = playing_tables(t)
    win(one, seats_of(one)[0])
    three = table_of(t, seats_of(one)[0])
    services.tournament_end_now(tournament_id=t.pk, by=cast["alice"])
    t.refresh_from_db()
    assert t.status == "running" and t.ends_at <= timezone.now()
    assert not t.registration_open()
    win(two, seats_of(two)[0])
    assert {p.pk for p in playing_tables(t)} == {three.pk}  # no new table after the end
    win(three, seats_of(one)[0])  # the winner of table 1 wins again
    t.refresh_from_db()
    assert t.status == "finished"
    assert sum(points(t).values()) == 12 * 3 + 12  # three games, one of them doubled
    with pytest.raises(LadderError, match="tournament_over"):
        services.tournament_end_now(tournament_id=t.pk, by=cast["alice"])


def test_ending_an_arena_with_no_game_in_progress_finishes_it_at_once(cast):
    t = arena(cast["alice"], table_size=2)
    register(t, players(2))
    t = start(t)
    services.tournament_pause(tournament_id=t.pk, by=cast["alice"])
    win(playing_tables(t)[0], seats_of(playing_tables(t)[0])[0])
    services.tournament_end_now(tournament_id=t.pk, by=cast["alice"])
    assert Tournament.objects.get(pk=t.pk).status == "finished"  # a pause does not hold it


def test_a_swiss_is_not_ended_now(cast):
    t = tournament(cast["alice"], table_size=2)
    register(t, players(2))
    start(t)
    with pytest.raises(LadderError, match="not_arena"):
        services.tournament_end_now(tournament_id=t.pk, by=cast["alice"])


def test_a_rated_arena_sends_its_games_to_the_ladder_when_it_ends(cast):
    league = LeagueFactory()
    MembershipFactory(league=league, user=cast["alice"], role="admin")
    users = players(2)
    for user in users:
        MembershipFactory(league=league, user=user)
    t = arena(cast["alice"], league=league, rated=True, table_size=2)
    a, _b = (e.pk for e in register(t, users))
    t = start(t)
    win(table_of(t, a), a)
    second = table_of(t, a)
    assert second.table.rated and second.table.league == league
    services.tournament_end_now(tournament_id=t.pk, by=cast["alice"])
    assert not Match.objects.exists()
    win(second, a)
    assert services.tournament_rate(tournament_id=t.pk) == 2
    assert Match.objects.filter(league=league).count() == 2


# --- bots that fill a table --------------------------------------------------------------------


def test_bots_fill_a_table_for_a_player_who_waited_and_are_reused(cast):
    t = arena(cast["alice"], table_size=3, allow_smaller=False, bot_fill_seconds=60,
              bot_fill_level="easy")  # fmt: skip
    entries = register(t, players(4))
    t = start(t)
    (waiting,) = [e.pk for e in entries if entry(e.pk).free_since is not None]
    assert not advance(t, after=30)
    assert advance(t, after=61)
    table = table_of(t, waiting)
    stand_ins = [e for e in seats_of(table) if e != waiting]
    assert len(stand_ins) == 2
    assert all(entry(e).user_id is None and entry(e).bot_level == "easy" for e in stand_ins)
    assert all(entry(e).paused for e in stand_ins)  # never seated on their own
    win(table, waiting)
    # The player waits again; the stand-ins are free but never start a table alone.
    assert advance(t, after=200) and Entry.objects.filter(user__isnull=True).count() == 2
    assert set(seats_of(table_of(t, waiting))) == {waiting, *stand_ins}
    assert points(t)[waiting] == 12
    names = {row.player for row in Tournament.objects.get(pk=t.pk).standings()}
    assert set(stand_ins) <= names  # the bots are ranked like any entrant


def test_bots_never_play_a_table_of_their_own(cast):
    t = arena(cast["alice"], table_size=2, bot_fill_seconds=10)
    users = players(3)
    entries = register(t, users)
    t = start(t)
    (waiting,) = [e for e in entries if entry(e.pk).free_since is not None]
    assert advance(t, after=11)
    table = table_of(t, waiting.pk)
    services.arena_pause(tournament_id=t.pk, user=waiting.user)
    win(table, waiting.pk)
    assert not advance(t, after=600)  # the stand-in is free, and alone with no human
    assert all(waiting.pk not in seats_of(p) for p in playing_tables(t))
    assert len(playing_tables(t)) == 1  # only the humans' first table


def test_no_bot_fills_a_table_unless_the_organizer_allows_it(cast):
    t = arena(cast["alice"], table_size=2)
    register(t, players(3))
    t = start(t)
    assert not advance(t, after=3600 - 1)
    assert not Entry.objects.filter(user__isnull=True).exists()
    with pytest.raises(LadderError, match="invalid_tournament"):
        league = LeagueFactory()
        MembershipFactory(league=league, user=cast["alice"], role="admin")
        arena(cast["alice"], league=league, rated=True, bot_fill_seconds=30)


# --- the page, the API and the exports ---------------------------------------------------------


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.fixture
def running(cast):
    """A running arena of tables of 2: bob won his first table and plays again; carol is
    paused at her table; dave has just joined and waits."""
    t = arena(cast["alice"], table_size=2, allow_smaller=False)
    users = [cast["bob"], *players(2), cast["carol"]]
    entries = {e.user.username: e.pk for e in register(t, users)}
    t = start(t)
    bob = entries["bob"]
    win(table_of(t, bob), bob)
    services.arena_pause(tournament_id=t.pk, user=cast["carol"])
    entries["dave"] = services.tournament_register(tournament_id=t.pk, user=cast["dave"]).pk
    return t, entries


def test_the_standings_are_a_live_leaderboard_with_streaks_and_who_plays_now(cast, running):
    t, entries = running
    page = client_for(cast["dave"]).get(t.get_absolute_url())
    html = page.content.decode()
    assert page.status_code == 200
    rows = {row["entry"].pk: row for row in page.context["standings"]}
    assert rows[entries["bob"]]["streak"] == "\u2605 1"
    assert rows[entries["bob"]]["state"] == "\u25b6"
    assert rows[entries["carol"]]["state"] == "\u25b6"  # paused, but still at her table
    assert rows[entries["dave"]]["state"] == "" and rows[entries["dave"]]["streak"] == ""
    assert 'id="arena-legend"' in html and 'id="arena-ends"' in html
    assert f'datetime="{t.ends_at.isoformat()[:19]}' in html
    assert "Arena running" in html and "crosstable/" not in html
    assert "a win right after a win scores double points" in html
    assert 'id="arena-pause"' in html and 'id="end-now"' not in html
    # The live model the page applies diffs to carries the same fields.
    model = client_for().get(reverse("tournament_standings_json", args=[t.slug])).json()
    fields = model["fields"]
    bob = next(r for r in model["rows"] if r[0] == entries["bob"])
    assert bob[fields.index("streak")] == "\u2605 1"


def test_a_paused_entrant_sees_play_on_and_the_organizer_the_end_button(cast, running):
    t, entries = running
    carol = client_for(cast["carol"]).get(t.get_absolute_url()).content.decode()
    assert 'id="arena-resume"' in carol and 'id="arena-paused"' in carol
    organizer = client_for(cast["alice"]).get(t.get_absolute_url()).content.decode()
    assert 'id="end-now"' in organizer


def test_an_entrant_pauses_and_plays_on_through_the_page(cast, running):
    t, entries = running
    client = client_for(cast["dave"])
    response = client.post(reverse("tournament_arena_pause", args=[t.slug]), follow=True)
    assert "You are paused" in " ".join(messages_of(response))
    assert entry(entries["dave"]).paused
    response = client.post(reverse("tournament_arena_resume", args=[t.slug]), follow=True)
    assert "You are back" in " ".join(messages_of(response))
    assert not entry(entries["dave"]).paused
    # Not an entrant, or a GET: refused, nothing changes.
    response = client_for(cast["alice"]).post(
        reverse("tournament_arena_pause", args=[t.slug]), follow=True
    )
    assert "not registered" in " ".join(messages_of(response))
    assert client.get(reverse("tournament_arena_pause", args=[t.slug])).status_code == 405


def test_the_organizer_ends_the_arena_through_the_page_and_no_one_else_can(cast, running):
    t, _entries = running
    url = reverse("tournament_control", args=[t.slug, "end"])
    response = client_for(cast["dave"]).post(url, follow=True)
    assert "Only the tournament's organizer" in " ".join(messages_of(response))
    assert Tournament.objects.get(pk=t.pk).ends_at > timezone.now()
    client_for(cast["alice"]).post(url, follow=True)
    t.refresh_from_db()
    assert t.ends_at <= timezone.now() and t.status == "running"  # two games in progress
    page = client_for(cast["alice"]).get(t.get_absolute_url()).content.decode()
    assert 'id="end-now"' not in page and "games in progress finish" in page


def test_the_api_pauses_resumes_and_ends_an_arena(cast, running):
    t, entries = running
    base = f"/api/v1/tournaments/{t.slug}/"
    dave = client_for(cast["dave"])
    assert dave.post(base + "arena/pause/").status_code == 200
    assert entry(entries["dave"]).paused
    assert dave.post(base + "arena/resume/").status_code == 200
    assert not entry(entries["dave"]).paused
    assert dave.post(base + "end/").status_code == 403
    assert client_for().post(base + "arena/pause/").status_code in (401, 403)
    response = client_for(cast["alice"]).post(base + "end/")
    assert response.status_code == 200 and response.json()["status"] == "running"
    assert client_for(cast["alice"]).post(base + "arena/pause/").status_code == 409
    swiss = tournament(cast["alice"], name="Swiss")
    response = client_for(cast["alice"]).post(f"/api/v1/tournaments/{swiss.slug}/end/")
    assert response.status_code == 409


def test_the_exports_carry_each_entrants_streak_and_pause(cast, running):
    t, entries = running
    data = client_for().get(reverse("tournament_export", args=[t.slug, "json"])).json()
    rows = {row["entry"]: row for row in data["standings"]}
    assert rows[entries["bob"]]["streak"] == 1 and rows[entries["carol"]]["paused"] is True
    assert data["tournament"]["format"] == "arena" and data["tournament"]["ends_at"]
    text = client_for().get(reverse("tournament_export", args=[t.slug, "csv"])).content.decode()
    assert text.splitlines()[0].endswith("streak,paused")


def test_an_arena_starts_with_one_entrant_and_seats_those_who_join(cast):
    t = arena(cast["alice"], table_size=2)
    first, later = players(2)
    (alone,) = register(t, [first])
    start(t)
    assert t.status == "running" and not playing_tables(t)
    (joined,) = register(t, [later])
    advance(t)
    assert set(seats_of(playing_tables(t)[0])) == {alone.pk, joined.pk}
