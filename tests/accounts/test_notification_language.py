"""Notifications are read in the reader's language of the moment, not the one they were sent
in: the message's msgid and parameters are stored and translated when shown (the page, the
header's live toast); rows from before keep their stored text."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy

from ladder import services
from tests.ladder.factories import register, tournament
from ttr_site.accounts.consumers import NotificationConsumer
from ttr_site.accounts.models import Notification
from ttr_site.accounts.services import notification_send


def german(msgid: str, **params) -> str:
    with translation.override("de"):
        text = translation.gettext(msgid)
    assert text != msgid, f"{msgid!r} has no German translation yet"
    return text.format(**params) if "{" in msgid else text % params


def notifications_page(user, **headers) -> str:
    client = Client(**headers)
    client.force_login(user)
    return client.get(reverse("notifications")).content.decode()


@pytest.mark.django_db
def test_a_notice_sent_in_english_reads_in_german_once_the_reader_switches(cast):
    bob = cast["bob"]
    bob.language = "en"
    bob.save(update_fields=["language"])
    t = tournament(cast["alice"], name="Spring Cup")
    register(t, [bob])
    services.tournament_cancel(tournament_id=t.pk, by=cast["alice"])
    (notice,) = Notification.objects.filter(user=bob)
    assert notice.text == "Spring Cup has been cancelled."  # as sent, in English
    assert (notice.key, notice.params) == ("{name} has been cancelled.", {"name": "Spring Cup"})

    bob.language = "de"
    bob.save(update_fields=["language"])
    html = notifications_page(bob)
    assert german("{name} has been cancelled.", name="Spring Cup") in html
    assert "Spring Cup has been cancelled." not in html


@pytest.mark.django_db
def test_a_reader_who_follows_the_browser_reads_in_the_browsers_language(cast):
    carol = cast["carol"]  # language: empty, follow the browser
    notification_send(user=carol, text=gettext_lazy("It is your turn at table %(id)s."),
                      params={"id": 7})  # fmt: skip
    assert Notification.objects.get(user=carol).text == "It is your turn at table 7."
    html = notifications_page(carol, HTTP_ACCEPT_LANGUAGE="de")
    assert german("It is your turn at table %(id)s.", id=7) in html


@pytest.mark.django_db
def test_rows_from_before_keys_and_plain_texts_show_as_stored(cast):
    dave = cast["dave"]
    Notification.objects.create(user=dave, text="An old notice, stored rendered.")
    notification_send(user=dave, text="A plain text, already rendered.")
    html = notifications_page(dave, HTTP_ACCEPT_LANGUAGE="de")
    assert "An old notice, stored rendered." in html
    assert "A plain text, already rendered." in html


@pytest.mark.django_db
def test_a_translation_that_does_not_fit_its_parameters_falls_back_to_the_stored_text(cast):
    notice = Notification.objects.create(
        user=cast["dave"], text="Spring Cup has been cancelled.",
        key="{name} has been cancelled.", params={"wrong": "x"},
    )  # fmt: skip
    with translation.override("de"):
        assert notice.display_text == "Spring Cup has been cancelled."


@pytest.mark.django_db(transaction=True)
def test_the_live_toast_is_in_the_language_of_each_open_page(cast):
    bob = cast["bob"]  # language: empty, so each page speaks its browser's language

    def send():  # in a thread of its own, which closes its database connection after
        try:
            with transaction.atomic():
                notification_send(user=bob, text=gettext_lazy("{name} has been cancelled."),
                                  params={"name": "Spring Cup"})  # fmt: skip
        finally:
            connection.close()

    async def scenario():
        socket = WebsocketCommunicator(NotificationConsumer.as_asgi(), "/ws/notifications/")
        socket.scope["user"] = bob
        socket.scope["headers"] = [(b"accept-language", b"de-DE,de;q=0.9")]
        assert (await socket.connect())[0]
        await asyncio.get_running_loop().run_in_executor(None, send)
        message = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return message

    with translation.override("en"):  # the sender's language does not matter
        message = async_to_sync(scenario)()
    assert message["kind"] == "notification"
    assert message["text"] == german("{name} has been cancelled.", name="Spring Cup")
