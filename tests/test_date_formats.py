"""One date and one date-time format across the site's pages, per language
(ttr_site/formats/): "25 Nov 2026" and "25 Nov 2026, 14:05" in English."""

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

from ttr_site.accounts.models import Notification

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
MOMENT = datetime(2026, 11, 25, 14, 5, tzinfo=UTC)
# What a template may ask of |date: the site's two formats, and ISO 8601 for machines.
ALLOWED = {'"DATE_FORMAT"', '"DATETIME_FORMAT"', "'c'", '"c"'}


@pytest.mark.parametrize(
    "lang, day, moment",
    [
        ("en", "25 Nov 2026", "25 Nov 2026, 14:05"),
        ("de", "25. Nov 2026", "25. Nov 2026, 14:05"),
        ("nl", "25 nov 2026", "25 nov 2026, 14:05"),
    ],
)
def test_each_language_has_one_day_and_one_moment_format(lang, day, moment):
    with translation.override(lang):
        assert formats.date_format(MOMENT, "DATE_FORMAT") == day
        assert formats.date_format(MOMENT, "SHORT_DATE_FORMAT") == day
        assert formats.date_format(MOMENT, "DATETIME_FORMAT") == moment
        assert formats.date_format(MOMENT, "SHORT_DATETIME_FORMAT") == moment


def test_forms_still_read_the_dates_people_type():
    with translation.override("de"):
        assert "%d.%m.%Y %H:%M" in formats.get_format("DATETIME_INPUT_FORMATS")


def test_templates_ask_only_for_the_sites_formats():
    used = []
    for path in TEMPLATES.rglob("*.html"):
        for fmt in re.findall(r"\|date:(\"[^\"]*\"|'[^']*')", path.read_text()):
            if fmt not in ALLOWED:
                used.append(f"{path.relative_to(TEMPLATES)}: {fmt}")
    assert used == []


def test_past_moments_are_dates_not_time_ago():
    """A past moment shows as a date; a duration ("waiting for 3 minutes") may stay one."""
    offenders = [
        str(path.relative_to(TEMPLATES))
        for folder in ("ladder", "accounts")
        for path in (TEMPLATES / folder).glob("*.html")
        if re.search(r"\|(timesince|naturaltime)", path.read_text())
        and path.name != "league_detail.html"  # the queue panel: how long you have waited
    ]
    assert offenders == []


@pytest.mark.django_db
def test_the_notifications_page_dates_each_notice(cast):
    notice = Notification.objects.create(user=cast["bob"], text="Hello")
    Notification.objects.filter(pk=notice.pk).update(created_at=MOMENT)
    client = Client()
    client.force_login(cast["bob"])
    assert "25 Nov 2026, 14:05" in client.get(reverse("notifications")).content.decode()
