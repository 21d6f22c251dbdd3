"""Knockout tournaments on the database (docs/tournaments.md "Knockout"): seeding, byes to
the top seeds, who goes through, the final, standings, notifications and the organizer's
controls. Games are ended the way the ``game_finished`` task reports them."""

import pytest

from ladder import services
from ladder.errors import LadderError
from ladder.models import Entry, Match, Pairing, Rating
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


def seeded(league, n, prefix="k"):
    """``n`` players rated 2000, 1990, ... on ``league``: seed i is players[i]."""
    users = [UserFactory(username=f"{prefix}{i}") for i in range(n)]
    for i, user in enumerate(users):
        Rating.objects.create(league=league, user=user, time_control="realtime",
                              rating=2000 - 10 * i)  # fmt: skip
    return users


def knockout(organizer, **settings):
    return tournament(organizer, format="knockout", **settings)


def start(t):
    services.tournament_start_now(tournament_id=t.pk, by=t.organizer)
    t.refresh_from_db()


def layout(t, number):
    """Round ``number`` as ([seed indices per table in seat order], [bye seed indices])."""
    seed = {e.pk: int(e.user.username.lstrip("kxyz")) for e in t.entries.select_related("user")}
    tables, byes = [], []
    for p in Pairing.objects.filter(round__tournament=t, round__number=number).order_by("number"):
        seats = [seed[s.entry_id] for s in p.seats.order_by("seat")]
        (byes.extend if p.is_bye else tables.append)(seats)
    return tables, byes


def out_in(t):
    return {
        int(e.user.username[1:]): e.eliminated_in
        for e in t.entries.select_related("user")
        if e.eliminated_in is not None
    }


def test_eleven_players_at_tables_of_four_two_through_play_to_the_final(cast, europe):
    t = knockout(cast["alice"], table_size=4, advance_count=2, allow_smaller=False)
    users = seeded(europe, 11)
    register(t, users)
    start(t)
    assert t.round_count == 4  # 11 -> 7 -> 5 -> 3 (the final)
    # Byes to the three top seeds; the rest dealt in snake order, lowest seed in seat 0.
    assert layout(t, 1) == ([[10, 7, 6, 3], [9, 8, 5, 4]], [0, 1, 2])
    bye = Pairing.objects.get(round__number=1, is_bye=True, seats__entry__user=users[0])
    assert (bye.status, bye.seats.get().place, bye.seats.get().points) == ("bye", 1, 6)
    finish_round(t)  # seat order: the lowest seeds win their tables
    t.refresh_from_db()
    assert out_in(t) == {3: 1, 6: 1, 4: 1, 5: 1}
    assert layout(t, 2) == ([[10, 9, 8, 7]], [0, 1, 2])
    went_through = Notification.objects.filter(text__contains="you go through to round 2")
    assert went_through.count() == 7
    assert Notification.objects.filter(text__contains="you are out in round 1").count() == 4

    finish_table(playing_tables(t)[0], [4, 3, 2, 1])  # now the best seed of the table wins
    assert out_in(t) == {3: 1, 6: 1, 4: 1, 5: 1, 9: 2, 10: 2}
    assert layout(t, 3) == ([[8, 7, 2, 1]], [0])
    finish_round(t)
    assert layout(t, 4) == ([[8, 7, 0]], [])  # the final: all three at one table
    (final,) = playing_tables(t)
    finish_table(final, [2, 1, 3])
    t.refresh_from_db()
    assert t.status == "finished" and t.round_count == 4
    rows = t.standings()
    seed = {e.pk: int(e.user.username[1:]) for e in t.entries.select_related("user")}
    # The final's places, then by the round they went out (later first), then by place.
    ranked = [seed[r.player] for r in rows]
    assert ranked[:7] == [7, 8, 0, 2, 1, 9, 10]
    assert sorted(ranked[7:9]) == [5, 6] and sorted(ranked[9:]) == [3, 4]  # 3rd, then 4th
    assert [r.rank for r in rows] == list(range(1, 12))
    # The snapshot the pages read ranks the same way.
    view = services.snapshot_current(t)
    assert [r.entry.pk for r in view.rows] == [r.player for r in rows]
    assert view.entries[rows[-1].player].eliminated_in == 1
    over = Notification.objects.filter(text__contains="is over: you finished")
    assert over.count() == 11


def test_tables_of_three_one_through(cast, europe):
    t = knockout(cast["alice"], table_size=3, advance_count=1, allow_smaller=False)
    register(t, seeded(europe, 7))
    start(t)
    assert t.round_count == 2  # 7: two tables and a bye; 3: the final
    assert layout(t, 1) == ([[5, 4, 1], [6, 3, 2]], [0])
    finish_round(t)
    assert layout(t, 2) == ([[6, 5, 0]], [])
    finish_round(t, lambda p: [3, 2, 1])
    t.refresh_from_db()
    assert t.status == "finished"
    seed = {e.pk: int(e.user.username[1:]) for e in t.entries.select_related("user")}
    assert [seed[r.player] for r in t.standings()][:3] == [0, 5, 6]


def test_a_tie_at_the_cut_set_by_the_organizer_goes_to_the_tie_break(cast, europe):
    t = knockout(cast["alice"], table_size=4, advance_count=2, allow_smaller=False,
                 tiebreaks=["game_points"])  # fmt: skip
    register(t, seeded(europe, 8))
    start(t)
    table = playing_tables(t)[0]
    entries = [s.entry_id for s in table.seats.order_by("seat")]
    # Seats 1 and 2 share second place; seat 2 scored more game points and goes through.
    services.pairing_set_result(
        pairing_id=table.pk, by=cast["alice"],
        places={entries[0]: 1, entries[1]: 2, entries[2]: 2, entries[3]: 4},
        scores={entries[0]: 90, entries[1]: 40, entries[2]: 70, entries[3]: 10},
    )  # fmt: skip
    finish_table(playing_tables(t)[0])
    status = dict(Entry.objects.filter(pk__in=entries).values_list("pk", "eliminated_in"))
    assert status == {entries[0]: None, entries[1]: 1, entries[2]: None, entries[3]: 1}
    # Once the round has closed, who went through is settled: no correction changes it.
    with pytest.raises(LadderError, match="invalid_result"):
        services.pairing_set_result(
            pairing_id=table.pk, by=cast["alice"],
            places={entries[0]: 4, entries[1]: 1, entries[2]: 2, entries[3]: 3},
        )  # fmt: skip
    assert Entry.objects.get(pk=entries[1]).eliminated_in == 1


def test_a_withdrawal_before_a_round_starts_reseats_it_and_the_leaver_is_out(cast, europe):
    t = knockout(cast["alice"], table_size=2, advance_count=1)
    users = seeded(europe, 8)
    register(t, users)
    start(t)
    assert t.round_count == 3
    services.tournament_pause(tournament_id=t.pk, by=cast["alice"])
    finish_round(t)  # round 2 is paired, held by the pause
    winners = [u for u in users if not Entry.objects.get(user=u).eliminated_in]
    assert len(winners) == 4 and len(layout(t, 2)[0]) == 2
    services.tournament_withdraw(tournament_id=t.pk, user=winners[0])
    services.tournament_resume(tournament_id=t.pk, by=cast["alice"])
    services.tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.round_count == 3  # 3 players: a table of 2 and a bye, then the final
    tables, byes = layout(t, 2)
    seated = [i for table in tables for i in table] + byes
    assert int(winners[0].username[1:]) not in seated and len(seated) == 3
    finish_round(t)
    finish_round(t)
    t.refresh_from_db()
    assert t.status == "finished"
    leaver = Entry.objects.get(user=winners[0])
    assert leaver.eliminated_in == 1  # out in the last round they played
    # Below the three who played on, above those beaten in round 1 (they won their table).
    assert next(r.rank for r in t.standings() if r.player == leaver.pk) == 4


def test_no_late_entry_into_a_knockout(cast, europe):
    with pytest.raises(LadderError, match="invalid_tournament"):
        knockout(cast["alice"], table_size=2, advance_count=1, late_registration_rounds=2)
    t = knockout(cast["alice"], table_size=2, advance_count=1)
    register(t, seeded(europe, 4))
    start(t)
    with pytest.raises(LadderError, match="registration_closed"):
        services.tournament_register(tournament_id=t.pk, user=cast["bob"])
    with pytest.raises(LadderError, match="registration_closed"):
        services.entry_add_bot(tournament_id=t.pk, by=cast["alice"])
    assert t.entries.count() == 4


def test_a_rated_knockouts_games_reach_the_ladder_at_the_end(cast):
    league = LeagueFactory()
    MembershipFactory(league=league, user=cast["alice"], role="admin")
    users = [UserFactory(username=f"x{i}") for i in range(5)]
    for user in users:
        MembershipFactory(league=league, user=user)
    t = knockout(cast["alice"], league=league, rated=True, table_size=2, advance_count=1)
    register(t, users)
    start(t)  # 5 -> 2 tables + 1 bye -> 3 -> 1 table + 1 bye -> 2 (the final)
    assert t.round_count == 3
    for _round in range(3):
        assert not Match.objects.exists()
        finish_round(t)
    t.refresh_from_db()
    assert t.status == "finished"
    assert services.tournament_rate(tournament_id=t.pk) == 4  # 2 + 1 + 1 games, no byes
    assert Match.objects.filter(league=league).count() == 4


def test_the_bracket_tab_shows_every_round_and_the_winner(cast, europe, client):
    t = knockout(cast["alice"], table_size=3, advance_count=1, allow_smaller=False)
    register(t, seeded(europe, 7))
    start(t)
    page = client.get(f"/tournaments/{t.slug}/bracket/").content.decode()
    assert page.count('class="bracket-round') == 2 and "bracket-planned" in page
    finish_round(t)
    finish_round(t)
    client.force_login(cast["bob"])
    page = client.get(f"/tournaments/{t.slug}/bracket/").content.decode()
    assert page.count('class="bracket-round') == 2 and "bracket-planned" not in page
    assert page.count("✓") == 3 and page.count("✗") == 4 and "bracket-winner" in page
    page = client.get(f"/tournaments/{t.slug}/").content.decode()
    assert "Reached" in page and page.count("out in round 1") == 4
    assert client.get("/tournaments/nope/bracket/").status_code == 404
    swiss = tournament(cast["alice"], name="Plain Swiss")
    assert client.get(f"/tournaments/{swiss.slug}/bracket/").status_code == 404  # no bracket


def test_two_players_make_a_knockout_of_one_final_at_tables_of_four(cast, europe):
    t = knockout(cast["alice"], table_size=4, advance_count=2)  # smaller tables allowed: 3
    register(t, seeded(europe, 2))
    start(t)
    assert t.status == "running" and t.round_count == 1
    assert layout(t, 1) == ([[1, 0]], [])
    finish_round(t)
    t.refresh_from_db()
    assert t.status == "finished"
