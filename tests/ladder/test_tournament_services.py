"""Swiss tournament use cases on the database: set-up, entries, rounds, results, controls.

Games are ended here the way the ``game_finished`` task reports them (``finish_table``);
tests/ladder/test_tournament_live.py plays whole tournaments with bots and a real worker.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Seat, Table
from ladder import services
from ladder.errors import LadderError
from ladder.models import Entry, Match, Pairing, PairingSeat, Rating, Round, Tournament
from tests.factories import UserFactory
from tests.ladder.factories import (
    LeagueFactory,
    MembershipFactory,
    finish_round,
    finish_table,
    playing_tables,
    register,
    tournament,
)
from ttr_site.accounts.models import Notification

pytestmark = pytest.mark.django_db


def players(n, prefix="p"):
    return [UserFactory(username=f"{prefix}{i}") for i in range(n)]


def rated(league, users, ratings):
    for user, value in zip(users, ratings, strict=True):
        Rating.objects.create(league=league, user=user, time_control="realtime", rating=value)


def start(t):
    return services.tournament_start_now(tournament_id=t.pk, by=t.organizer)


def seats_of(pairing):
    return list(pairing.seats.order_by("seat").values_list("entry_id", flat=True))


def current_round(t):
    return t.rounds.order_by("-number").first()


def points(t):
    return {row.player: row.points for row in t.standings()}


# --- set-up ---------------------------------------------------------------------------------


def test_an_organizer_announces_a_tournament_with_its_settings(cast):
    t = tournament(
        cast["alice"], name="Spring Cup", table_size=3, allow_smaller=False, round_count=5,
        move_seconds=60, bank_seconds=30, checkin_minutes=15, points_scheme="winner",
        tiebreaks=["game_points", "buchholz"], late_registration_rounds=2,
    )  # fmt: skip
    t.refresh_from_db()
    assert (t.slug, t.status, t.organizer, t.table_size, t.min_table) == (
        "spring-cup", "registration", cast["alice"], 3, 3
    )  # fmt: skip
    assert t.tiebreaks == ["game_points", "buchholz"]
    assert tournament(cast["alice"], name="Spring Cup").slug == "spring-cup-2"


def test_a_tournament_called_new_does_not_hide_behind_the_creation_page(cast):
    assert tournament(cast["alice"], name="New").slug == "new-2"


@pytest.mark.parametrize(
    "bad",
    [
        {"starts_at": timezone.now() - timedelta(minutes=1)},
        {"ruleset": "new_york", "variant": "standard", "table_size": 5},
        {"table_size": 6},
        {"round_count": 0},
        {"rated": True},
        {"late_registration_rounds": 9, "round_count": 4},
        {"tiebreaks": ["buchholz", "buchholz"]},
        {"tiebreaks": ["height"]},
        {"points_scheme": "fibonacci"},
        {"move_seconds": 5},
        {"registration_closes_at": timezone.now() + timedelta(days=3)},
        {"max_players": 1},
        {"name": "   "},
    ],
)
def test_settings_that_could_not_run_are_refused_and_nothing_is_saved(cast, bad):
    with pytest.raises(LadderError) as refused:
        tournament(cast["alice"], **bad)
    assert refused.value.code == "invalid_tournament"
    assert not Tournament.objects.exists()


def test_only_a_leagues_admins_run_its_tournaments_in_its_game(cast):
    league = LeagueFactory()
    MembershipFactory(league=league, user=cast["alice"], role="admin")
    MembershipFactory(league=league, user=cast["bob"])
    assert tournament(cast["alice"], league=league, rated=True).rated
    for by, extra in [(cast["bob"], {}), (cast["alice"], {"ruleset": "new_york",
                                                          "variant": "standard"})]:  # fmt: skip
        with pytest.raises(LadderError):
            tournament(by, league=league, **extra)


# --- entries --------------------------------------------------------------------------------


def test_players_register_and_withdraw_within_the_window(cast):
    t = tournament(cast["alice"], registration_opens_at=timezone.now() - timedelta(hours=1))
    (entry,) = register(t, [cast["bob"]])
    assert entry.is_active and entry.first_round == 1
    with pytest.raises(LadderError, match="already_registered"):
        register(t, [cast["bob"]])
    services.tournament_withdraw(tournament_id=t.pk, user=cast["bob"])
    assert Entry.objects.get(pk=entry.pk).status == "withdrawn"
    register(t, [cast["bob"]])  # back in before the start
    assert Entry.objects.get(pk=entry.pk).is_active
    with pytest.raises(LadderError, match="not_registered"):
        services.tournament_withdraw(tournament_id=t.pk, user=cast["carol"])


@pytest.mark.parametrize(
    "window",
    [
        {"registration_opens_at": timezone.now() + timedelta(minutes=10)},
        {"registration_closes_at": timezone.now() + timedelta(minutes=10)},
    ],
)
def test_registration_outside_its_window_is_refused(cast, window):
    t = tournament(cast["alice"], **window)
    now = timezone.now() + timedelta(minutes=20) if "registration_closes_at" in window else None
    with pytest.raises(LadderError, match="registration_closed"):
        services.tournament_register(tournament_id=t.pk, user=cast["bob"], now=now)
    assert not t.entries.exists()


def test_a_full_tournament_takes_nobody_else(cast):
    t = tournament(cast["alice"], max_players=2, table_size=2)
    register(t, [cast["bob"], cast["carol"]])
    with pytest.raises(LadderError, match="tournament_full"):
        register(t, [cast["dave"]])


def test_a_public_league_is_joined_on_the_way_in_and_a_private_one_refuses_strangers(cast):
    public = LeagueFactory()
    private = LeagueFactory(is_private=True)
    for league in (public, private):
        MembershipFactory(league=league, user=cast["alice"], role="admin")
    register(tournament(cast["alice"], league=public), [cast["bob"]])
    assert public.memberships.filter(user=cast["bob"]).exists()
    with pytest.raises(LadderError, match="not_member"):
        register(tournament(cast["alice"], league=private), [cast["bob"]])


def test_check_in_opens_before_the_start_and_no_shows_are_dropped(cast):
    t = tournament(cast["alice"], checkin_minutes=30, table_size=2)
    users = [cast["bob"], cast["carol"], cast["dave"]]
    register(t, users)
    with pytest.raises(LadderError, match="checkin_closed"):
        services.tournament_check_in(tournament_id=t.pk, user=cast["bob"])
    soon = t.starts_at - timedelta(minutes=10)
    for user in users[:2]:
        services.tournament_check_in(tournament_id=t.pk, user=user, now=soon)
    assert services.tournament_advance(tournament_id=t.pk, now=soon)  # announces check-in
    assert Notification.objects.filter(user=cast["dave"], text__contains="Check-in").exists()
    services.tournament_advance(tournament_id=t.pk, now=t.starts_at)
    assert t.entries.get(user=cast["dave"]).status == "no_show"
    assert Notification.objects.filter(user=cast["dave"], text__contains="did not check in")
    (table,) = playing_tables(t)
    assert {Entry.objects.get(pk=e).user for e in seats_of(table)} == {cast["bob"], cast["carol"]}


def test_a_tournament_too_small_for_one_table_is_cancelled_at_the_start(cast):
    t = tournament(cast["alice"], table_size=4, allow_smaller=True)
    register(t, [cast["bob"], cast["carol"]])
    start(t)
    t.refresh_from_db()
    assert t.status == "cancelled" and not t.rounds.exists()
    assert Notification.objects.filter(user=cast["bob"], text__contains="too few").exists()


def test_bots_enter_only_unrated_tournaments(cast):
    league = LeagueFactory()
    MembershipFactory(league=league, user=cast["alice"], role="admin")
    entry = services.entry_add_bot(
        tournament_id=tournament(cast["alice"]).pk, by=cast["alice"], level="hard"
    )
    assert entry.bot_level == "hard" and entry.rating == 1650
    rated_cup = tournament(cast["alice"], league=league, rated=True)
    with pytest.raises(LadderError, match="bots_unrated_only"):
        services.entry_add_bot(tournament_id=rated_cup.pk, by=cast["alice"], level="easy")


def test_an_organizer_cannot_enter_a_person_only_invite_them(cast):
    assert not hasattr(services, "entry_add")
    t = tournament(cast["alice"], table_size=2, allow_smaller=False)
    invitation = services.entry_invite(tournament_id=t.pk, by=cast["alice"], user=cast["bob"])
    assert invitation.status == "pending" and not t.entries.exists()
    note = Notification.objects.get(user=cast["bob"])
    assert "Alice invites you to Spring Cup" in note.text and note.url == t.get_absolute_url()
    with pytest.raises(LadderError, match="already_invited"):
        services.entry_invite(tournament_id=t.pk, by=cast["alice"], user=cast["bob"])
    register(t, [cast["carol"], cast["dave"]])
    start(t)  # an invited player who has not accepted is never paired
    (table,) = playing_tables(t)
    assert {Entry.objects.get(pk=e).user for e in seats_of(table)} == {cast["carol"], cast["dave"]}
    assert not t.entries.filter(user=cast["bob"]).exists()


def test_an_accepted_invitation_enters_the_player_and_tells_the_organizer(cast):
    t = tournament(cast["alice"], table_size=2)
    services.entry_invite(tournament_id=t.pk, by=cast["alice"], user=cast["bob"])
    entry = services.invitation_accept(tournament_id=t.pk, user=cast["bob"])
    assert entry.is_active and entry.user == cast["bob"]
    assert t.invitations.get().status == "accepted"
    assert Notification.objects.filter(user=cast["alice"], text__contains="Bob accepted").exists()
    with pytest.raises(LadderError, match="no_invitation"):
        services.invitation_accept(tournament_id=t.pk, user=cast["bob"])
    with pytest.raises(LadderError, match="already_entered"):
        services.entry_invite(tournament_id=t.pk, by=cast["alice"], user=cast["bob"])


def test_a_declined_invitation_enters_nobody_and_is_not_sent_again(cast):
    t = tournament(cast["alice"])
    services.entry_invite(tournament_id=t.pk, by=cast["alice"], user=cast["bob"])
    services.invitation_decline(tournament_id=t.pk, user=cast["bob"])
    assert not t.entries.exists() and t.invitations.get().status == "declined"
    assert Notification.objects.filter(user=cast["alice"], text__contains="Bob declined").exists()
    with pytest.raises(LadderError, match="no_invitation"):
        services.invitation_accept(tournament_id=t.pk, user=cast["bob"])
    with pytest.raises(LadderError, match="invitation_declined"):
        services.entry_invite(tournament_id=t.pk, by=cast["alice"], user=cast["bob"])
    register(t, [cast["bob"]])  # they may still enter by themselves


def test_accepting_has_the_checks_of_registering(cast):
    now = timezone.now()
    closed = tournament(cast["alice"], registration_closes_at=now + timedelta(minutes=5))
    services.entry_invite(tournament_id=closed.pk, by=cast["alice"], user=cast["bob"])
    with pytest.raises(LadderError, match="registration_closed"):
        services.invitation_accept(tournament_id=closed.pk, user=cast["bob"],
                                   now=now + timedelta(minutes=10))  # fmt: skip
    assert closed.invitations.get().status == "pending" and not closed.entries.exists()
    full = tournament(cast["alice"], max_players=2, table_size=2, name="Full")
    services.entry_invite(tournament_id=full.pk, by=cast["alice"], user=cast["bob"])
    register(full, [cast["carol"], cast["dave"]])
    with pytest.raises(LadderError, match="tournament_full"):
        services.invitation_accept(tournament_id=full.pk, user=cast["bob"])
    private = LeagueFactory(is_private=True)
    MembershipFactory(league=private, user=cast["alice"], role="admin")
    club = tournament(cast["alice"], league=private, name="Club Cup")
    with pytest.raises(LadderError, match="invitee_not_member"):
        services.entry_invite(tournament_id=club.pk, by=cast["alice"], user=cast["bob"])
    MembershipFactory(league=private, user=cast["bob"])
    services.entry_invite(tournament_id=club.pk, by=cast["alice"], user=cast["bob"])
    private.memberships.filter(user=cast["bob"]).delete()  # removed before answering
    with pytest.raises(LadderError, match="not_member"):
        services.invitation_accept(tournament_id=club.pk, user=cast["bob"])
    assert not club.entries.exists()


def test_only_the_organizer_or_staff_control_a_tournament(cast):
    t = tournament(cast["alice"])
    register(t, [cast["bob"]])
    bob_entry = t.entries.get()
    calls = [
        lambda by: services.tournament_pause(tournament_id=t.pk, by=by),
        lambda by: services.tournament_start_now(tournament_id=t.pk, by=by),
        lambda by: services.entry_invite(tournament_id=t.pk, by=by, user=cast["dave"]),
        lambda by: services.entry_add_bot(tournament_id=t.pk, by=by),
        lambda by: services.entry_remove(tournament_id=t.pk, by=by, entry_id=bob_entry.pk),
        lambda by: services.tournament_cancel(tournament_id=t.pk, by=by),
    ]
    for call in calls:
        with pytest.raises(LadderError, match="not_organizer"):
            call(cast["carol"])
    assert t.entries.count() == 1 and Tournament.objects.get().status == "registration"
    staff = UserFactory(username="staffer", is_staff=True)
    services.tournament_pause(tournament_id=t.pk, by=staff)
    assert Tournament.objects.get().paused


# --- rounds -----------------------------------------------------------------------------------


def test_round_one_is_dealt_by_rating_and_tables_open_in_seat_order(cast, europe):
    users = players(8)
    rated(europe, users, [1500 + 10 * i for i in range(8)])  # p7 strongest
    t = tournament(cast["alice"], table_size=4, move_seconds=45, bank_seconds=20)
    entries = {e.user_id: e.pk for e in register(t, users)}
    start(t)
    top, bottom = playing_tables(t)
    # docs/tournaments.md "Pairing": everyone is on 0 points, dealt strongest first (a slide)
    assert set(seats_of(top)) == {entries[u.pk] for u in users[7::-2]}  # p7, p5, p3, p1
    assert set(seats_of(bottom)) == {entries[u.pk] for u in users[6::-2]}  # p6, p4, p2, p0
    live = Table.objects.get(pk=top.table_id)
    assert (live.status, live.move_seconds, live.bank_seconds, live.rated) == (
        "playing", 45, 20, False
    )  # fmt: skip
    seated = list(Seat.objects.filter(table=live).order_by("position").values_list("user_id"))
    assert [Entry.objects.get(pk=e).user_id for e in seats_of(top)] == [u for (u,) in seated]
    assert Notification.objects.filter(user=users[7], text__contains="table 1").exists()


def test_a_round_waits_for_its_last_table_then_the_next_is_paired_from_the_standings(cast):
    t = tournament(cast["alice"], table_size=4, round_count=3)
    register(t, players(8))
    start(t)
    first, second = playing_tables(t)
    finish_table(first)
    assert current_round(t).number == 1 and current_round(t).status == "playing"
    finish_table(second)
    assert [(r.number, r.status) for r in t.rounds.order_by("number")] == [
        (1, "finished"), (2, "playing")
    ]  # fmt: skip
    # Linear points: 12, 8, 4, 0 by seat order at both tables.
    assert sorted(points(t).values()) == [0, 0, 4, 4, 8, 8, 12, 12]
    top = playing_tables(t)[0]
    winners = {seats_of(first)[0], seats_of(second)[0]}
    assert winners <= set(seats_of(top))  # the two winners meet in round 2


def test_no_repeat_pairing_when_the_field_allows_it(cast):
    t = tournament(cast["alice"], table_size=2, round_count=3)
    register(t, players(4))
    start(t)
    met = set()
    for _round in range(3):
        for table in playing_tables(t):
            pair = frozenset(seats_of(table))
            assert pair not in met
            met.add(pair)
        finish_round(t)
    assert Tournament.objects.get().status == "finished"


def test_a_double_trigger_never_pairs_a_round_twice(cast):
    t = tournament(cast["alice"], table_size=2, round_count=2)
    register(t, players(4))
    start(t)
    finish_round(t)
    assert not services.tournament_advance(tournament_id=t.pk)
    assert not services.tournament_advance(tournament_id=t.pk)
    assert t.rounds.count() == 2 and Pairing.objects.filter(round__number=2).count() == 2


def test_a_bye_only_for_the_player_left_over_and_never_twice_while_avoidable(cast, europe):
    users = players(5)
    rated(europe, users, [1600, 1580, 1560, 1540, 1520])
    t = tournament(cast["alice"], table_size=4, allow_smaller=True, round_count=2)
    entries = register(t, users)
    start(t)
    (bye,) = Pairing.objects.filter(round__number=1, is_bye=True)
    (lowest,) = seats_of(bye)
    assert lowest == entries[4].pk  # the lowest rated
    assert PairingSeat.objects.get(pairing=bye).points == 6.0  # the average result
    finish_round(t)
    (bye2,) = Pairing.objects.filter(round__number=2, is_bye=True)
    assert seats_of(bye2) != [lowest]


def test_a_game_result_with_an_abandoned_seat_places_it_last(cast):
    t = tournament(cast["alice"], table_size=3, round_count=1)
    register(t, players(3))
    start(t)
    (table,) = playing_tables(t)
    finish_table(table, [1, 2, 3], abandoned=[0])  # seat 0 won with a bot, but had left
    seats = list(PairingSeat.objects.filter(pairing=table).order_by("seat"))
    assert [(s.place, s.points, s.abandoned) for s in seats] == [
        (3, 0, True), (1, 12, False), (2, 6, False)
    ]  # fmt: skip


def test_the_winner_scheme_gives_the_table_to_its_winner(cast):
    t = tournament(cast["alice"], table_size=4, round_count=1, points_scheme="winner")
    register(t, players(4))
    start(t)
    finish_table(playing_tables(t)[0], [2, 1, 3, 4])
    assert sorted(points(t).values()) == [0, 0, 0, 24]


# --- people come and go mid-tournament --------------------------------------------------------


def test_a_withdrawal_in_the_middle_keeps_the_results_and_pairs_the_player_no_more(cast):
    t = tournament(cast["alice"], table_size=2, round_count=3)
    users = players(4)
    entries = {e.user_id: e for e in register(t, users)}
    start(t)
    finish_round(t)  # round 1 done, round 2 in play
    leaver = users[0]
    services.tournament_withdraw(tournament_id=t.pk, user=leaver)
    mine = Pairing.objects.get(round__number=2, seats__entry=entries[leaver.pk])
    assert mine.status == "playing"  # the game in progress is theirs to finish
    finish_round(t)
    third = Pairing.objects.filter(round__number=3)
    assert not third.filter(seats__entry=entries[leaver.pk]).exists()
    assert third.filter(is_bye=True).count() == 1  # three players left: one bye
    row = next(r for r in t.standings() if r.player == entries[leaver.pk].pk)
    assert row.games == 2


def test_late_registration_joins_from_the_next_round_until_its_limit(cast):
    t = tournament(cast["alice"], table_size=2, round_count=3, late_registration_rounds=2)
    register(t, players(4))
    start(t)
    (late,) = register(t, [cast["bob"]])  # round 1 in play: joins from round 2
    assert (late.first_round, late.checked_in_at is not None) == (2, True)
    finish_round(t)
    assert Pairing.objects.filter(round__number=2, seats__entry=late).exists()
    finish_round(t)
    with pytest.raises(LadderError, match="registration_closed"):
        register(t, [cast["carol"]])  # round 3 started: past the limit
    assert Pairing.objects.filter(round__number=3, seats__entry=late).exists()
    row = next(r for r in t.standings() if r.player == late.pk)
    assert row.games + row.byes == 1  # round 2 counted; a late entrant starts from zero


def test_a_change_between_pairing_and_start_is_paired_again(cast):
    t = tournament(cast["alice"], table_size=2, round_count=2, late_registration_rounds=2)
    t.round_break_seconds = 600
    t.save()
    register(t, players(4))
    start(t)
    finish_round(t)
    paired = current_round(t)
    assert paired.status == "paired"
    services.entry_invite(tournament_id=t.pk, by=cast["alice"], user=cast["bob"])
    services.invitation_accept(tournament_id=t.pk, user=cast["bob"])
    services.tournament_advance(tournament_id=t.pk, now=paired.starts_at)
    started = Round.objects.get(pk=paired.pk)
    assert started.status == "playing" and len(started.roster) == 5
    assert Pairing.objects.filter(round=started, seats__entry__user=cast["bob"]).exists()


def test_a_removed_player_is_told_and_never_paired_again(cast):
    t = tournament(cast["alice"], table_size=2, round_count=2)
    users = players(4)
    register(t, users)
    start(t)
    entry = t.entries.get(user=users[1])
    services.entry_remove(tournament_id=t.pk, by=cast["alice"], entry_id=entry.pk)
    assert Notification.objects.filter(user=users[1], text__contains="removed you").exists()
    finish_round(t)
    assert not Pairing.objects.filter(round__number=2, seats__entry=entry).exists()


# --- the organizer's hand -------------------------------------------------------------------


def test_pause_holds_the_next_round_and_resume_starts_it(cast):
    t = tournament(cast["alice"], table_size=2, round_count=2)
    register(t, players(4))
    start(t)
    services.tournament_pause(tournament_id=t.pk, by=cast["alice"])
    finish_round(t)
    assert current_round(t).status == "paired"  # paired, held
    assert not services.tournament_advance(tournament_id=t.pk)
    services.tournament_resume(tournament_id=t.pk, by=cast["alice"])
    services.tournament_advance(tournament_id=t.pk)
    assert current_round(t).status == "playing"


def test_a_round_can_be_paired_again_before_it_starts_but_not_after(cast):
    t = tournament(cast["alice"], table_size=2, round_count=2, round_break_seconds=600)
    register(t, players(4))
    start(t)
    with pytest.raises(LadderError, match="round_started"):
        services.round_repair(tournament_id=t.pk, by=cast["alice"], number=1)
    finish_round(t)
    services.round_repair(tournament_id=t.pk, by=cast["alice"], number=2)
    assert Pairing.objects.filter(round__number=2).count() == 2


def test_the_organizer_sets_the_result_of_a_table_in_play_which_ends_it(cast):
    t = tournament(cast["alice"], table_size=3, round_count=2)
    register(t, players(3))
    start(t)
    (table,) = playing_tables(t)
    first, second, third = seats_of(table)
    services.pairing_set_result(
        pairing_id=table.pk, by=cast["alice"], places={first: 3, second: 1, third: 1},
        scores={second: 77},
    )  # fmt: skip
    live = Table.objects.get(pk=table.table_id)
    assert (live.status, live.ended_early) == ("finished", True)
    assert Game.objects.get(table=live).deadline is None
    assert Pairing.objects.get(pk=table.pk).status == "set"
    assert points(t) == {first: 0, second: 9, third: 9}  # shared first of three: (12 + 6) / 2
    assert PairingSeat.objects.get(pairing=table, entry_id=second).score == 77
    assert current_round(t).number == 2  # the round was complete: the next one runs


def test_the_organizer_corrects_a_finished_result(cast):
    t = tournament(cast["alice"], table_size=2, round_count=2)
    register(t, players(2))
    start(t)
    (table,) = playing_tables(t)
    finish_table(table, [1, 2])
    a, b = seats_of(table)
    services.pairing_set_result(pairing_id=table.pk, by=cast["alice"], places={a: 2, b: 1})
    assert points(t) == {a: 0, b: 12}


@pytest.mark.parametrize(
    "places",
    [{"a": 1}, {0: 1}, "first", {"x": "y"}, {"a": 1, "b": 2, 999: 3}],
)
def test_a_malformed_result_is_refused_and_changes_nothing(cast, places):
    t = tournament(cast["alice"], table_size=2, round_count=1)
    register(t, players(2))
    start(t)
    (table,) = playing_tables(t)
    a, b = seats_of(table)
    shapes = {"a": a, "b": b}
    if isinstance(places, dict):
        places = {shapes.get(k, k): v for k, v in places.items()}
    with pytest.raises(LadderError, match="invalid_result"):
        services.pairing_set_result(pairing_id=table.pk, by=cast["alice"], places=places)
    with pytest.raises(LadderError, match="invalid_result"):
        services.pairing_set_result(
            pairing_id=table.pk, by=cast["alice"], places={a: 1, b: 3}
        )  # 1, 3 is no ranking of two
    assert Pairing.objects.get(pk=table.pk).status == "playing"
    assert Table.objects.get(pk=table.table_id).status == "playing"


def test_the_organizer_ends_a_stuck_table_ranked_by_the_score_now(cast):
    t = tournament(cast["alice"], table_size=3, round_count=1)
    register(t, players(3))
    start(t)
    (table,) = playing_tables(t)
    Seat.objects.filter(table_id=table.table_id, position=2).update(abandoned=True)
    services.pairing_end(pairing_id=table.pk, by=cast["alice"])
    # Nobody has scored yet: seats 0 and 1 share first; the abandoned seat 2 is last.
    seats = list(PairingSeat.objects.filter(pairing=table).order_by("seat"))
    assert [(s.place, s.points, s.score) for s in seats] == [(1, 9, 0), (1, 9, 0), (3, 0, 0)]
    assert Table.objects.get(pk=table.table_id).ended_early
    assert Tournament.objects.get().status == "finished"
    with pytest.raises(LadderError):
        services.pairing_end(pairing_id=table.pk, by=cast["alice"])


def test_a_game_that_finishes_after_the_organizer_set_its_result_changes_nothing(cast):
    t = tournament(cast["alice"], table_size=2, round_count=2)
    register(t, players(2))
    start(t)
    (table,) = playing_tables(t)
    a, b = seats_of(table)
    services.pairing_set_result(pairing_id=table.pk, by=cast["alice"], places={a: 2, b: 1})
    finish_table(table, [1, 2])  # a late report of the game itself
    assert points(t) == {a: 0, b: 12}


# --- the end ----------------------------------------------------------------------------------


def test_the_final_standings_are_published_and_every_player_hears_their_place(cast):
    t = tournament(cast["alice"], table_size=2, round_count=2)
    users = players(4)
    register(t, users)
    start(t)
    finish_round(t)
    finish_round(t)
    t.refresh_from_db()
    assert t.status == "finished" and t.finished_at is not None
    assert Notification.objects.filter(text__contains="is over: you finished").count() == 4
    with pytest.raises(LadderError, match="tournament_over"):
        services.tournament_pause(tournament_id=t.pk, by=cast["alice"])


def test_rated_games_reach_the_ladder_when_the_tournament_ends_not_before(cast):
    league = LeagueFactory()
    MembershipFactory(league=league, user=cast["alice"], role="admin")
    users = players(4)
    for user in users:
        MembershipFactory(league=league, user=user)
    t = tournament(cast["alice"], league=league, rated=True, table_size=2, round_count=2)
    register(t, users)
    start(t)
    assert all(p.table.rated and p.table.league == league for p in playing_tables(t))
    finish_round(t)
    assert not Match.objects.exists()
    finish_round(t)
    assert services.tournament_rate(tournament_id=t.pk) == 4
    assert Match.objects.filter(league=league).count() == 4
    assert Rating.objects.filter(league=league).count() == 4
    assert services.tournament_rate(tournament_id=t.pk) == 0  # once per table


def test_a_finished_tournament_table_goes_to_its_tournament_not_straight_to_the_ladder(
    cast, eager_tasks, django_capture_on_commit_callbacks
):
    from ladder.signals import on_game_finished

    league = LeagueFactory()
    MembershipFactory(league=league, user=cast["alice"], role="admin")
    users = players(2)
    for user in users:
        MembershipFactory(league=league, user=user)
    t = tournament(cast["alice"], league=league, rated=True, table_size=2, round_count=2)
    register(t, users)
    start(t)
    (table,) = playing_tables(t)
    result = {"players": [{"seat": 0, "rank": 1, "score": 9}, {"seat": 1, "rank": 2, "score": 1}]}
    with django_capture_on_commit_callbacks(execute=True):
        on_game_finished(None, table_id=table.table_id, result=result, abandoned=[])
    assert Pairing.objects.get(pk=table.pk).status == "finished"
    assert current_round(t).number == 2
    assert not Match.objects.exists()  # rated, but counted when the tournament ends
