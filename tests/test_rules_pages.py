"""How to play: one page per rule set (Europe with its ticket sets, Warehouses & Depots,
New York), each with how clocks, bots, ratings and tournaments work on this site."""

import pytest
from django.test import Client

from ttr_site.views import RULE_PAGES


@pytest.mark.parametrize("page", ["", *[f"{slug}/" for slug in RULE_PAGES]])
def test_every_rules_page_explains_the_game_and_the_site(db, page):
    response = Client().get(f"/rules/{page}")
    text = response.content.decode()
    assert response.status_code == 200
    assert "Clocks and timeouts" in text and "Ratings" in text and "Tournaments" in text
    assert "3 timeouts in a row" in text  # the site's own setting, not a copy of it


def test_the_europe_page_covers_every_ticket_set_and_special_route(db):
    text = Client().get("/rules/europe/").content.decode()
    for name in ("Classic", "Europa 1912", "Europe Extended", "Mega Europe", "Big Cities",
                 "Ferries", "Tunnels", "Build a station", "Europe Express"):  # fmt: skip
        assert name in text


def test_an_unknown_rules_page_is_not_found(db):
    assert Client().get("/rules/chess/").status_code == 404
