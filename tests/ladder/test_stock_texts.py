"""The descriptions the site writes itself (the default leagues', the demo tournaments') are
shown in the reader's language while they are unchanged; an edited one is shown as written."""

import importlib
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ladder import stock_texts
from ladder.models import League

pytestmark = pytest.mark.django_db

DEFAULTS = importlib.import_module("ladder.migrations.0002_default_leagues").DEFAULTS


def german(msgid: str) -> str:
    with translation.override("de"):
        text = translation.gettext(msgid)
    assert text != msgid, f"{msgid!r} has no German translation yet"
    return text


def test_the_migrations_descriptions_are_the_stock_texts():
    assert {d[-1] for d in DEFAULTS} <= stock_texts.STOCK


def test_a_default_leagues_description_reads_in_german(europe):
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    for url in (reverse("leagues"), europe.get_absolute_url()):
        html = client.get(url).content.decode()
        assert german(stock_texts.EUROPE_LADDER) in html
        assert stock_texts.EUROPE_LADDER not in html


def test_an_edited_description_is_shown_as_written(europe):
    League.objects.filter(pk=europe.pk).update(description="Our own words.")
    html = Client(HTTP_ACCEPT_LANGUAGE="de").get(europe.get_absolute_url()).content.decode()
    assert "Our own words." in html


def test_the_demo_tournaments_description_reads_in_german(europe):
    call_command("seed_demo", stdout=io.StringIO())
    html = Client(HTTP_ACCEPT_LANGUAGE="de").get("/tournaments/sunday-swiss/").content.decode()
    assert german(stock_texts.DEMO_TOURNAMENT) in html


def test_stock_texts_go_through_the_catalogue_and_others_do_not(europe, monkeypatch):
    """The mechanism alone, whatever the catalogues hold today."""
    monkeypatch.setattr(stock_texts, "gettext", lambda text: f"[de] {text}")
    League.objects.create(name="Club", slug="club", description="Written by a person.")
    html = Client().get(reverse("leagues")).content.decode()
    assert f"[de] {stock_texts.EUROPE_LADDER}" in html
    assert "[de] Written by a person." not in html and "Written by a person." in html
