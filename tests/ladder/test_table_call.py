"""The pushes that call players to a started table and keep the queue panel live (issue 23):
sent to each player's own group after commit, never before, and to nobody else."""

import pytest

from games.models import Table
from ladder import broadcast, services
from ttr_site.accounts.push import user_group

from .factories import playing_tables, register, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """What ladder.broadcast handed the channel layer: (group, payload) pairs."""
    out: list[tuple[str, dict]] = []

    def record(messages):
        out.extend((group, message["payload"]) for group, message in messages)

    monkeypatch.setattr(broadcast, "send_all", record)
    return out


@pytest.fixture
def members(cast, europe):
    for user in cast.values():
        services.league_join(league_id=europe.pk, user=user)
    return cast


def queue_two(europe, *users):
    for user in users:
        services.queue_join(league_id=europe.pk, user=user, time_control="realtime",
                            min_size=2, max_size=2)  # fmt: skip


def test_a_matched_player_is_called_to_the_table_after_commit(
    members, europe, sent, django_capture_on_commit_callbacks
):
    alice, bob, carol = members["alice"], members["bob"], members["carol"]
    with django_capture_on_commit_callbacks(execute=True):
        queue_two(europe, alice, bob)
    assert sent == [(user_group(alice.pk), {"kind": "queue_changed"}),
                    (user_group(bob.pk), {"kind": "queue_changed"})]  # fmt: skip
    sent.clear()
    with django_capture_on_commit_callbacks(execute=False) as pending:
        (table,) = services.queue_match(league_id=europe.pk)
    assert sent == []  # nothing before the commit
    for callback in pending:
        callback()
    call = {"kind": "table_started", "table": table.pk, "url": f"/table/{table.pk}/",
            "source": "ranked"}  # fmt: skip
    assert sorted(sent, key=lambda x: x[0]) == sorted(
        [(user_group(alice.pk), call), (user_group(bob.pk), call)], key=lambda x: x[0]
    )
    assert all(group != user_group(carol.pk) for group, _ in sent)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_leaving_the_queue_redraws_the_players_panels(
    members, europe, sent, django_capture_on_commit_callbacks
):
    queue_two(europe, members["alice"])
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.queue_leave(user=members["alice"])
    assert sent == [(user_group(members["alice"].pk), {"kind": "queue_changed"})]


def test_a_round_start_calls_each_person_to_their_table_and_no_bot(
    cast, sent, django_capture_on_commit_callbacks
):
    t = tournament(cast["alice"], table_size=3)
    register(t, [cast["bob"], cast["carol"]])
    services.entry_add_bot(tournament_id=t.pk, by=cast["alice"], level="easy")
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    (pairing,) = playing_tables(t)
    calls = [(group, p) for group, p in sent if p.get("kind") == "table_started"]
    call = {"kind": "table_started", "table": pairing.table_id,
            "url": f"/table/{pairing.table_id}/", "source": "tournament"}  # fmt: skip
    assert sorted(calls, key=lambda x: x[0]) == sorted(
        [(user_group(cast["bob"].pk), call), (user_group(cast["carol"].pk), call)],
        key=lambda x: x[0],
    )


def test_a_background_redraw_leaves_the_players_message_for_their_page(members, europe, client):
    """The queue panel's refresh (a fetch of the page marked ``X-Requested-With: fetch``)
    could run between a leave's POST and the page it redirects to, and use up the leave's
    message: the page then showed the join's message still (found by the browser test)."""
    queue_two(europe, members["alice"])
    client.force_login(members["alice"])
    url = f"/leagues/{europe.slug}/"
    client.get(url)  # the page the player is on
    response = client.post(f"/leagues/{europe.slug}/queue/leave/")
    assert response.status_code == 302
    background = client.get(url, headers={"X-Requested-With": "fetch"})
    assert background.status_code == 200 and b"You left the queue" not in background.content
    assert b"You left the queue" in client.get(url).content
