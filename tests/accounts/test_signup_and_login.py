"""Sign-up, confirmation, log-in and the account forms' answers to bad input."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory
from ttr_site.accounts.models import User

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "a-long-enough-passphrase"


def signup(client, **overrides):
    data = {
        "username": "erin",
        "email": "erin@example.com",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
        **overrides,
    }
    return client.post(reverse("account_signup"), data)


def confirmation_link(message) -> str:
    return re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body).group(0)


def test_a_new_player_signs_up_confirms_and_is_logged_in(client):
    response = signup(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["erin@example.com"]

    link = confirmation_link(mail.outbox[0])
    path = link.split("://", 1)[1].split("/", 1)[1]
    response = client.post("/" + path)
    assert response.status_code == 302

    response = client.get(reverse("profile", kwargs={"username": "erin"}))
    assert response.status_code == 200
    assert response.context["user"].username == "erin"
    assert b"Member since" in response.content


def test_an_unconfirmed_player_cannot_log_in(client):
    signup(client)
    other = Client()
    response = other.post(reverse("account_login"), {"login": "erin", "password": GOOD_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in other.session


def test_a_duplicate_email_gets_a_clear_message(client):
    UserFactory(username="frank", email="erin@example.com")
    response = signup(client)
    assert response.status_code == 200
    assert "already registered with this email" in response.content.decode()
    assert not User.objects.filter(username="erin").exists()


def test_a_weak_password_gets_a_clear_message(client):
    response = signup(client, password1="password", password2="password")
    assert response.status_code == 200
    content = response.content.decode()
    assert "too short" in content
    assert "too common" in content
    assert not User.objects.filter(username="erin").exists()


def test_a_forged_csrf_token_is_refused_with_an_explanation():
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("account_signup"))
    response = client.post(
        reverse("account_signup"),
        {
            "username": "mallory",
            "email": "m@example.com",
            "password1": GOOD_PASSWORD,
            "password2": GOOD_PASSWORD,
            "csrfmiddlewaretoken": "forged" * 8,
        },
    )
    assert response.status_code == 403
    assert "did not come from this site" in response.content.decode()
    assert not User.objects.filter(username="mallory").exists()


def test_repeated_failed_logins_are_locked_out(client, cast):
    for _ in range(5):
        response = client.post(reverse("account_login"), {"login": "alice", "password": "wrong"})
        assert response.status_code == 200
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 200, "the right password is refused while locked out"
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logging_in_by_username_or_email(client, cast):
    response = client.post(reverse("account_login"), {"login": "bob", "password": PASSWORD})
    assert response.status_code == 302
    client.logout()
    response = client.post(
        reverse("account_login"), {"login": "bob@example.com", "password": PASSWORD}
    )
    assert response.status_code == 302


def test_e_mails_name_the_site_as_configured_not_by_the_requests_host(client, cast, settings):
    settings.SITE_NAME = "ttr Nederland"
    client.post(reverse("account_reset_password"), {"email": "carol@example.com"},
                HTTP_HOST="127.0.0.1")  # fmt: skip
    body = mail.outbox[-1].body
    assert "Hello from ttr Nederland!" in body and "Hello from 127.0.0.1" not in body


def test_password_reset_sends_a_working_link(client, cast):
    response = client.post(reverse("account_reset_password"), {"email": "carol@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/accounts/password/reset/key/\S+/", mail.outbox[0].body)
    path = "/" + link.group(0).split("://", 1)[1].split("/", 1)[1]
    response = client.get(path, follow=True)
    assert response.status_code == 200
    form_path = response.redirect_chain[-1][0] if response.redirect_chain else path
    new = "another-long-passphrase"
    response = client.post(form_path, {"password1": new, "password2": new})
    assert response.status_code == 302
    assert User.objects.get(username="carol").check_password(new)
