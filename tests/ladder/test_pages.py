"""League pages and their permissions, through the test client."""

from urllib.parse import quote

import pytest
from django.urls import reverse

from ladder import services
from ladder.models import League, Match, Membership
from tests.factories import PASSWORD
from tests.ladder.conftest import ensure_default_leagues
from tests.ladder.factories import finished_table, result

pytestmark = pytest.mark.django_db


@pytest.fixture
def login(client):
    def as_(user):
        client.login(username=user.username, password=PASSWORD)
        return client

    return as_


@pytest.fixture
def played(cast, europe):
    """alice (admin), bob and carol in the Europe league with two rated matches."""
    for user in cast.values():
        services.league_join(league_id=europe.pk, user=user)
    Membership.objects.filter(user=cast["alice"]).update(role=Membership.Role.ADMIN)
    trio = [cast["alice"], cast["bob"], cast["carol"]]
    services.match_record(table_id=finished_table(europe, trio).pk, result=result(2, 1, 3))
    services.match_record(table_id=finished_table(europe, trio[:2]).pk, result=result(1, 2))
    return cast


def test_the_leagues_page_lists_the_default_leagues(client, db):
    page = client.get(reverse("leagues")).content.decode()
    assert "Europe ladder" in page and "New York ladder" in page


def test_the_ladder_shows_rank_rating_provisional_mark_and_form(client, played, europe):
    page = client.get(europe.get_absolute_url()).content.decode()
    ladder = page[page.index('<table class="data ladder">') :]
    # alice: 2nd then 1st; bob: 1st then 2nd; carol: last
    assert ladder.index("Alice") < ladder.index("Bob") < ladder.index("Carol")
    assert 'class="provisional"' in page and 'class="place win"' in page
    assert "<polyline" in page  # the trend sparkline
    empty = client.get(europe.get_absolute_url() + "?tc=turn_based").content.decode()
    assert "No rated games in this time control yet" in empty


def test_members_can_queue_from_the_league_page(login, played, europe):
    client = login(played["dave"])
    response = client.post(
        reverse("league_queue_join", args=[europe.slug]),
        {"time_control": "realtime", "size": "3-4"},
    )
    assert response.status_code == 302
    assert played["dave"].queue_entry.max_size == 4
    assert "Waiting for a table" in client.get(europe.get_absolute_url()).content.decode()


def test_only_a_league_admin_may_remove_members(login, played, europe):
    url = reverse("league_member_remove", args=[europe.slug, played["carol"].pk])
    login(played["bob"]).post(url)
    assert europe.memberships.filter(user=played["carol"]).exists()
    page = login(played["alice"]).get(reverse("league_members", args=[europe.slug]))
    assert "Remove" in page.content.decode()
    login(played["alice"]).post(url)
    assert not europe.memberships.filter(user=played["carol"]).exists()


def test_only_a_league_admin_may_annul_a_match(
    login, played, europe, eager_tasks, django_capture_on_commit_callbacks
):
    match = Match.objects.order_by("seq").last()
    url = reverse("league_match_annul", args=[europe.slug, match.pk])
    login(played["bob"]).post(url)
    assert not Match.objects.get(pk=match.pk).annulled
    with django_capture_on_commit_callbacks(execute=True):
        login(played["alice"]).post(url)
    assert Match.objects.get(pk=match.pk).annulled
    page = login(played["alice"]).get(reverse("league_matches", args=[europe.slug]))
    assert "Annulled" in page.content.decode()


def test_a_private_league_is_hidden_until_joined_by_invite(login, cast):
    league = services.league_create(
        by=cast["alice"], name="Secret", ruleset="europe", variant="classic",
        time_controls=["realtime"], is_private=True,
    )  # fmt: skip
    client = login(cast["bob"])
    assert client.get(league.get_absolute_url()).status_code == 404
    assert "Secret" not in client.get(reverse("leagues")).content.decode()
    client.post(reverse("league_join", args=[league.slug]))
    assert not league.memberships.filter(user=cast["bob"]).exists()
    client.post(reverse("league_invite", args=[league.slug, "wrong"]))
    assert not league.memberships.filter(user=cast["bob"]).exists()
    client.post(reverse("league_invite", args=[league.slug, league.invite_token]))
    assert league.memberships.filter(user=cast["bob"]).exists()
    assert client.get(league.get_absolute_url()).status_code == 200
    admin_page = login(cast["alice"]).get(league.get_absolute_url()).content.decode()
    assert league.invite_token in admin_page


def private_league(admin, **settings) -> League:
    return services.league_create(
        by=admin, name="Secret", ruleset="europe", variant="classic",
        time_controls=["realtime"], is_private=True, **settings,
    )  # fmt: skip


def test_opening_a_league_invite_shows_the_league_and_joins_nobody(login, cast):
    league = private_league(cast["alice"], description="Tuesday evenings")
    url = reverse("league_invite", args=[league.slug, league.invite_token])
    client = login(cast["bob"])
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Secret" in page and "Tuesday evenings" in page and "1 member" in page
    assert 'id="join-league"' in page and 'name="csrfmiddlewaretoken"' in page
    assert not league.memberships.filter(user=cast["bob"]).exists()
    assert client.post(url)["Location"] == league.get_absolute_url()
    assert league.memberships.filter(user=cast["bob"]).exists()
    assert client.get(url)["Location"] == league.get_absolute_url()  # a member: to the league


def test_an_anonymous_visitor_logs_in_and_comes_back_to_the_league_invite(client, cast):
    league = private_league(cast["alice"])
    url = reverse("league_invite", args=[league.slug, league.invite_token])
    for response in (client.get(url), client.post(url)):
        assert response["Location"] == f"{reverse('account_login')}?next={quote(url)}"
    assert league.memberships.count() == 1


def test_a_replaced_league_invite_is_a_clear_404_and_the_new_one_works(login, cast):
    league = private_league(cast["alice"])
    old = reverse("league_invite", args=[league.slug, league.invite_token])
    services.league_join(league_id=league.pk, user=cast["bob"], invite_token=league.invite_token)
    login(cast["bob"]).post(reverse("league_invite_rotate", args=[league.slug]))
    league.refresh_from_db()
    assert reverse("league_invite", args=[league.slug, league.invite_token]) == old  # not admin
    admin = login(cast["alice"])
    response = admin.post(reverse("league_invite_rotate", args=[league.slug]), follow=True)
    league.refresh_from_db()
    new = reverse("league_invite", args=[league.slug, league.invite_token])
    assert new != old and new in response.content.decode()
    client = login(cast["carol"])
    for response in (client.get(old), client.post(old)):
        assert response.status_code == 404
        assert "This invite link is not valid" in response.content.decode()
    assert not league.memberships.filter(user=cast["carol"]).exists()
    client.post(new)
    assert league.memberships.filter(user=cast["carol"]).exists()


def test_a_removed_member_cannot_rejoin_with_the_old_link(login, cast):
    league = private_league(cast["alice"])
    old = reverse("league_invite", args=[league.slug, league.invite_token])
    login(cast["bob"]).post(old)
    assert league.memberships.filter(user=cast["bob"]).exists()
    login(cast["alice"]).post(reverse("league_member_remove", args=[league.slug, cast["bob"].pk]))
    assert not league.memberships.filter(user=cast["bob"]).exists()
    bob = login(cast["bob"])
    assert bob.get(old).status_code == 404
    assert bob.post(old).status_code == 404
    assert not league.memberships.filter(user=cast["bob"]).exists()


def test_creating_a_league_from_the_form(login, cast):
    client = login(cast["carol"])
    response = client.post(
        reverse("league_create"),
        {"name": "Tunnels", "game": "europe:europa_1912", "time_controls": ["turn_based"]},
    )
    league = League.objects.get(name="Tunnels")
    assert response.url == league.get_absolute_url()
    assert league.time_controls == ["turn_based"] and league.is_admin(cast["carol"])


def test_an_accepted_challenge_leads_to_the_table(login, played, europe):
    login(played["carol"]).post(
        reverse("league_challenge", args=[europe.slug]),
        {"opponent": played["dave"].pk, "time_control": "realtime"},
    )
    challenge = europe.challenges.get()
    response = login(played["dave"]).post(
        reverse("league_challenge_answer", args=[europe.slug, challenge.pk]), {"answer": "accept"}
    )
    assert response.url == f"/table/{europe.challenges.get().table_id}/"


def test_the_accuracy_page_reports_the_share_predicted(client, played, europe):
    page = client.get(reverse("league_accuracy", args=[europe.slug])).content.decode()
    assert "higher-rated player ahead in" in page and "Calibration by rating gap" in page


def test_the_profile_shows_the_rating_chart_and_recent_games(client, played):
    from games.models import Game

    table = Match.objects.order_by("seq").last().table
    Game.objects.create(table=table, seed=1, state="{}")
    page = client.get(played["bob"].get_absolute_url()).content.decode()
    assert 'class="rating-chart"' in page and "Europe ladder" in page
    assert f"/table/{table.pk}/replay/" in page  # only tables with a game have a replay
    assert page.count("/replay/") == 2  # its title and its button; the other has neither


def test_seed_demo_adds_rated_history_once(db):
    from django.core.management import call_command

    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    europe = (ensure_default_leagues(), League.objects.get(slug="europe"))[1]
    assert europe.matches.count() == 48
    assert europe.ratings.count() == 4
