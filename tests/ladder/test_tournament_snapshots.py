"""The standings snapshot: pages, exports and API reads come from a stored snapshot that is
never older than the last change; the tabs are paged, searchable, with the reader's own row
pinned; a private tournament's snapshot reaches nobody who may not see the tournament."""

import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from ladder import services, tasks, tournament_tabs
from ladder import tournament_snapshots as snapshots
from ladder.models import Tournament, TournamentSnapshot
from ladder.services import tournament_snapshots as snapshot_service
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

pytestmark = pytest.mark.django_db


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def stored_version(t) -> int | None:
    return TournamentSnapshot.objects.filter(tournament=t).values_list("version", flat=True).first()


def version_of(t) -> int:
    return Tournament.objects.values_list("version", flat=True).get(pk=t.pk)


@pytest.fixture
def eight(cast):
    """Alice's 3-round tournament of eight at tables of 4, round 1 in play."""
    others = [UserFactory(username=n) for n in ("erin", "frank", "grace", "heidi", "ivan")]
    t = tournament(cast["alice"], name="Snapshot Open", table_size=4, round_count=3)
    register(t, [cast["bob"], cast["carol"], cast["dave"], *others])
    services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    return t


def standings_points(client, t) -> dict[str, float]:
    data = client.get(f"/api/v1/tournaments/{t.slug}/standings/").json()
    return {row["username"]: row["points"] for row in data["results"]}


# --- never stale ------------------------------------------------------------------------------


def test_a_recorded_result_shows_on_the_next_page_and_export(cast, eight):
    client = client_for()
    before = client.get(eight.get_absolute_url()).content.decode()
    assert stored_version(eight) == version_of(eight)
    first = playing_tables(eight)[0]
    finish_table(first)  # seat 0 wins: 12 points
    winner = first.seats.get(seat=0).entry.user.username
    assert stored_version(eight) < version_of(eight)  # the change made the snapshot stale
    page = client.get(eight.get_absolute_url()).content.decode()
    assert page != before and stored_version(eight) == version_of(eight)
    exported = json.loads(
        client.get(reverse("tournament_export", args=[eight.slug, "json"])).content
    )
    assert {r["username"]: r["points"] for r in exported["standings"]}[winner] == 12
    assert standings_points(client, eight)[winner] == 12


def test_every_kind_of_change_bumps_the_version(cast, eight):
    seen = [version_of(eight)]
    finish_table(playing_tables(eight)[0])
    seen.append(version_of(eight))
    services.tournament_withdraw(tournament_id=eight.pk, user=cast["bob"])
    seen.append(version_of(eight))
    finish_round(eight)  # closes round 1 and pairs round 2
    seen.append(version_of(eight))
    services.tournament_pause(tournament_id=eight.pk, by=cast["alice"])
    seen.append(version_of(eight))
    assert seen == sorted(set(seen))  # strictly rising


def test_a_rebuild_never_stores_an_older_snapshot_over_a_newer_one(cast, eight):
    # Two rebuilds race: the slow one read the tournament before a result, the quick one
    # after it; the quick one stores first, and the slow one must not overwrite it.
    slow_payload = snapshots.build(Tournament.objects.get(pk=eight.pk))
    finish_table(playing_tables(eight)[0])
    quick = services.snapshot_rebuild(tournament_id=eight.pk)
    assert stored_version(eight) == quick.version == version_of(eight)
    slow = snapshots.load(slow_payload)
    assert slow.version < quick.version
    assert snapshot_service._store(eight.pk, slow_payload, slow, 0) is False
    assert stored_version(eight) == quick.version
    stored = snapshots.loads(TournamentSnapshot.objects.get(tournament=eight).data)
    assert stored["rows"] == snapshots.loads(snapshots.dumps(quick_payload(eight)))["rows"]
    # and a reader of the newer tournament row is never handed the older snapshot
    snapshots.remember(eight.pk, slow)
    assert services.snapshot_current(Tournament.objects.get(pk=eight.pk)).version == quick.version


def quick_payload(t) -> dict:
    return snapshots.build(Tournament.objects.get(pk=t.pk))


def test_a_stored_snapshot_of_an_old_format_is_rebuilt(cast, eight):
    services.snapshot_rebuild(tournament_id=eight.pk)
    data = snapshots.loads(TournamentSnapshot.objects.get(tournament=eight).data)
    data["format"] = snapshots.FORMAT - 1
    TournamentSnapshot.objects.filter(tournament=eight).update(data=snapshots.dumps(data))
    snapshots.forget_all()
    view = services.snapshot_current(Tournament.objects.get(pk=eight.pk))
    assert view.version == version_of(eight) and len(view.rows) == 8


def test_the_task_rebuilds_after_commit_and_the_live_standings_hear_of_it(
    cast, eight, django_capture_on_commit_callbacks, eager_tasks
):
    with django_capture_on_commit_callbacks(execute=True):
        finish_table(playing_tables(eight)[0])
    assert stored_version(eight) == version_of(eight)
    model = json.loads(cache.get(f"live-standings:{eight.pk}"))
    assert model["v"] == version_of(eight)
    assert sorted(r[model["fields"].index("points")] for r in model["rows"])[-1] == 12


# --- paging, search, the pinned row --------------------------------------------------------


@pytest.fixture
def pages_of_two(monkeypatch):
    monkeypatch.setattr(tournament_tabs, "PER_PAGE", 2)
    monkeypatch.setattr(tournament_tabs, "SEARCH_FROM", 2)
    monkeypatch.setattr(tournament_tabs, "TABLES_PER_PAGE", 1)


def ranked_names(t) -> list[str]:
    view = services.snapshot_current(Tournament.objects.get(pk=t.pk))
    return [row.entry.label for row in view.rows]


def test_the_standings_are_paged_and_the_links_keep_the_tab(cast, eight, pages_of_two):
    finish_round(eight)
    names = ranked_names(eight)
    page = client_for().get(f"{eight.get_absolute_url()}crosstable/?page=2").content.decode()
    shown = [n for n in names if f">{n}</a>" in page]
    assert shown == names[2:4]
    assert 'href="?page=3"' in page and 'href="?page=1"' in page  # relative: same tab
    assert "3–4 of 8" in page


def test_a_search_shows_only_the_matching_players(cast, eight, pages_of_two):
    page = client_for().get(f"{eight.get_absolute_url()}?q=CAR").content.decode()
    standings = page[page.index('id="standings"') : page.index("</section>")]
    assert ">Carol</a>" in standings and ">Bob</a>" not in standings
    assert 'value="CAR"' in page
    nothing = client_for().get(f"{eight.get_absolute_url()}players/?q=zzz").content.decode()
    assert "No player matches" in nothing


def test_my_row_is_pinned_when_it_is_not_on_the_page_and_a_link_jumps_to_it(
    cast, eight, pages_of_two
):
    finish_round(eight)
    names = ranked_names(eight)
    view = services.snapshot_current(Tournament.objects.get(pk=eight.pk))
    client = client_for(UserFactory._meta.model.objects.get(pk=view.rows[-1].entry.user_id))
    page = client.get(eight.get_absolute_url()).content.decode()
    pinned = page[page.index('<tbody class="pinned"') : page.index("</tbody>")]
    assert f">{names[-1]}</a>" in pinned and "8</td>" in pinned
    assert 'id="jump-me"' in page and 'href="?page=4#me"' in page
    own_page = client.get(f"{eight.get_absolute_url()}?page=4").content.decode()
    assert 'class="pinned"' not in own_page and 'id="me"' in own_page


def test_the_rounds_tab_shows_one_round_paged_with_my_table_pinned(cast, eight, pages_of_two):
    finish_round(eight)  # round 2 is paired
    client = client_for(cast["bob"])
    page = client.get(f"{eight.get_absolute_url()}rounds/?round=1").content.decode()
    assert 'id="round-1"' in page and 'id="round-2"' not in page
    assert 'href="?round=2"' in page
    latest = client.get(f"{eight.get_absolute_url()}rounds/").content.decode()
    assert 'id="round-2"' in latest and 'id="my-table"' in latest


@pytest.mark.parametrize(
    "query",
    [
        "?page=abc", "?page=-3", "?page=0", "?page=99999999999999999999", "?page=1e9",
        "?q=%3Cscript%3Ealert(1)%3C/script%3E", "?q=" + "x" * 5000, "?round=abc",
        "?round=99", "?round=-1&page=2", "?page=%00", "?q=%00",
    ],
)  # fmt: skip
@pytest.mark.parametrize("tab", ["", "rounds/", "crosstable/", "players/"])
def test_bad_page_and_search_values_give_a_clear_page(cast, eight, pages_of_two, tab, query):
    response = client_for(cast["bob"]).get(f"{eight.get_absolute_url()}{tab}{query}")
    assert response.status_code == 200
    assert "<script>alert(1)" not in response.content.decode()


def test_the_partial_fragment_keeps_the_page_and_search(cast, eight, pages_of_two):
    page = client_for().get(f"{eight.get_absolute_url()}players/?page=2&q=a").content.decode()
    assert 'data-partial-url="/tournaments/' in page
    assert "page=2&amp;q=a&amp;partial=1" in page


# --- visibility -------------------------------------------------------------------------------


def test_a_private_tournaments_snapshot_does_not_leak(cast):
    league = LeagueFactory(is_private=True)
    for name in ("alice", "bob", "carol", "dave"):
        MembershipFactory(
            league=league, user=cast[name], role="admin" if name == "alice" else "member"
        )
    t = tournament(cast["alice"], league=league, name="Club night", table_size=3)
    register(t, [cast["bob"], cast["carol"], cast["dave"]])
    services.tournament_start_now(tournament_id=t.pk, by=cast["alice"])
    member = client_for(cast["bob"])
    assert member.get(t.get_absolute_url()).status_code == 200  # builds and keeps the snapshot
    assert stored_version(t) == version_of(t)
    outsider, anonymous = client_for(UserFactory(username="mallory")), client_for()
    urls = [
        t.get_absolute_url(), f"{t.get_absolute_url()}rounds/?page=1",
        f"{t.get_absolute_url()}crosstable/?q=bob", f"{t.get_absolute_url()}players/",
        f"{t.get_absolute_url()}?partial=1",
        reverse("tournament_export", args=[t.slug, "csv"]),
        reverse("tournament_export", args=[t.slug, "json"]),
    ]  # fmt: skip
    for client in (outsider, anonymous):
        for url in urls:
            response = client.get(url)
            assert response.status_code == 404 and b"Carol" not in response.content, url
        for api in ("standings/", "rounds/", "results/", "results/?format=csv"):
            response = client.get(f"/api/v1/tournaments/{t.slug}/{api}")
            assert response.status_code in (401, 403, 404) and b"Carol" not in response.content


def test_the_tick_rebuilds_a_snapshot_whose_task_was_lost(
    cast, eight, eager_tasks, django_capture_on_commit_callbacks
):
    """A change whose rebuild task never ran (its commit hooks are not run here, as a lost
    task) is caught by the tournaments' tick, and the live standings hear of it then."""
    finish_table(playing_tables(eight)[0])
    assert (stored_version(eight) or -1) < version_of(eight)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.tournaments_tick()
    assert stored_version(eight) == version_of(eight)
    model = json.loads(cache.get(f"live-standings:{eight.pk}"))
    assert model["v"] == version_of(eight)
    assert services.snapshot_refresh_stale() == 0  # nothing left to queue
