"""Pages point only at what the site serves: no "see docs/….md" (files of the repository a
visitor cannot open); what those files explain to players is on the How to play pages."""

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from ladder.models import League
from tests.ladder.conftest import ensure_default_leagues

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
# "docs/" not inside a URL path the site serves (/api/docs/ is the API's reference).
REPOSITORY_DOCS = re.compile(r"(?<![/\w])docs/")


COMMENTS = re.compile(r"\{% comment %\}.*?\{% endcomment %\}|\{#.*?#\}|<!--.*?-->", re.S)


def test_no_template_refers_to_the_repositorys_docs():
    offenders = [
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*.html")
        if REPOSITORY_DOCS.search(COMMENTS.sub("", path.read_text()))  # comments: not shown
    ]
    assert offenders == []


@pytest.mark.django_db
def test_the_accuracy_page_links_to_how_ratings_work_and_the_link_resolves():
    ensure_default_leagues()
    europe = League.objects.get(slug="europe")
    client = Client()
    html = client.get(reverse("league_accuracy", args=[europe.slug])).content.decode()
    assert not REPOSITORY_DOCS.search(html)
    (paragraph,) = re.findall(r'<p[^>]*id="ratings-explained"[^>]*>(.*?)</p>', html, re.S)
    (href,) = re.findall(r'href="([^"]+)"', paragraph)
    assert href == reverse("rules") + "#site"
    rules = client.get(href.split("#")[0])
    assert rules.status_code == 200
    assert 'id="site"' in rules.content.decode() and "Ratings" in rules.content.decode()


@pytest.mark.django_db
def test_the_api_reference_points_at_the_protocol_it_serves():
    client = Client()
    schema = client.get("/api/schema/?format=json").content.decode()
    assert not REPOSITORY_DOCS.search(schema)
    assert "/api/protocol/" in schema
    protocol = client.get("/api/protocol/")
    assert protocol.status_code == 200
    assert protocol["Content-Type"].startswith("text/plain")
    text = protocol.content.decode()
    assert '{"type": "take_back"}' in text and '"kind": "table_started"' in text
