"""How to play: one page per rule set (Europe with its ticket sets, Warehouses & Depots,
New York), each with how clocks, bots, ratings and tournaments work on this site, and a
"Playing here" section that says how each rule is done on the table page.

The pages quote the table page's buttons and dialogs as ``<b class="ui">label</b>``; the
tests read those labels from the table page's template and scripts and from the message
catalogues, so a renamed button shows up here."""

import re
from functools import cache
from pathlib import Path

import polib
import pytest
from django.test import Client

from games.forms import TableForm
from games.models import Table
from ttr_site.views import RULE_PAGES

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ["en", "de", "nl"]
PAGES = ["", *[f"{slug}/" for slug in RULE_PAGES]]
QUOTED = re.compile(r'<b class="ui">(.*?)</b>')
TEMPLATE_TEXT = re.compile(r"""{%\s*translate\s+(?:"([^"]+)"|'([^']+)')""")
JS_TEXT = re.compile(r'\bt\("((?:[^"\\]|\\.)*)"\)')
JS_IMPORT = re.compile(r'from\s+"\./([\w-]+\.js)"')


def rules_page(lang: str, page: str) -> str:
    """The page as a reader of ``lang`` gets it, with runs of white space made one space."""
    response = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/rules/{page}")
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def playing_here(text: str) -> str:
    """The page's "Playing here" section."""
    assert 'id="on-ttr"' in text
    return text.split('id="on-ttr"', 1)[1].split("<h2", 1)[0]


@cache
def catalogue(lang: str, domain: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"))


def label(lang: str, msgid: str, domain: str) -> str:
    """What the table page shows for ``msgid`` in ``lang`` (``domain``: the template's
    catalogue, ``django``, or the scripts', ``djangojs``)."""
    if lang == "en":
        return msgid
    entry = catalogue(lang, domain).find(msgid, msgctxt=None)
    assert entry is not None and entry.msgstr, (lang, domain, msgid)
    return entry.msgstr


@cache
def table_page_texts() -> dict[str, frozenset[str]]:
    """The texts of the table page: its template's, and its scripts' (table.js and every
    module it imports, directly or not), by catalogue."""
    template = (ROOT / "templates" / "games" / "table.html").read_text()
    html = {a or b for a, b in TEMPLATE_TEXT.findall(template)}
    scripts, todo, js = set(), ["table.js"], set()
    while todo:
        name = todo.pop()
        if name in scripts:
            continue
        scripts.add(name)
        source = (ROOT / "games" / "static" / "games" / name).read_text()
        js |= set(JS_TEXT.findall(source))
        todo += JS_IMPORT.findall(source)
    return {"django": frozenset(html), "djangojs": frozenset(js)}


def table_page_labels(lang: str) -> set[str]:
    return {
        label(lang, msgid, domain)
        for domain, msgids in table_page_texts().items()
        for msgid in msgids
        if lang == "en" or catalogue(lang, domain).find(msgid, msgctxt=None)
    }


@pytest.mark.parametrize("page", PAGES)
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


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", RULE_PAGES)
def test_every_rule_set_says_how_it_is_played_here(db, lang, page):
    section = playing_here(rules_page(lang, f"{page}/"))
    assert QUOTED.search(section), "the section names the page's buttons and dialogs"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_every_button_and_dialog_the_pages_quote_is_on_the_table_page(db, lang, page):
    known = table_page_labels(lang)
    missing = sorted(set(QUOTED.findall(rules_page(lang, page))) - known)
    assert missing == [], f"{lang} /rules/{page} quotes labels the table page does not show"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_europe_page_says_a_station_starts_with_its_button(db, lang):
    section = playing_here(rules_page(lang, "europe/"))
    button = label(lang, "Build station", "djangojs")
    assert f'<b class="ui">{button}</b>' in section
    # what the button says during a game ("Build station (2 left)") starts with the quote
    assert label(lang, "Build station (%(n)s left)", "djangojs").startswith(button + " ")
    assert f'<b class="ui">{label(lang, "Choose how to pay", "django")}</b>' in section
    assert f'<b class="ui">{label(lang, "Look at the map", "django")}</b>' in section
    assert f'<b class="ui">{label(lang, "Give up the tunnel", "django")}</b>' in section


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_warehouses_page_names_the_depot_button_and_the_warehouse_dialog(db, lang):
    section = playing_here(rules_page(lang, "warehouses/"))
    button = label(lang, "Place depot", "djangojs")
    assert f'<b class="ui">{button}</b>' in section
    assert label(lang, "Place depot (%(n)s left)", "djangojs").startswith(button + " ")
    for msgid in ("Warehouse card", "Choose how to pay", "Cancel"):
        assert f'<b class="ui">{label(lang, msgid, "django")}</b>' in section, msgid
    assert f'<b class="ui">{label(lang, "Depots", "djangojs")}</b>' in section  # final column


# Sentences each language's pages must hold: the rules as docs/rules.md now has them.
RULES_SAID = {
    "en": {
        "europe/": ["Mega Europe</strong> starts in two steps", "keep one of them or none",
                    "at least 2 of them if you kept a long ticket, or at least 3"],
        "warehouses/": ["before your action", "does not end your turn",
                        "This holds even when that most is 0", "everyone scores the 10",
                        "only if you pay the extra cards"],
    },
    "de": {
        "europe/": ["Mega-Europa</strong> beginnt in zwei Schritten",
                    "behältst eine davon oder keine",
                    "mindestens 2 davon, wenn du eine lange Strecke behalten hast, sonst "
                    "mindestens 3"],
        "warehouses/": ["vor deiner Aktion", "beendet deinen Zug nicht",
                        "Das gilt auch, wenn die meisten 0 sind", "bekommen alle die 10 Punkte",
                        "nur, wenn du die zusätzlichen Karten bezahlst"],
    },
    "nl": {
        "europe/": ["Mega Europa</strong> begint in twee stappen", "houd je er één of geen",
                    "minstens 2 als je een lange route hield, anders minstens 3"],
        "warehouses/": ["vóór je actie", "beëindigt je beurt niet",
                        "Dat geldt ook als dat hoogste aantal 0 is", "scoort iedereen de 10",
                        "alleen als je de extra kaarten betaalt"],
    },
}  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", ["europe/", "warehouses/"])
def test_the_pages_describe_the_rules_as_played(db, lang, page):
    text = rules_page(lang, page)
    missing = [said for said in RULES_SAID[lang][page] if said not in text]
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_clock_and_tournament_numbers_are_the_sites_own(db, lang):
    text = rules_page(lang, "")
    seconds = TableForm.base_fields["move_seconds"].initial
    hours = TableForm.base_fields["turn_hours"].initial
    assert seconds == Table._meta.get_field("move_seconds").default
    assert hours == Table._meta.get_field("turn_hours").default
    assert f"({seconds} " in text and f"({hours}" in text
    assert "12, 8, 4, 0" in text and "12, 6, 0" in text


def test_the_colour_letters_are_the_cards_own():
    source = (ROOT / "games" / "static" / "games" / "cards.js").read_text()
    block = source.split("COLOR_SYMBOLS = Object.freeze({", 1)[1].split("})", 1)[0]
    symbols = {s for s in re.findall(r'\w+: "([^"]*)"', block) if s}
    for lang in LANGUAGES:
        page = (ROOT / "templates" / "rules" / lang / "europe.html").read_text()
        legend = page.split('class="cards-legend">', 1)[1].split("</ul>", 1)[0]
        assert {item.split()[0] for item in re.findall(r"<li>(.*?)</li>", legend)} == symbols
