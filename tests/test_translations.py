"""German and Dutch: every text of the site is translated, none is fuzzy, the catalogues are
current with the code, every engine reason code reads in both, and every How to play page
exists in both."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.utils import translation

from games.reasons import REASON_MESSAGES
from ttr_site.views import RULE_PAGES

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ["de", "nl"]
DOMAINS = ["django", "djangojs"]
CATALOGUES = [(lang, domain) for lang in LANGUAGES for domain in DOMAINS]
# Directories makemessages skips: not the product's user-facing text.
IGNORED = [".venv", "tests", "benchmarks", "examples", "staticfiles", "var", "docs"]
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|\{[a-z_]+\}")


def catalogue(lang: str, domain: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"))


@pytest.mark.parametrize(("lang", "domain"), CATALOGUES)
def test_every_entry_is_translated_and_none_is_fuzzy(lang, domain):
    po = catalogue(lang, domain)
    assert len(po) > 100
    missing = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert (missing, fuzzy) == ([], [])


@pytest.mark.parametrize(("lang", "domain"), CATALOGUES)
def test_translations_keep_every_placeholder(lang, domain):
    for entry in catalogue(lang, domain).translated_entries():
        forms = [(entry.msgid, entry.msgstr)]
        if entry.msgid_plural:
            forms = [(entry.msgid_plural, text) for text in entry.msgstr_plural.values()]
        for source, text in forms:
            wanted = sorted(set(PLACEHOLDER.findall(source)))
            assert sorted(set(PLACEHOLDER.findall(text))) == wanted, (lang, entry.msgid, text)


@pytest.mark.gettext
def test_the_catalogues_hold_every_text_of_the_code(tmp_path):
    """Extract the texts afresh (into a copy of the tree) and look each one up."""
    copy = tmp_path / "tree"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, tracked):
        if (ROOT / name).is_file() and not name.startswith("locale/"):
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    ignore = [arg for d in IGNORED for arg in ("-i", d)]
    for domain in DOMAINS:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-l", "de", "-d", domain, *ignore],
            cwd=copy, check=True, capture_output=True, env={"DEBUG": "true", "PATH": "/usr/bin"},
        )  # fmt: skip
        fresh = polib.pofile(str(copy / "locale" / "de" / "LC_MESSAGES" / f"{domain}.po"))
        assert len(fresh) > 100
        for lang in LANGUAGES:
            known = {(e.msgctxt, e.msgid) for e in catalogue(lang, domain)}
            missing = sorted(e.msgid for e in fresh if (e.msgctxt, e.msgid) not in known)
            assert missing == [], f"{lang}/{domain}: run makemessages and translate {missing[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_engine_reason_code_reads_in_the_language(lang):
    for code, text in REASON_MESSAGES.items():
        with translation.override(lang):
            translated = str(text)
        with translation.override("en"):
            english = str(text)
        assert translated and translated != english, (lang, code)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", ["index", "_site", *[p.replace("-", "_") for p in RULE_PAGES]])
def test_every_how_to_play_page_is_written_in_the_language(lang, page):
    text = (ROOT / "templates" / "rules" / lang / f"{page}.html").read_text()
    english = (ROOT / "templates" / "rules" / "en" / f"{page}.html").read_text()
    assert text != english
    tags = re.compile(r"{%[^%]*%}|{{[^}]*}}|id=\"[^\"]+\"")
    assert sorted(tags.findall(text)) == sorted(tags.findall(english)), "same links and facts"
