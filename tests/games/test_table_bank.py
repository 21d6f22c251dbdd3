"""The New table form's time bank (games/forms.py): real time only, 0 to 3600 seconds, the
tournament form's field; it reaches the table and its settings."""

import pytest
from django.urls import reverse

from games.models import Table

pytestmark = pytest.mark.django_db

FORM = {"ruleset": "europe", "variant": "classic", "seat_count": 3,
        "time_control": "realtime", "move_seconds": 60, "turn_hours": 24}  # fmt: skip


def post(client, **changes):
    return client.post(reverse("table_create"), {**FORM, **changes})


def test_the_bank_reaches_the_table_and_its_settings(client, cast):
    client.force_login(cast["alice"])
    response = post(client, bank_seconds=150)
    table = Table.objects.get()
    assert response.status_code == 302 and table.bank_seconds == 150
    page = client.get(table.get_absolute_url()).content.decode()
    assert "60 s per move + 150 s bank" in page


@pytest.mark.parametrize("value", ["-1", "3601", "lots"])
def test_a_bank_out_of_bounds_is_one_field_error(client, cast, value):
    client.force_login(cast["alice"])
    response = post(client, bank_seconds=value)
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["bank_seconds"]
    assert not Table.objects.exists()


def test_no_bank_sent_means_no_bank(client, cast):
    client.force_login(cast["alice"])
    assert post(client).status_code == 302
    assert Table.objects.get().bank_seconds == 0


def test_a_turn_based_table_has_no_bank_whatever_was_sent(client, cast):
    client.force_login(cast["alice"])
    response = post(client, time_control="turn_based", bank_seconds="9999")
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.time_control == "turn_based" and table.bank_seconds == 0
