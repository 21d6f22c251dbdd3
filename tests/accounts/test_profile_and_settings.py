"""Public profiles, the settings page and notifications."""

import pytest
from django.urls import reverse

from ttr_site.accounts.models import Notification, User
from ttr_site.accounts.services import notification_send

pytestmark = pytest.mark.django_db


def test_a_profile_is_public(client, cast):
    alice = cast["alice"]
    alice.country = "NL"
    alice.save()
    response = client.get(reverse("profile", kwargs={"username": "alice"}))
    assert response.status_code == 200
    content = response.content.decode()
    assert "Alice" in content
    assert "Netherlands" in content
    assert "Member since" in content


def test_an_unknown_profile_is_a_friendly_404(client):
    response = client.get(reverse("profile", kwargs={"username": "nobody"}))
    assert response.status_code == 404
    assert "could not find that page" in response.content.decode()


def test_settings_need_a_login(client):
    response = client.get(reverse("account_settings"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_a_player_edits_their_profile(client, cast):
    client.force_login(cast["bob"])
    response = client.post(
        reverse("account_settings"),
        {"display_name": "Bobby", "country": "DE", "bio": "Tunnels!", "language": "de"},
    )
    assert response.status_code == 302
    bob = User.objects.get(username="bob")
    assert (bob.display_name, bob.country.code, bob.bio, bob.language) == (
        "Bobby",
        "DE",
        "Tunnels!",
        "de",
    )


def test_settings_reject_an_unknown_country_and_change_nothing(client, cast):
    client.force_login(cast["bob"])
    response = client.post(reverse("account_settings"), {"display_name": "X", "country": "ZZ"})
    assert response.status_code == 200
    assert "not one of the available choices" in response.content.decode()
    assert User.objects.get(username="bob").display_name == "Bob"


def test_opening_the_notifications_marks_them_read_and_clears_the_badge(client, cast):
    carol = cast["carol"]
    notification_send(user=carol, text="Your table is ready", url="/play/")
    client.force_login(carol)
    assert client.get(reverse("home")).context["unread_notifications"] == 1
    response = client.get(reverse("notifications"))
    page = response.content.decode()
    assert "Your table is ready" in page and 'class="unread"' in page  # still shown as new
    assert response.context["unread_notifications"] == 0  # the header's badge is clear
    assert 'id="notification-count" class="badge hidden"' in page
    assert not Notification.objects.unread().filter(user=carol).exists()
    assert client.post(reverse("notifications_read")).status_code == 302  # still harmless


def test_the_password_notice_task_stores_a_notification_in_the_players_language(cast):
    # The whole path (signal -> Celery worker -> live push) runs in tests/test_live_site.py.
    from ttr_site.accounts.tasks import notify_password_changed

    notify_password_changed(cast["dave"].pk)
    notice = Notification.objects.get(user=cast["dave"])
    assert "password was changed" in notice.text
    assert notice.url == reverse("account_reset_password")
