"""The player's own seat in a real browser (docs/rules.md 1.7): "Take my seat back" after a
bot took it over, "Leave the game" behind a confirmation that says what it costs, and the
names of bot seats on the table page (players, banner, final table, log)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import chromium, log_in, text_contrast, watched
from tests.games.test_table_page_browser import DESKTOP
from tests.live import LiveSite

PHONE = {"viewport": {"width": 390, "height": 844}, "reduced_motion": "reduce", "is_mobile": True}
SHOTS = "/tmp/shots/h3"
# 1: alice and bob, bob's seat taken by a bot after a timeout; 2: carol and dave at a rated
# table; 3: alice and two medium bots, played to the end.
SETUP = """
from datetime import timedelta
from django.conf import settings
from django.utils import timezone
from games import engine, services
from games.models import Game, Table
from ttr_site.accounts.models import User
settings.TIMEOUTS_BEFORE_ABANDON = 1
u = {n: User.objects.get(username=n) for n in ("alice", "bob", "carol", "dave")}
def submit(table, user, seat):
    g = Game.objects.get(table=table)
    s = engine.from_json(g.state)
    services.game_submit_action(game_id=g.pk, user=user, action=engine.legal_actions(s, seat)[0],
                                expected_version=g.version)
t1 = services.table_create(owner=u["alice"], seat_count=2, move_seconds=600)
services.table_join(table_id=t1.pk, user=u["bob"])
submit(t1, u["alice"], 0)
g = Game.objects.get(table=t1)
past = timezone.now() - timedelta(hours=1)
Game.objects.filter(pk=g.pk).update(deadline=past, turn_started_at=past)
services.game_handle_timeout(game_id=g.pk, expected_version=g.version)
t2 = services.table_create(owner=u["carol"], seat_count=2, move_seconds=600)
services.table_join(table_id=t2.pk, user=u["dave"])
Table.objects.filter(pk=t2.pk).update(rated=True)
submit(t2, u["carol"], 0)  # carol's tickets are kept: no ticket dialog over her page
t3 = services.table_create(owner=u["alice"], seat_count=3)
for _ in range(2):
    services.table_add_bot(table_id=t3.pk, by=u["alice"], level="medium")
while True:
    g = Game.objects.get(table=t3)
    s = engine.from_json(g.state)
    if engine.is_terminal(s):
        break
    seat = engine.current_seats(s)[0]
    if seat == 0:
        submit(t3, u["alice"], 0)
    else:
        services.game_bot_move(game_id=g.pk, expected_version=g.version)
from ladder import services as ladder
from ladder.models import Pairing
cup = ladder.tournament_create(by=u["alice"], name="Bot Cup", table_size=3, rated=False,
    round_count=1, round_break_seconds=0, starts_at=timezone.now() + timedelta(hours=1))
ladder.tournament_register(tournament_id=cup.pk, user=u["alice"])
for level in ("hard", "medium"):
    ladder.entry_add_bot(tournament_id=cup.pk, by=u["alice"], level=level)
ladder.tournament_start_now(tournament_id=cup.pk, by=u["alice"])
t4 = Pairing.objects.get(round__tournament=cup, is_bye=False).table
print("TABLES", t1.pk, t2.pk, t3.pk, t4.pk, cup.slug)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    live = LiveSite("embedded", tmp_path_factory.mktemp("seat")).start()
    live.manage("seed_demo")
    found = re.search(r"TABLES (\d+) (\d+) (\d+) (\d+) (\S+)", live.manage("shell", "-c", SETUP))
    *tables, live.cup = found.groups()
    live.tables = dict(zip(("taken", "rated", "finished", "cup"), tables, strict=True))
    yield live
    live.stop()


def open_table(browser, site, user, table, context=DESKTOP):
    page = browser.new_context(**context).new_page()
    page.errors = watched(page)
    log_in(page, site.url, user)
    page.goto(f"{site.url}/table/{site.tables[table]}/")
    body = page.locator("body")
    expect(body).to_have_attribute("data-seat-actions", "ready")  # seat.js has bound
    expect(body).to_have_attribute("data-version", re.compile(r"\d+"), timeout=20_000)
    return page


def name_of(page, seat: int):
    return page.locator(f'#players li[data-seat="{seat}"] .player-name')


@pytest.mark.browser
def test_a_player_takes_the_seat_back_and_then_leaves_for_good(site):
    with chromium() as browser:
        bob = open_table(browser, site, "bob", "taken")
        alice = open_table(browser, site, "alice", "taken")
        take_back = bob.locator("#take-back")
        expect(take_back).to_be_visible()
        expect(take_back).to_contain_text("A bot is playing your seat.")
        expect(take_back).to_contain_text("This game is not rated")
        assert text_contrast(take_back.locator(".take-back-note")) >= 4.5
        expect(bob.locator("#hand-panel")).to_be_hidden()
        expect(bob.locator("#leave-game")).to_be_hidden()  # nothing to leave: the bot plays
        expect(name_of(bob, 1)).to_have_text("Bob (bot playing)")
        expect(name_of(alice, 1)).to_have_text("Bob (bot playing)")
        expect(alice.locator("#take-back")).to_be_hidden()  # only bob is offered it
        bob.screenshot(path=f"{SHOTS}/take-back-1280.png")
        phone = open_table(browser, site, "bob", "taken", PHONE)
        expect(phone.locator("#take-back")).to_be_visible()  # not folded away on a phone
        phone.screenshot(path=f"{SHOTS}/take-back-390.png")
        phone.context.close()

        bob.locator("#take-back-button").click()
        expect(take_back).to_be_hidden()
        expect(bob.locator("#hand-panel")).to_be_visible()
        expect(bob.locator("#players li.is-you")).to_have_attribute("data-seat", "1")
        expect(name_of(bob, 1)).to_have_text("Bob")
        expect(name_of(alice, 1)).to_have_text("Bob")  # live, no reload

        # Leaving asks first, and saying no changes nothing.
        bob.locator("#leave-game-button").click()
        dialog = bob.locator("#leave-dialog")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("This game is not rated: your rating does not change.")
        expect(dialog).to_contain_text("You cannot take the seat back once you leave.")
        expect(bob.locator("#leave-cancel")).to_be_focused()
        bob.screenshot(path=f"{SHOTS}/leave-dialog-1280.png")
        bob.locator("#leave-cancel").click()
        expect(dialog).to_be_hidden()
        expect(bob.locator("#hand-panel")).to_be_visible()

        bob.locator("#leave-game-button").click()
        bob.locator("#leave-confirm").click()
        expect(dialog).to_be_hidden()
        expect(bob.locator("#hand-panel")).to_be_hidden()
        expect(bob.locator("#spectator-note")).to_be_visible()
        expect(bob.locator("#leave-game")).to_be_hidden()
        expect(take_back).to_be_hidden()  # a seat given up is not offered back
        expect(name_of(bob, 1)).to_have_text("Bob (bot playing)")
        expect(name_of(alice, 1)).to_have_text("Bob (bot playing)")
        assert not bob.errors and not alice.errors, (bob.errors, alice.errors)


@pytest.mark.browser
def test_leaving_a_rated_game_warns_that_the_rating_drops(site):
    with chromium() as browser:
        for context, width in ((DESKTOP, 1280), (PHONE, 390)):
            carol = open_table(browser, site, "carol", "rated", context)
            if context is PHONE:  # the phone layout keeps it in the "more" sheet
                carol.locator('#phone-tabs [data-sheet="more"]').click()
            carol.locator("#leave-game-button").click()
            dialog = carol.locator("#leave-dialog")
            expect(dialog).to_be_visible()
            expect(dialog).to_contain_text("You will be placed last at this table")
            expect(dialog).to_contain_text("your rating will drop")
            assert text_contrast(dialog.locator("#leave-dialog-text")) >= 4.5
            carol.screenshot(path=f"{SHOTS}/leave-dialog-rated-{width}.png")
            carol.keyboard.press("Escape")
            expect(dialog).to_be_hidden()
            expect(carol.locator("#hand-panel")).to_be_visible()  # still seated
            assert not carol.errors, carol.errors


@pytest.mark.browser
def test_bots_are_told_apart_everywhere_on_the_table_page(site):
    with chromium() as browser:
        for context, width in ((DESKTOP, 1280), (PHONE, 390)):
            page = open_table(browser, site, "alice", "finished", context)
            names = [name_of(page, seat).inner_text() for seat in (1, 2)]
            assert len(set(names)) == 2, names
            assert all(re.fullmatch(r"[A-Z][a-z]+ \(medium bot\)", n) for n in names), names
            banner = page.locator("#turn-banner")
            expect(banner).to_contain_text(re.compile(r"Game over: .+ (wins|share the win)!"))
            expect(banner).not_to_contain_text("Medium bot")
            final = page.locator("#final-scores td.who")
            expect(final).to_have_count(3)
            shown = {final.nth(i).inner_text().strip() for i in range(3)}
            assert set(names) <= {re.sub(r"^\S+\s+", "", s) for s in shown}, shown
            expect(page.locator("#log")).to_contain_text(names[0])
            expect(page.locator("#leave-game")).to_be_hidden()  # the game is over
            page.screenshot(path=f"{SHOTS}/bot-names-{width}.png", full_page=True)
            assert not page.errors, page.errors


@pytest.mark.browser
def test_a_tournament_bot_has_the_same_name_in_the_standings_and_at_its_table(site):
    names = ["Ada (hard bot)", "Bram (medium bot)"]  # named in the order they entered
    with chromium() as browser:
        for context, width in ((DESKTOP, 1280), (PHONE, 390)):
            page = browser.new_context(**context).new_page()
            errors = watched(page)
            page.goto(f"{site.url}/tournaments/{site.cup}/")
            standings = page.locator("#standings")
            for name in names:
                expect(standings).to_contain_text(name)
            expect(standings).not_to_contain_text(re.compile(r"bot #\d"))  # "Hard bot #23"
            page.screenshot(path=f"{SHOTS}/tournament-standings-{width}.png", full_page=True)
            page.goto(f"{site.url}/table/{site.tables['cup']}/")
            expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"\d+"))
            shown = {name_of(page, seat).inner_text() for seat in (0, 1, 2)}
            assert set(names) <= shown, shown
            assert not errors, errors
