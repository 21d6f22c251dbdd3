"""Issue 23 on a live production site (uvicorn, a Celery worker over Redis, PostgreSQL), in a
real browser: every player's clock on its panel, the New table form's time bank, a rated
league table's tag, ratings and rating changes (recorded by the worker after the game, then
pushed to the page), and the replay's speed control and move list.

Games are played to (or near) their end by a script in the site's own shell, through the
same use case the table page's socket calls, each seat choosing as a medium bot would."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import chromium, log_in, text_contrast, watched
from tests.games.test_table_page_browser import DESKTOP
from tests.live import LiveSite

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]

FAST = {"BOT_MOVE_DELAY": "0.05"}

# A table of alice and bob (rated in the Europe league, or not), started. The demo
# tournaments are dropped: their bots would keep the worker busy.
OPEN = """
from games import services
from ladder.models import League, Tournament
from ttr_site.accounts.models import User
Tournament.objects.all().delete()
alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
rated = {rated}
table = services.table_create(owner=alice, seat_count=2, move_seconds=600, bank_seconds=90,
    rated=rated, league=League.objects.get(slug="europe") if rated else None)
services.table_join(table_id=table.pk, user=bob)
print("TABLE", table.pk)
"""

# Play the table's game as its players would: each move a medium bot's choice from the
# seat's own view, submitted with the game's version. ``stop``: stop before the move that
# ends the game.
PLAY = """
from games import engine, services
from games.engine.bots import choose_action
from games.models import Game
game = Game.objects.select_related("table").get(table_id={table})
users = {{s.position: s.user for s in game.table.seats.all()}}
while True:
    game.refresh_from_db()
    state = engine.from_json(game.state)
    if engine.is_terminal(state):
        break
    seat = min(engine.current_seats(state))
    legal = engine.legal_actions(state, seat)
    action = choose_action("medium", engine.view_for(state, seat), legal, seed=game.version)
    trial = engine.from_json(game.state)
    engine.apply_action(trial, seat, action)
    if {stop} and engine.is_terminal(trial):
        break
    services.game_submit_action(game_id=game.pk, action=action,
                                expected_version=game.version, user=users[seat])
print("VERSION", game.version)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    live = LiveSite("production", tmp_path_factory.mktemp("site"), extra_env=FAST).start()
    live.manage("seed_demo")
    yield live
    live.stop()
    assert "Traceback" not in live.output(), live.output()[-3000:]


def open_table(site, *, rated: bool) -> int:
    out = site.manage("shell", "--no-imports", "-c", OPEN.format(rated=rated))
    return int(out.split("TABLE")[1].split()[0])


def play(site, table_id: int, *, stop_before_end: bool) -> int:
    out = site.manage(
        "shell", "--no-imports", "-c", PLAY.format(table=table_id, stop=stop_before_end)
    )
    return int(out.split("VERSION")[1].split()[0])


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def test_the_forms_time_bank_reaches_the_table_and_every_panel_shows_its_clock(site):
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watched(page)
        log_in(page, site.url, "alice")
        page.goto(site.url + "/play/new/")
        # A time bank is a real-time clock's: the turn-based form has none.
        page.select_option("select[name=time_control]", "turn_based")
        expect(page.locator("input[name=bank_seconds]")).to_be_hidden()
        page.select_option("select[name=time_control]", "realtime")
        page.select_option("select[name=seat_count]", "2")
        page.fill("input[name=move_seconds]", "60")
        page.fill("input[name=bank_seconds]", "150")
        page.get_by_role("button", name="Create table").click()
        expect(page).to_have_url(re.compile(r"/table/\d+/$"))

        # The waiting room says the clock and that the table is not rated.
        expect(page.locator("#settings-clock")).to_have_text("60 s per move + 150 s bank")
        expect(page.locator("#pregame #rated-tag")).to_have_text("Unrated")

        page.locator("#add-bot").click()  # the bot fills the table: the game starts
        expect(page.locator("#players li.player")).to_have_count(2, timeout=20_000)
        expect(page.locator("#game-head #rated-tag")).to_have_text("Unrated")
        # Every seat's bank, from the server's clock facts; the bot has chosen its tickets
        # (or will), so only alice's move clock runs.
        for seat in (0, 1):
            bank = page.locator(f'#players [data-clock-seat="{seat}"] .clock-bank .clock-value')
            expect(bank).to_have_text("2:30")
        move = page.locator('#players [data-clock-seat="0"] .clock-move .clock-value')
        expect(move).to_have_text(re.compile(r"^(1:00|0:[0-5]\d)$"))
        bot_move = page.locator('#players [data-clock-seat="1"] .clock-move')
        expect(bot_move).to_have_count(0, timeout=20_000)
        shown = move.text_content()
        expect(move).not_to_have_text(shown)  # it ticks down, second by second
        assert text_contrast(move) >= 4.5 and text_contrast(bank) >= 4.5
        assert text_contrast(page.locator("#game-head #rated-tag")) >= 4.5
        assert errors == []


def test_a_rated_league_game_shows_ratings_then_each_players_rating_change(site):
    table_id = open_table(site, rated=True)
    play(site, table_id, stop_before_end=True)
    ratings = dict(site.sql(
        "SELECT u.username, r.rating FROM ladder_rating r JOIN accounts_user u ON u.id = r.user_id"
        " JOIN ladder_league l ON l.id = r.league_id WHERE l.slug = 'europe'"
        " AND r.time_control = 'realtime' AND u.username IN ('alice', 'bob')"
    ))  # fmt: skip
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watched(page)
        log_in(page, site.url, "alice")
        page.goto(f"{site.url}/table/{table_id}/")
        expect(page.locator("#players li.player")).to_have_count(2, timeout=20_000)
        expect(page.locator("#game-head #rated-tag")).to_have_text("★ Rated")
        expect(page.locator("#game-head .rated-league")).to_have_text("Europe ladder")
        for seat, name in enumerate(["alice", "bob"]):
            rating = page.locator(f'#players [data-seat="{seat}"] .player-rating')
            expect(rating).to_contain_text(str(round(ratings[name])))
            assert text_contrast(rating) >= 4.5
        assert text_contrast(page.locator("#game-head #rated-tag")) >= 4.5

        play(site, table_id, stop_before_end=False)  # the last move: the worker rates it
        final = page.locator("#final-scores")
        expect(final).to_be_visible(timeout=20_000)
        recorded = final.locator('td.rating-change[data-status="recorded"]')
        expect(recorded).to_have_count(2, timeout=60_000)
        changes = dict(site.sql(
            "SELECT m.seat, round(c.after) - round(c.before) FROM ladder_ratingchange c"
            " JOIN ladder_match a ON a.id = c.match_id"
            " JOIN ladder_matchplayer m ON m.match_id = a.id AND m.user_id = c.user_id"
            " WHERE a.table_id = %s", (table_id,)
        ))  # fmt: skip
        assert sorted(changes) == [0, 1]
        for seat, delta in changes.items():
            cell = final.locator(f'tr[data-seat="{seat}"] td.rating-change')
            expect(cell.locator(".rating-delta")).to_have_text(signed(int(delta)))
            after = round(ratings[["alice", "bob"][seat]]) + int(delta)
            expect(cell.locator(".rating-after")).to_contain_text(str(after))
        assert errors == []


def test_the_replay_has_speeds_and_a_move_list_that_jumps(site):
    table_id = open_table(site, rated=False)
    version = play(site, table_id, stop_before_end=False)
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watched(page)
        page.goto(f"{site.url}/table/{table_id}/replay/")
        body = page.locator("body")
        expect(body).to_have_attribute("data-step", "0")
        moves = page.locator("#replay-moves [data-step]")
        expect(moves).to_have_count(version + 1)  # the deal, then every step
        expect(moves.nth(0)).to_have_attribute("aria-current", "step")

        # A click jumps to that step; it is numbered and says who moved.
        target = moves.nth(40)
        expect(target.locator(".replay-move-num")).to_have_text("40")
        expect(target).to_contain_text(re.compile("Alice|Bob"))
        target.scroll_into_view_if_needed()
        target.click()
        expect(body).to_have_attribute("data-step", "40")
        expect(page.locator("#replay-slider")).to_have_value("40")
        expect(target).to_have_attribute("aria-current", "step")
        expect(page.locator("#replay-moves [aria-current]")).to_have_count(1)

        # The keys still step; the current move follows, scrolled into the list's view.
        page.keyboard.press("ArrowRight")
        expect(body).to_have_attribute("data-step", "41")
        expect(moves.nth(41)).to_have_attribute("aria-current", "step")
        page.keyboard.press("End")
        expect(body).to_have_attribute("data-step", str(version))
        expect(moves.last).to_have_attribute("aria-current", "step")
        expect(moves.last).to_be_in_viewport()
        page.keyboard.press("Home")
        expect(body).to_have_attribute("data-step", "0")
        expect(moves.first).to_be_in_viewport()

        # Speed: 4× plays four steps in the time of one at 1×; play and pause.
        root = page.locator("#replay")
        expect(root).to_have_attribute("data-interval-ms", "700")
        page.select_option("#replay-speed", "4")
        expect(root).to_have_attribute("data-speed", "4")
        expect(root).to_have_attribute("data-interval-ms", "175")
        page.locator("#replay-play").click()
        expect(root).to_have_attribute("data-playing", "true")
        expect(body).not_to_have_attribute("data-step", "0")
        page.select_option("#replay-speed", "0.5")  # changing pace keeps playing
        expect(root).to_have_attribute("data-interval-ms", "1400")
        expect(root).to_have_attribute("data-playing", "true")
        page.locator("#replay-play").click()
        expect(root).to_have_attribute("data-playing", "false")
        # The chosen speed is kept for the next replay.
        page.reload()
        expect(page.locator("#replay-speed")).to_have_value("0.5")
        expect(root).to_have_attribute("data-interval-ms", "1400")
        assert errors == []
