"""The page language: the browser's preference, overridden by the switcher (a cookie), and
for a signed-in player by the language stored on the account."""

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def lang(response) -> str:
    return re.search(r'<html lang="([a-z-]+)"', response.content.decode()).group(1)


def test_a_visitor_gets_the_browsers_language():
    assert lang(Client().get("/", HTTP_ACCEPT_LANGUAGE="nl-BE,nl;q=0.9,en;q=0.5")) == "nl"
    assert lang(Client().get("/", HTTP_ACCEPT_LANGUAGE="de-DE")) == "de"
    assert lang(Client().get("/", HTTP_ACCEPT_LANGUAGE="fr-FR")) == "en"


def test_the_switcher_overrides_the_browser_for_a_visitor():
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.post("/i18n/setlang/", {"language": "nl", "next": "/"})
    assert lang(client.get("/")) == "nl"


def test_a_players_switch_is_stored_on_the_account_and_follows_them(cast):
    alice = cast["alice"]
    laptop = Client(HTTP_ACCEPT_LANGUAGE="en")
    laptop.force_login(alice)
    response = laptop.post("/i18n/setlang/", {"language": "de", "next": "/play/"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    alice.refresh_from_db()
    assert alice.language == "de"
    phone = Client(HTTP_ACCEPT_LANGUAGE="nl")  # another device, another browser language
    phone.force_login(alice)
    assert lang(phone.get("/")) == "de"


def test_a_forged_language_changes_nothing(cast):
    client = Client()
    client.force_login(cast["bob"])
    client.post("/i18n/setlang/", {"language": "xx-evil", "next": "https://evil.example/"})
    cast["bob"].refresh_from_db()
    assert cast["bob"].language == ""
    assert client.get("/i18n/setlang/").status_code == 405
