"""League, queue, challenge and result services through ``ladder.services``."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as games
from games.errors import GameError
from games.models import Table
from ladder import services
from ladder.errors import LadderError
from ladder.models import Challenge, Match, Membership, QueueEntry, Rating, RatingChange
from tests.factories import UserFactory
from tests.ladder.factories import finished_table, result

pytestmark = pytest.mark.django_db


@pytest.fixture
def members(cast, europe):
    for user in cast.values():
        services.league_join(league_id=europe.pk, user=user)
    return cast


def test_a_default_public_league_exists_for_each_rule_set(europe):
    from ladder.models import League

    assert {(x.ruleset, x.is_private) for x in League.objects.filter(is_default=True)} == {
        ("europe", False),
        ("new_york", False),
    }


def test_the_creator_of_a_league_is_its_admin(cast):
    league = services.league_create(
        by=cast["alice"], name="Friday club", ruleset="europe", variant="classic",
        time_controls=["realtime"], is_private=True,
    )  # fmt: skip
    assert league.slug == "friday-club"
    assert league.is_admin(cast["alice"]) and not league.is_admin(cast["bob"])


def test_invalid_league_settings_are_refused(cast):
    with pytest.raises(LadderError) as err:
        services.league_create(
            by=cast["alice"], name="X", ruleset="new_york", variant="classic",
            time_controls=["realtime"],
        )  # fmt: skip
    assert err.value.code == "invalid_league"


def test_a_private_league_needs_its_invite(cast):
    league = services.league_create(
        by=cast["alice"], name="Club", ruleset="europe", variant="classic",
        time_controls=["realtime"], is_private=True,
    )  # fmt: skip
    with pytest.raises(LadderError) as err:
        services.league_join(league_id=league.pk, user=cast["bob"])
    assert err.value.code == "private_league"
    services.league_join(league_id=league.pk, user=cast["bob"], invite_token=league.invite_token)
    assert league.memberships.count() == 2


def test_only_admins_remove_members(members, europe):
    with pytest.raises(LadderError) as err:
        services.membership_remove(
            league_id=europe.pk, by=members["bob"], user_id=members["carol"].pk
        )
    assert err.value.code == "not_admin"
    services.membership_set_role(
        league_id=europe.pk, by=UserFactory(username="root", is_staff=True),
        user_id=members["alice"].pk, role=Membership.Role.ADMIN,
    )  # fmt: skip
    services.queue_join(league_id=europe.pk, user=members["carol"], time_control="realtime",
                        min_size=3, max_size=3)  # fmt: skip
    services.membership_remove(
        league_id=europe.pk, by=members["alice"], user_id=members["carol"].pk
    )
    assert not europe.memberships.filter(user=members["carol"]).exists()
    assert not QueueEntry.objects.filter(user=members["carol"]).exists()


def test_removing_a_member_replaces_the_invite_so_they_cannot_come_back(cast):
    league = services.league_create(
        by=cast["alice"], name="Club", ruleset="europe", variant="classic",
        time_controls=["realtime"], is_private=True,
    )  # fmt: skip
    old = league.invite_token
    services.league_join(league_id=league.pk, user=cast["bob"], invite_token=old)
    services.membership_remove(league_id=league.pk, by=cast["alice"], user_id=cast["bob"].pk)
    league.refresh_from_db()
    assert league.invite_token != old
    with pytest.raises(LadderError) as err:
        services.league_join(league_id=league.pk, user=cast["bob"], invite_token=old)
    assert err.value.code == "private_league"


def test_only_admins_replace_the_invite_link(cast):
    league = services.league_create(
        by=cast["alice"], name="Club", ruleset="europe", variant="classic",
        time_controls=["realtime"], is_private=True,
    )  # fmt: skip
    old = league.invite_token
    services.league_join(league_id=league.pk, user=cast["bob"], invite_token=old)
    with pytest.raises(LadderError) as err:
        services.league_invite_rotate(league_id=league.pk, by=cast["bob"])
    assert err.value.code == "not_admin"
    new = services.league_invite_rotate(league_id=league.pk, by=cast["alice"]).invite_token
    assert new != old
    with pytest.raises(LadderError):
        services.league_join(league_id=league.pk, user=cast["carol"], invite_token=old)
    services.league_join(league_id=league.pk, user=cast["carol"], invite_token=new)


def test_rated_tables_take_no_bots_and_need_two_humans(cast, europe):
    table = games.table_create(owner=cast["alice"], seat_count=2, rated=True, league=europe)
    with pytest.raises(GameError) as err:
        games.table_add_bot(table_id=table.pk, by=cast["alice"])
    assert err.value.code == "invalid_options"
    table3 = games.table_create(owner=cast["bob"], seat_count=3, rated=True, league=europe)
    with pytest.raises(GameError):
        games.table_start(table_id=table3.pk, by=cast["bob"])
    games.table_join(table_id=table3.pk, user=cast["carol"])
    games.table_start(table_id=table3.pk, by=cast["bob"])
    assert Table.objects.get(pk=table3.pk).status == Table.Status.PLAYING


def test_queueing_needs_membership_and_a_valid_request(cast, europe):
    with pytest.raises(LadderError) as err:
        services.queue_join(league_id=europe.pk, user=cast["alice"], time_control="realtime",
                            min_size=2, max_size=2)  # fmt: skip
    assert err.value.code == "not_member"
    services.league_join(league_id=europe.pk, user=cast["alice"])
    for lo, hi in [(1, 2), (4, 3), (2, 6)]:
        with pytest.raises(LadderError):
            services.queue_join(league_id=europe.pk, user=cast["alice"], time_control="realtime",
                                min_size=lo, max_size=hi)  # fmt: skip


def test_matched_players_are_seated_at_a_started_rated_table_and_told(
    members, europe, django_capture_on_commit_callbacks
):
    for name in ("alice", "bob", "carol"):
        services.queue_join(league_id=europe.pk, user=members[name], time_control="realtime",
                            min_size=3, max_size=4)  # fmt: skip
    services.queue_join(league_id=europe.pk, user=members["dave"], time_control="turn_based",
                        min_size=2, max_size=2)  # fmt: skip
    (table,) = services.queue_match(league_id=europe.pk)
    table.refresh_from_db()
    assert table.rated and table.league == europe and table.status == Table.Status.PLAYING
    assert table.seat_count == 3 and table.time_control == "realtime"
    assert {s.user.username for s in table.seats.all()} == {"alice", "bob", "carol"}
    assert list(QueueEntry.objects.values_list("user__username", flat=True)) == ["dave"]
    note = members["bob"].notifications.get()
    assert note.url == f"/table/{table.pk}/"


def test_a_long_wait_widens_the_range(members, europe):
    Rating.objects.create(league=europe, user=members["alice"], time_control="realtime",
                          rating=1900)  # fmt: skip
    for name in ("alice", "bob"):
        services.queue_join(league_id=europe.pk, user=members[name], time_control="realtime",
                            min_size=2, max_size=2)  # fmt: skip
    assert services.queue_match(league_id=europe.pk) == []
    later = timezone.now() + timedelta(minutes=2)
    assert len(services.queue_match(league_id=europe.pk, now=later)) == 1


def test_leaving_the_queue(members, europe):
    services.queue_join(league_id=europe.pk, user=members["alice"], time_control="realtime",
                        min_size=2, max_size=2)  # fmt: skip
    with pytest.raises(LadderError):
        services.queue_join(league_id=europe.pk, user=members["alice"], time_control="realtime",
                            min_size=2, max_size=2)  # fmt: skip
    services.queue_leave(user=members["alice"])
    with pytest.raises(LadderError) as err:
        services.queue_leave(user=members["alice"])
    assert err.value.code == "not_queued"


def test_an_accepted_challenge_starts_a_rated_table(members, europe):
    challenge = services.challenge_create(
        league_id=europe.pk, by=members["alice"], opponent=members["bob"], time_control="realtime"
    )
    assert members["bob"].notifications.count() == 1
    with pytest.raises(LadderError):
        services.challenge_accept(challenge_id=challenge.pk, by=members["alice"])
    table = services.challenge_accept(challenge_id=challenge.pk, by=members["bob"])
    table.refresh_from_db()
    assert table.rated and table.league == europe and table.status == Table.Status.PLAYING
    assert Challenge.objects.get().status == Challenge.Status.ACCEPTED
    with pytest.raises(LadderError) as err:
        services.challenge_accept(challenge_id=challenge.pk, by=members["bob"])
    assert err.value.code == "challenge_closed"


def test_a_declined_challenge_tells_the_challenger(members, europe):
    challenge = services.challenge_create(
        league_id=europe.pk, by=members["alice"], opponent=members["bob"], time_control="realtime"
    )
    services.challenge_decline(challenge_id=challenge.pk, by=members["bob"])
    assert Challenge.objects.get().status == Challenge.Status.DECLINED
    assert members["alice"].notifications.count() == 1


def test_a_result_is_recorded_once_and_moves_the_ladder(cast, europe):
    users = [cast["alice"], cast["bob"], cast["carol"]]
    table = finished_table(europe, users)
    match = services.match_record(table_id=table.pk, result=result(2, 1, 3))
    again = services.match_record(table_id=table.pk, result=result(1, 2, 3))
    assert again.pk == match.pk and Match.objects.count() == 1
    ladder = {r.user.username: r for r in Rating.objects.filter(league=europe)}
    assert round(ladder["bob"].rating - 1500, 6) == 32  # provisional K 64, shared over 2
    assert ladder["bob"].wins == 1 and ladder["alice"].games == 1
    assert round(ladder["alice"].rating, 6) == 1500
    change = RatingChange.objects.get(user=cast["carol"])
    assert (change.before, round(change.after, 6), change.place) == (1500.0, 1468.0, 3)


def test_an_abandoned_seat_is_scored_last(cast, europe):
    table = finished_table(europe, [cast["alice"], cast["bob"]])
    services.match_record(table_id=table.pk, result=result(1, 2), abandoned=[0])
    places = dict(RatingChange.objects.values_list("user__username", "place"))
    assert places == {"alice": 2, "bob": 1}


def test_unrated_tables_are_not_recorded(cast, europe):
    table = finished_table(europe, [cast["alice"], cast["bob"]])
    Table.objects.filter(pk=table.pk).update(rated=False)
    assert services.match_record(table_id=table.pk, result=result(1, 2)) is None


def test_the_finished_signal_records_a_rated_result_after_commit(
    cast, europe, eager_tasks, django_capture_on_commit_callbacks
):
    from games.models import Game
    from games.signals import game_finished

    table = finished_table(europe, [cast["alice"], cast["bob"]])
    with django_capture_on_commit_callbacks(execute=True):
        game_finished.send(sender=Game, table_id=table.pk, result=result(1, 2), abandoned=[])
    assert Match.objects.get().table == table


def _random_history(league, users, rng, count):
    for _ in range(count):
        seated = rng.sample(users, rng.randint(2, min(5, len(users))))
        table = finished_table(league, seated, time_control=rng.choice(["realtime", "turn_based"]))
        ranks = [rng.randint(1, len(seated)) for _ in seated]
        abandoned = [i for i in range(len(seated)) if rng.random() < 0.05]
        services.match_record(table_id=table.pk, result=result(*ranks), abandoned=abandoned)


def _snapshot(league):
    ratings = sorted(
        Rating.objects.filter(league=league).values_list(
            "user_id", "time_control", "rating", "games", "wins", "last_seq"
        )
    )
    changes = sorted(
        RatingChange.objects.filter(league=league).values_list(
            "match_id", "user_id", "before", "after", "delta", "games_before", "place", "size"
        )
    )
    return ratings, changes


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_recalculation_equals_the_incremental_ratings_after_random_histories(europe, seed):
    rng = random.Random(seed)
    users = [UserFactory() for _ in range(9)]
    _random_history(europe, users, rng, 60)
    incremental = _snapshot(europe)
    report = services.ladder_recalculate(league_id=europe.pk)
    assert report.matches == 60
    assert _snapshot(europe) == incremental  # exactly, not approximately
    services.ladder_recalculate(league_id=europe.pk)
    assert _snapshot(europe) == incremental  # and idempotent


def test_annulling_a_match_rebuilds_the_ladder_without_it(
    members, europe, eager_tasks, django_capture_on_commit_callbacks
):
    first = finished_table(europe, [members["alice"], members["bob"]])
    services.match_record(table_id=first.pk, result=result(1, 2))
    second = finished_table(europe, [members["bob"], members["carol"]])
    match = services.match_record(table_id=second.pk, result=result(1, 2))
    with pytest.raises(LadderError) as err:
        services.match_annul(match_id=match.pk, by=members["bob"])
    assert err.value.code == "not_admin"
    Membership.objects.filter(user=members["dave"]).update(role=Membership.Role.ADMIN)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_annul(match_id=match.pk, by=members["dave"])
    ladder = {r.user.username: round(r.rating, 6) for r in Rating.objects.filter(league=europe)}
    assert ladder == {"alice": 1532, "bob": 1468}
    assert not RatingChange.objects.filter(match=match).exists()
