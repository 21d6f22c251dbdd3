"""The seat rule tie-break on the site: chosen in the form, ranked, shown and explained
(docs/tournaments.md "Tie-breaks")."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ladder import services
from ladder.models import PairingSeat, Tournament
from tests.ladder.factories import finish_round, register, tournament

pytestmark = pytest.mark.django_db


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_form_offers_the_seat_rule_as_a_fifth_tie_break(cast):
    start = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "Seat Cup", "game": "europe:classic", "table_size": "4", "allow_smaller": "on",
        "round_count": "3", "time_control": "realtime", "move_seconds": "60",
        "bank_seconds": "60", "turn_hours": "24", "starts_at": start, "checkin_minutes": "0",
        "late_registration_rounds": "0", "points_scheme": "linear", "round_break_seconds": "30",
        "tiebreak_1": "buchholz", "tiebreak_2": "buchholz_cut1", "tiebreak_3": "game_points",
        "tiebreak_4": "opponent_rating", "tiebreak_5": "later_seat",
    }  # fmt: skip
    alice = client_for(cast["alice"])
    assert (
        "Seat rule (a later starting seat wins the tie)"
        in alice.get(reverse("tournament_create")).content.decode()
    )
    response = alice.post(reverse("tournament_create"), form)
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert t.tiebreaks == [
        "buchholz", "buchholz_cut1", "game_points", "opponent_rating", "later_seat"
    ]  # fmt: skip


def test_a_forged_tie_break_is_refused_with_a_message(cast):
    start = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Forged", "game": "europe:classic", "table_size": "4", "round_count": "3",
            "time_control": "realtime", "move_seconds": "60", "bank_seconds": "0",
            "turn_hours": "24", "starts_at": start, "checkin_minutes": "0",
            "late_registration_rounds": "0", "points_scheme": "linear",
            "round_break_seconds": "30", "tiebreak_5": "earliest_seat"}  # fmt: skip
    response = client_for(cast["alice"]).post(reverse("tournament_create"), form)
    assert response.status_code == 200 and not Tournament.objects.exists()


@pytest.fixture
def seat_cup(cast):
    """Alice's 2-round tournament at tables of 3 ranked by the seat rule: round 1 finished
    with every table won by its seat 0."""
    t = tournament(cast["alice"], name="Seat Cup", table_size=3, round_count=2,
                   tiebreaks=["later_seat", "buchholz"])  # fmt: skip
    register(t, [cast["bob"], cast["carol"], cast["dave"]])
    services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    finish_round(t)
    return t


def test_the_standings_rank_show_and_explain_the_seat_rule(cast, seat_cup):
    client = client_for()
    data = json.loads(client.get(seat_cup.get_absolute_url() + "results.json").content)
    seats = PairingSeat.objects.filter(pairing__round__number=1, pairing__is_bye=False)
    assert sorted(s.seat for s in seats) == [0, 1, 2]
    # the one table was won by seat 0, seat 2 came last: each player's value is seat / 2,
    # and on these distinct points it decides nothing
    assert sorted(row["later_seat"] for row in data["standings"]) == [0.0, 0.5, 1.0]
    assert [row["points"] for row in data["standings"]] == [12, 6, 0]
    page = client.get(seat_cup.get_absolute_url()).content.decode()
    assert "the seat rule" in page  # in the "Ties:" line
    assert "sat later in the turn order" in page  # its explanation
    assert ">Seat</abbr>" in page  # the standings column


def test_of_two_players_sharing_first_the_later_seat_ranks_higher(cast):
    t = tournament(cast["alice"], name="Tie Cup", table_size=3, round_count=2,
                   tiebreaks=["later_seat", "buchholz"])  # fmt: skip
    register(t, [cast["bob"], cast["carol"], cast["dave"]])
    services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    finish_round(t, lambda pairing: [1, 1, 3])  # seats 0 and 1 share first place
    seats = PairingSeat.objects.filter(pairing__round__number=1, pairing__round__tournament=t)
    by_seat = {s.seat: s.entry_id for s in seats}
    rows = t.standings()
    assert rows[0].points == rows[1].points
    assert [row.player for row in rows] == [by_seat[1], by_seat[0], by_seat[2]]
