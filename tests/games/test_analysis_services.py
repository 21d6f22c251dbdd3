"""The post-game analysis use cases (games/services/analysis.py) on the database: one analysis
per game, the per-user rate limit, a failed one asked again, a duplicate run that does
nothing, and the profile's accuracy only over games the viewer may see. The job itself runs
here in the test's process (the live test runs it on a real worker)."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import engine, services
from games.engine.bots import choose_action
from games.errors import GameError
from games.models import Game, GameAnalysis
from games.services import analysis

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def tiny_budget(settings):
    settings.ANALYSIS_MAX_PLAYOUTS = 1
    settings.ANALYSIS_SECONDS_PER_DECISION = 0.01


def play_to_the_end(table, users, seed: int) -> Game:
    """Each seat plays as a medium bot would (a short game: random play is long)."""
    game = Game.objects.get(table=table)
    while True:
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if engine.is_terminal(state):
            return game
        seat = engine.current_seats(state)[0]
        legal = engine.legal_actions(state, seat)
        action = choose_action("medium", engine.view_for(state, seat), legal, seed + game.version)
        services.game_submit_action(game_id=game.pk, user=users[seat], action=action,
                                    expected_version=game.version)  # fmt: skip


def finished(cast, *, private=False, seed=3):
    table = services.table_create(owner=cast["alice"], seat_count=2, is_private=private)
    services.table_join(table_id=table.pk, user=cast["bob"], invite_token=table.invite_token)
    play_to_the_end(table, {0: cast["alice"], 1: cast["bob"]}, seed=seed)
    return table


def test_asking_again_returns_the_one_analysis_and_a_duplicate_run_does_nothing(cast):
    table = finished(cast)
    first, created = analysis.analysis_request(table_id=table.pk, user=cast["alice"])
    assert created and first.status == GameAnalysis.Status.QUEUED
    again, created = analysis.analysis_request(table_id=table.pk, user=cast["carol"])
    assert (again.pk, created) == (first.pk, False)

    assert analysis.analysis_run(analysis_id=first.pk) is True
    assert analysis.analysis_run(analysis_id=first.pk) is False  # done: a late duplicate
    first.refresh_from_db()
    assert (first.status, first.progress, first.requested_by) == ("done", 1.0, cast["alice"])
    payload = analysis.analysis_payload(first)
    assert {row["seat"] for row in payload["result"]["seats"]} == {0, 1}
    assert GameAnalysis.objects.count() == 1


def test_new_analyses_are_rate_limited_per_user_and_a_failed_or_lost_one_is_asked_again(
    cast, settings
):
    settings.ANALYSIS_RATE_LIMIT = 1
    one, two = finished(cast, seed=3), finished(cast, seed=4)
    made, _ = analysis.analysis_request(table_id=one.pk, user=cast["dave"])
    with pytest.raises(GameError) as refused:
        analysis.analysis_request(table_id=two.pk, user=cast["dave"])
    assert refused.value.code == "rate_limited"
    assert not GameAnalysis.objects.filter(game__table=two).exists()
    # asking for the existing one costs nothing
    assert analysis.analysis_request(table_id=one.pk, user=cast["dave"])[0].pk == made.pk

    GameAnalysis.objects.filter(pk=made.pk).update(status=GameAnalysis.Status.FAILED)
    again, created = analysis.analysis_request(table_id=one.pk, user=cast["carol"])
    assert (again.pk, created, again.status) == (made.pk, True, "queued")

    # a run whose job was lost (its worker gone, for longer than STALE_RUN) is queued again
    long_ago = timezone.now() - analysis.STALE_RUN - timedelta(minutes=1)
    GameAnalysis.objects.filter(pk=made.pk).update(status="running", started=long_ago)
    again, created = analysis.analysis_request(table_id=one.pk, user=cast["bob"])
    assert (again.pk, created, again.status, again.started) == (made.pk, True, "queued", None)
    GameAnalysis.objects.filter(pk=made.pk).update(status="running", started=timezone.now())
    assert analysis.analysis_request(table_id=one.pk, user=cast["bob"])[1] is False


def test_a_running_game_or_a_hidden_table_has_no_analysis(cast, client):
    hidden = finished(cast, private=True)
    for user in (cast["carol"], None):
        with pytest.raises(GameError) as refused:
            analysis.analysis_get(table_id=hidden.pk, user=user)
        assert refused.value.code == "not_found"
    running = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=running.pk, user=cast["bob"])
    with pytest.raises(GameError):
        analysis.analysis_request(table_id=running.pk, user=cast["alice"])
    client.force_login(cast["carol"])
    assert client.post(reverse("table_analysis", args=[hidden.pk])).status_code == 404
    assert not GameAnalysis.objects.exists()


def test_the_profile_shows_the_accuracy_of_the_games_the_viewer_may_see(cast, client):
    hidden = finished(cast, private=True)
    made, _ = analysis.analysis_request(table_id=hidden.pk, user=cast["alice"])
    analysis.analysis_run(analysis_id=made.pk)
    made.refresh_from_db()
    mine = next(r for r in made.result["seats"] if r["seat"] == 0)

    seen = analysis.player_accuracy(player=cast["alice"], viewer=cast["bob"])
    assert seen["games"] == 1 and seen["decisions"] == mine["decisions"]
    assert seen["average_loss"] == round(mine["average_loss"], 1)
    assert analysis.player_accuracy(player=cast["alice"], viewer=cast["carol"]) is None

    client.force_login(cast["carol"])
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    assert "No analysed games yet" in page
    client.force_login(cast["bob"])
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    assert f"Over {mine['decisions']} decisions in 1 analysed game." in page


def test_the_replay_page_s_button_works_without_its_script(cast, client):
    table = finished(cast)
    client.force_login(cast["bob"])
    response = client.post(reverse("table_analysis", args=[table.pk]))
    assert response["Location"] == reverse("table_replay", args=[table.pk])
    made = GameAnalysis.objects.get(game__table=table)
    assert (made.status, made.requested_by) == ("queued", cast["bob"])
    page = client.get(reverse("table_replay", args=[table.pk])).content.decode()
    assert 'data-status="queued"' in page
