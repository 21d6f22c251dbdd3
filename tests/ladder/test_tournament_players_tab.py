"""The Players tab says where each entrant stands (registered, playing, their final place,
withdrawn), check-in times carry their date, and a tournament with check-in says so before
and when a player registers, with the window's dates."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone

from ladder import services
from ladder.models import Entry, Tournament
from tests.ladder.factories import finish_round, register, tournament

pytestmark = pytest.mark.django_db


def page(t, user=None, tab="players") -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("tournament_tab", args=[t.slug, tab])).content.decode()


def status_cells(html: str) -> list[str]:
    import re

    return [c.strip() for c in re.findall(r'<td class="entry-status">([^<]*)</td>', html)]


def day(value) -> str:
    return formats.date_format(timezone.localtime(value), "DATETIME_FORMAT")


@pytest.fixture
def finished(cast):
    """Alice's one-round tournament at a table of three: bob first, carol second, dave third;
    alice registered and withdrew before the start."""
    t = tournament(cast["alice"], name="Short Cup", table_size=3, round_count=1)
    register(t, [cast["alice"], cast["bob"], cast["carol"], cast["dave"]])
    services.tournament_withdraw(tournament_id=t.pk, user=cast["alice"])
    services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    finish_round(t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def test_a_finished_tournament_shows_final_places_not_playing(cast, finished):
    html = page(finished)
    cells = status_cells(html)
    assert "Playing" not in cells
    assert cells[:3] == ["Final place: 1 of 4", "Final place: 2 of 4", "Final place: 3 of 4"]
    assert "Withdrawn" in cells
    assert html.index(">Withdrawn<") > html.index("Final place: 3 of 4")  # in finishing order


def test_statuses_before_and_during_the_tournament(cast):
    t = tournament(cast["alice"], table_size=3, round_count=2)
    register(t, [cast["bob"], cast["carol"], cast["dave"]])
    assert status_cells(page(t)) == ["Registered"] * 3
    services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    assert status_cells(page(t)) == ["Playing"] * 3


def test_check_in_times_carry_their_date(cast):
    t = tournament(cast["alice"], checkin_minutes=120)  # the window is open: entries check in
    (entry,) = register(t, [cast["bob"]])
    assert entry.checked_in_at is not None
    html = page(t)
    assert day(entry.checked_in_at) in html
    assert str(timezone.localtime(entry.checked_in_at).year) in day(entry.checked_in_at)


def test_the_check_in_window_is_shown_with_dates_before_registering(cast):
    starts = timezone.now() + timedelta(days=3)
    t = tournament(cast["alice"], starts_at=starts, checkin_minutes=30)
    html = page(t, cast["bob"], tab="standings")
    assert 'id="checkin-note"' in html and "Check-in required." in html
    assert day(t.checkin_opens) in html and day(starts) in html
    # The facts say from when, with the day too (it was the time alone).
    assert f"from {day(t.checkin_opens)}" in html


def test_registering_says_when_to_check_in(cast):
    starts = timezone.now() + timedelta(days=3)
    t = tournament(cast["alice"], starts_at=starts, checkin_minutes=30)
    client = Client()
    client.force_login(cast["bob"])
    response = client.post(reverse("tournament_register", args=[t.slug]), follow=True)
    (message,) = [str(m) for m in response.context["messages"]]
    assert "needs check-in" in message
    assert day(t.checkin_opens) in message and day(starts) in message
    assert Entry.objects.get(user=cast["bob"]).checked_in_at is None
    # Registered, not yet checked in: the page keeps reminding them.
    assert 'id="checkin-note"' in response.content.decode()


def test_registering_inside_the_window_checks_in_at_once_and_says_so(cast):
    t = tournament(cast["alice"], checkin_minutes=120)
    client = Client()
    client.force_login(cast["bob"])
    response = client.post(reverse("tournament_register", args=[t.slug]), follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "You are registered and checked in. Good luck!"
    ]
    assert 'id="checkin-note"' not in response.content.decode()


def test_a_tournament_without_check_in_says_nothing_of_it(cast):
    t = tournament(cast["alice"])
    client = Client()
    client.force_login(cast["bob"])
    response = client.post(reverse("tournament_register", args=[t.slug]), follow=True)
    assert [str(m) for m in response.context["messages"]] == ["You are registered. Good luck!"]
    assert "checkin-note" not in response.content.decode()


def test_a_refused_registration_is_a_message_not_a_500(cast):
    t = tournament(cast["alice"])
    services.tournament_cancel(tournament_id=t.pk, by=cast["alice"])
    client = Client()
    client.force_login(cast["bob"])
    response = client.post(reverse("tournament_register", args=[t.slug]), follow=True)
    assert response.status_code == 200
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
