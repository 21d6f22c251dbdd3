"""What a rated league table shows of its ladder (ladder/table_ratings.py): each player's
current rating, then each one's change once the match is recorded, through the table summary
(games.presenters.table_summary) every page and socket of the table reads."""

import pytest

from games.presenters import table_summary
from games.services import table_create
from ladder import services
from ladder.models import Rating
from tests.ladder.factories import LeagueFactory, finished_table, result

pytestmark = pytest.mark.django_db


def seats(summary) -> dict:
    return {s["position"]: s for s in summary["seats"]}


def test_an_unrated_table_has_no_ladder_facts(cast):
    table = table_create(owner=cast["alice"])
    summary = table_summary(table, cast["alice"])
    assert summary["rated"] is False and summary["ladder"] is None
    assert "rating" not in summary["seats"][0]


def test_a_rated_table_shows_each_players_current_rating_and_the_change_once_recorded(cast):
    league = LeagueFactory(name="Friday Club")
    alice, bob = cast["alice"], cast["bob"]
    Rating.objects.create(league=league, user=alice, time_control="realtime", rating=1612.4,
                          games=30)  # fmt: skip
    table = finished_table(league, [alice, bob])

    before = table_summary(table, None)
    assert before["ladder"]["league"]["name"] == "Friday Club"
    assert before["ladder"]["status"] == "pending"
    assert seats(before)[0]["rating"] == {"value": 1612, "provisional": False, "display": "1612"}
    # No game on this ladder yet: the start rating, marked provisional.
    assert seats(before)[1]["rating"]["display"] == "1500?"
    assert "rating_change" not in seats(before)[0]

    services.match_record(table_id=table.pk, result=result(2, 1))
    after = seats(table_summary(table, None))
    assert table_summary(table, None)["ladder"]["status"] == "recorded"
    lost, won = after[0]["rating_change"], after[1]["rating_change"]
    assert lost["delta"] < 0 < won["delta"]
    assert lost["after"] == lost["before"] + lost["delta"] == after[0]["rating"]["value"]
    assert won["before"] == 1500 and won["after"] == won["before"] + won["delta"]


def test_recording_a_match_tells_the_table_page(cast, django_capture_on_commit_callbacks,
                                                monkeypatch):  # fmt: skip
    from games import broadcast

    told = []
    monkeypatch.setattr(broadcast, "table_changed", told.append)
    table = finished_table(LeagueFactory(), [cast["alice"], cast["bob"]])
    with django_capture_on_commit_callbacks(execute=True):
        services.match_record(table_id=table.pk, result=result(1, 2))
    assert told == [table.pk]


def test_an_annulled_match_shows_no_change(cast):
    league = LeagueFactory()
    table = finished_table(league, [cast["alice"], cast["bob"]])
    match = services.match_record(table_id=table.pk, result=result(1, 2))
    match.annulled = True
    match.save(update_fields=["annulled"])
    summary = table_summary(table, None)
    assert summary["ladder"]["status"] == "annulled"
    assert all("rating_change" not in s for s in summary["seats"])
