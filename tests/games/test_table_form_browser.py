"""The New table form in a real browser: the map decides the variants, the seats and
Warehouses & Depots; the time control decides which clock field shows."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import chromium, log_in, watched
from tests.games.test_table_page_browser import DESKTOP
from tests.live import LiveSite


@pytest.fixture
def site(tmp_path):
    live = LiveSite("embedded", tmp_path).start()
    live.manage("seed_demo")
    yield live
    live.stop()


def options(select) -> list[str]:
    return [o.get_attribute("value") for o in select.locator("option").all()]


@pytest.mark.browser
def test_the_new_table_form_follows_the_map_and_the_time_control(site, tmp_path):
    with chromium() as browser:
        page = browser.new_context(**DESKTOP).new_page()
        errors = watched(page, console=True)
        log_in(page, site.url, "alice")
        page.goto(site.url + "/play/new/")
        variant = page.locator("select[name=variant]")
        seats = page.locator("select[name=seat_count]")
        warehouses = page.locator("input[name=warehouses]")
        seconds = page.locator("input[name=move_seconds]")
        hours = page.locator("input[name=turn_hours]")

        expect(variant.locator("option")).to_have_count(5)
        assert options(variant) == ["classic", "europa_1912", "europe_extended",
                                    "mega_europe", "big_cities"]  # fmt: skip
        assert options(seats) == ["2", "3", "4", "5"]
        expect(warehouses).to_be_visible()
        expect(seconds).to_be_visible()
        expect(hours).to_be_hidden()
        page.screenshot(path=str(tmp_path / "form-europe.png"), full_page=True)

        seats.select_option("5")
        warehouses.check()
        page.select_option("select[name=ruleset]", "new_york")
        assert options(variant) == ["standard"]
        expect(variant).to_have_value("standard")
        assert max(int(n) for n in options(seats)) <= 4
        expect(seats).to_have_value("4")
        expect(warehouses).to_be_hidden()

        page.select_option("select[name=time_control]", "turn_based")
        expect(hours).to_be_visible()
        expect(seconds).to_be_hidden()
        page.screenshot(path=str(tmp_path / "form-new-york.png"), full_page=True)

        # Back to Europe: its variants return; the table is created as chosen.
        page.select_option("select[name=ruleset]", "europe")
        expect(variant.locator("option")).to_have_count(5)
        expect(warehouses).to_be_visible()
        page.select_option("select[name=ruleset]", "new_york")
        page.get_by_role("button", name="Create table").click()
        expect(page).to_have_url(re.compile(r"/table/\d+/$"))
        table_id = int(re.search(r"/table/(\d+)/$", page.url).group(1))
        row = site.sql("SELECT ruleset, variant, seat_count, options, time_control "
                       "FROM games_table WHERE id = %s", (table_id,))  # fmt: skip
        assert row[0][:3] == ("new_york", "standard", 4)
        assert "warehouses" not in str(row[0][3])
        assert row[0][4] == "turn_based"
        assert errors == []
