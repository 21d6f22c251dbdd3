"""A new password revokes every API token of its user, whichever way it was set."""

import re

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import PASSWORD
from ttr_site.accounts.models import ApiToken, User
from ttr_site.accounts.services import api_token_create

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-passphrase"


def works(secret: str) -> bool:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client.get("/api/v1/me/").status_code == 200


def two_tokens(user) -> list[str]:
    secrets = [api_token_create(user=user, name=name)[1] for name in ("bot", "script")]
    assert all(works(secret) for secret in secrets)
    return secrets


def test_changing_the_password_revokes_every_token(client, cast):
    secrets = two_tokens(cast["alice"])
    _other, bobs = api_token_create(user=cast["bob"], name="bob's bot")
    client.force_login(cast["alice"])
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert not any(works(secret) for secret in secrets)
    assert not ApiToken.objects.filter(user=cast["alice"]).active().exists()
    assert works(bobs), "another player's tokens stay"


def test_resetting_the_password_by_e_mail_revokes_every_token(client, cast):
    secrets = two_tokens(cast["carol"])
    client.post(reverse("account_reset_password"), {"email": "carol@example.com"})
    link = re.search(r"https?://\S+/accounts/password/reset/key/\S+/", mail.outbox[-1].body)
    path = "/" + link.group(0).split("://", 1)[1].split("/", 1)[1]
    response = client.get(path, follow=True)
    form_path = response.redirect_chain[-1][0] if response.redirect_chain else path
    response = client.post(form_path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert User.objects.get(username="carol").check_password(NEW_PASSWORD)
    assert not any(works(secret) for secret in secrets)


def test_the_admins_password_form_and_set_password_revoke_every_token(client, cast):
    secrets = two_tokens(cast["dave"])
    admin = User.objects.create_superuser("root", "root@example.com", NEW_PASSWORD)
    client.force_login(admin)
    url = reverse("admin:auth_user_password_change", args=[cast["dave"].pk])
    response = client.post(url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302, response.content[:500]
    assert not any(works(secret) for secret in secrets)
    dave = User.objects.get(username="dave")
    later = api_token_create(user=dave, name="after")[1]
    dave.display_name = "Dave D."
    dave.save()  # other changes to the account leave tokens alone
    assert works(later)
    dave.set_password("yet-another-passphrase")  # manage.py changepassword, a shell
    dave.save()
    assert not works(later)


def test_a_new_account_and_a_plain_save_revoke_nothing(cast):
    user = User.objects.create_user("erin", "erin@example.com", NEW_PASSWORD)
    secret = api_token_create(user=user, name="bot")[1]
    user.save()
    assert works(secret)


def test_the_settings_page_says_a_new_password_revokes_the_tokens(client, cast):
    client.force_login(cast["alice"])
    page = client.get(reverse("account_settings")).content.decode()
    assert "Changing or resetting your password revokes all your tokens." in page
