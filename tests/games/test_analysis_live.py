"""Issue 26, the post-game analysis, on a live production site (uvicorn, a real Celery worker
over Redis, PostgreSQL): asked for through the API, run once by the worker with a tiny budget
(one playout per decision), served to everyone who may see the replay, hidden from anyone
else, shown on the replay page (progress, win-chance graph, marked moves, the suggestion on
the map) and summed up on the player's profile.

Games are played to their end by a script in the site's own shell, through the use case the
table page's socket calls, each seat choosing as a medium bot would (as
test_clocks_ratings_replay_browser.py does)."""

import json
import re
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser import chromium, log_in, watched
from tests.games.test_table_page_browser import DESKTOP
from tests.live import LiveSite

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

TINY = {"BOT_MOVE_DELAY": "0.05", "ANALYSIS_MAX_PLAYOUTS": "1",
        "ANALYSIS_SECONDS_PER_DECISION": "0.01"}  # fmt: skip

# A finished game of alice and bob (private: bob joins with the invite token).
FINISHED = """
from games import engine, services
from games.engine.bots import choose_action
from games.models import Game
from ladder.models import Tournament
from ttr_site.accounts.models import User
Tournament.objects.all().delete()
alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
table = services.table_create(owner=alice, seat_count=2, move_seconds=600, is_private={private})
services.table_join(table_id=table.pk, user=bob, invite_token=table.invite_token)
game = Game.objects.select_related("table").get(table=table)
users = {{s.position: s.user for s in game.table.seats.all()}}
while True:
    game.refresh_from_db()
    state = engine.from_json(game.state)
    if engine.is_terminal(state):
        break
    seat = min(engine.current_seats(state))
    legal = engine.legal_actions(state, seat)
    action = choose_action("medium", engine.view_for(state, seat), legal, seed=game.version)
    services.game_submit_action(game_id=game.pk, action=action,
                                expected_version=game.version, user=users[seat])
print("TABLE", table.pk, "STEPS", game.version)
"""

TOKENS = """
from ttr_site.accounts.models import User
from ttr_site.accounts.services import api_token_create
for name in ("alice", "carol", "dave"):
    print("TOKEN", name, api_token_create(user=User.objects.get(username=name), name="t")[1])
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    live = LiveSite("production", tmp_path_factory.mktemp("site"), extra_env=TINY).start()
    try:
        live.manage("seed_demo")
        out = live.manage("shell", "--no-imports", "-c", TOKENS)
        live.tokens = dict(re.findall(r"TOKEN (\w+) (\S+)", out))
        yield live
    finally:
        live.stop()
    assert "Traceback" not in live.output(), live.output()[-3000:]


def finished_table(site, *, private: bool = False) -> tuple[int, int]:
    out = site.manage("shell", "--no-imports", "-c", FINISHED.format(private=private))
    found = re.search(r"TABLE (\d+) STEPS (\d+)", out)
    return int(found.group(1)), int(found.group(2))


def api(site, method: str, path: str, user: str | None = None) -> tuple[int, dict]:
    """The API's answer; a 503 (the database busy: the machine is shared) is asked again."""
    for _ in range(60):
        status, body = _api(site, method, path, user)
        if status != 503:
            return status, body
        time.sleep(1)
    return status, body


def _api(site, method: str, path: str, user: str | None) -> tuple[int, dict]:
    request = urllib.request.Request(site.url + path, method=method)
    request.add_header("Accept", "application/json")
    if user:
        request.add_header("Authorization", f"Bearer {site.tokens[user]}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def page_status(site, path: str) -> int:
    try:
        with urllib.request.urlopen(site.url + path, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def wait_done(site, table_id: int, user: str) -> tuple[dict, list]:
    """Poll the analysis until it is done: its last state and every progress seen."""
    seen = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        status, body = api(site, "GET", f"/api/v1/tables/{table_id}/analysis/", user)
        assert status == 200, body
        seen.append((body["status"], body["progress"]))
        if body["status"] in ("done", "failed"):
            return body, seen
        time.sleep(0.3)
    raise AssertionError(f"the analysis did not end: {seen[-5:]}")


def test_the_analysis_runs_once_on_the_worker_and_is_served_to_everyone(site):
    table_id, steps = finished_table(site)
    url = f"/api/v1/tables/{table_id}/analysis/"
    assert api(site, "GET", url, "dave") == (200, {"status": "none", "progress": 0.0,
                                                   "result": None})  # fmt: skip
    assert api(site, "POST", url)[0] == 401  # asking needs a log-in

    status, body = api(site, "POST", url, "alice")
    assert status == 202 and body["status"] == "queued", body
    done, seen = wait_done(site, table_id, "alice")

    assert done["status"] == "done", done
    progress = [p for _s, p in seen]
    assert progress == sorted(progress) and progress[-1] == 1.0
    assert done["budget"] == {"seconds": 0.01, "playouts": 1}
    result = done["result"]
    assert len(result["chances"]) == steps + 1
    assert all(abs(sum(row) - 1) < 1e-3 for row in result["chances"])
    assert {d["seat"] for d in result["decisions"]} == {0, 1}  # both seats are people
    assert {row["seat"] for row in result["seats"]} == {0, 1}
    assert all("user_id" not in row for row in result["seats"])

    # Dave, who watched, gets the same analysis: no second job, not his request.
    again, body = api(site, "POST", url, "dave")
    assert again == 200 and body == done
    assert api(site, "GET", url, "dave") == (200, done)
    rows = site.sql(
        "SELECT a.requested_by_id, u.username FROM games_gameanalysis a JOIN games_game g ON "
        "g.id = a.game_id JOIN accounts_user u ON u.id = a.requested_by_id WHERE g.table_id = %s",
        (table_id,),
    )
    assert [name for _id, name in rows] == ["alice"]
    assert len(re.findall(r"games\.tasks\.analyse_game\[[^\]]+\] received", site.output())) == 1

    # Alice's profile sums up her graded decisions.
    with urllib.request.urlopen(site.url + "/u/alice/", timeout=30) as response:
        profile = response.read().decode()
    decisions = next(r["decisions"] for r in result["seats"] if r["seat"] == 0)
    assert re.search(rf"Over {decisions} decisions in 1 analysed game\.", profile), profile


def test_nobody_who_may_not_see_the_replay_gets_the_analysis(site):
    table_id, _steps = finished_table(site, private=True)
    url = f"/api/v1/tables/{table_id}/analysis/"
    assert api(site, "GET", url, "carol")[0] == 404
    assert api(site, "POST", url, "carol")[0] == 404
    assert api(site, "GET", url)[0] == 404
    assert page_status(site, f"/table/{table_id}/replay/") == 404
    assert api(site, "GET", url, "alice") == (200, {"status": "none", "progress": 0.0,
                                                    "result": None})  # fmt: skip
    assert site.sql(
        "SELECT count(*) FROM games_gameanalysis a JOIN games_game g ON g.id = a.game_id "
        "WHERE g.table_id = %s",
        (table_id,),
    ) == [(0,)]


@pytest.mark.browser
def test_the_replay_asks_for_the_analysis_shows_its_progress_graph_marks_and_suggestion(site):
    table_id, steps = finished_table(site)
    private_id, _ = finished_table(site, private=True)
    with chromium() as browser:
        context = browser.new_context(**DESKTOP)
        page = context.new_page()
        log_in(page, site.url, "carol")
        response = page.goto(f"{site.url}/table/{private_id}/replay/")
        assert response.status == 404  # not hers to see, nor its analysis
        page.close()

        page = context.new_page()
        errors = watched(page, console=True)
        page.goto(f"{site.url}/table/{table_id}/replay/")
        moves = page.locator("#replay-moves .replay-move")
        expect(moves).to_have_count(steps + 1)  # the module script has run
        expect(page.locator("#analysis")).to_have_attribute("data-status", "none")
        page.locator("#analysis-request").click()

        expect(page.locator("#analysis-progress")).to_be_visible()
        expect(page.locator("#analysis-request")).to_be_hidden()
        expect(page.locator("#analysis")).to_have_attribute("data-status", "done", timeout=240_000)
        expect(page.locator("#analysis-progress")).to_be_hidden()
        expect(page.locator("#analysis-graph svg .chance-line")).to_have_count(2)
        expect(page.locator("#analysis-summary li")).to_have_count(2)

        marked = page.locator(".replay-move:has(.analysis-mark)")
        expect(marked.first).to_be_visible()
        sign = marked.first.locator(".analysis-mark-sign")
        expect(sign).to_have_text(re.compile(r"^\?!?$"))
        step = marked.first.get_attribute("data-step")
        marked.first.click()
        expect(page.locator("body")).to_have_attribute("data-step", step)
        suggestion = page.locator("#analysis-suggestion")
        expect(suggestion).to_have_text(re.compile(r"^Better: "))
        route = suggestion.get_attribute("data-route")
        if route:
            expect(page.locator(f'.route[data-route-id="{route}"]')).to_have_class(
                re.compile(r"route--last")
            )
        page.screenshot(path="/tmp/shots/analysis/replay-analysis.png", full_page=True)
        assert errors == []


def test_analyses_have_a_queue_of_their_own_and_the_bots_moves_do_not():
    """A worker busy with analyses (minutes of CPU) must not hold up a bot's move or a timeout:
    analyses are routed to ``ANALYSIS_QUEUE``, everything else to the default queue."""
    from django.conf import settings

    from ttr_site.celery import app

    def queue(task: str) -> str:
        return app.amqp.router.route({}, task)["queue"].name

    assert queue("games.tasks.analyse_game") == settings.ANALYSIS_QUEUE
    assert settings.ANALYSIS_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE
    for task in ("games.tasks.bot_move", "games.tasks.sweep_deadlines",
                 "ladder.tasks.tournament_advance"):  # fmt: skip
        assert queue(task) == settings.CELERY_TASK_DEFAULT_QUEUE


@pytest.fixture(scope="module")
def embedded_site(tmp_path_factory):
    live = LiveSite("embedded", tmp_path_factory.mktemp("embedded"), extra_env=TINY).start()
    try:
        live.manage("seed_demo")
        out = live.manage("shell", "--no-imports", "-c", TOKENS)
        live.tokens = dict(re.findall(r"TOKEN (\w+) (\S+)", out))
        yield live
    finally:
        live.stop()
    assert "Traceback" not in live.output(), live.output()[-3000:]


def test_make_runs_single_process_also_works_through_the_analysis_queue(embedded_site):
    """``make run`` (embedded: worker threads inside the web process) consumes both queues."""
    table_id, _steps = finished_table(embedded_site)
    url = f"/api/v1/tables/{table_id}/analysis/"
    status, body = api(embedded_site, "POST", url, "alice")
    assert status == 202, body
    done, _seen = wait_done(embedded_site, table_id, "alice")
    assert done["status"] == "done", done
