"""The New table form: only the chosen map's variants, seats and options; only the chosen
time control's clock (games/forms.py, games/static/games/table_form.js)."""

from html import unescape

import pytest
from django.urls import reverse

from games import services
from games.models import Table

pytestmark = pytest.mark.django_db


FORM = {"ruleset": "europe", "variant": "classic", "seat_count": 3,
        "time_control": "realtime", "move_seconds": 60, "turn_hours": 24}  # fmt: skip


def post(client, **changes):
    return client.post(reverse("table_create"), {**FORM, **changes})


def all_errors(response) -> list[str]:
    form = response.context["form"]
    return [str(e) for errors in form.errors.values() for e in errors]


def test_a_forged_europe_table_with_new_yorks_variant_gets_one_field_error(client, cast):
    client.force_login(cast["alice"])
    response = post(client, variant="standard")
    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == ["variant"]
    assert len(form.errors["variant"]) == 1
    assert "Europe" in form.errors["variant"][0]
    assert response.content.decode().count(form.errors["variant"][0]) == 1
    assert not Table.objects.exists()


def test_new_york_with_five_seats_gets_exactly_one_error(client, cast):
    client.force_login(cast["alice"])
    response = post(client, ruleset="new_york", variant="standard", seat_count=5)
    assert response.status_code == 200
    errors = all_errors(response)
    assert list(response.context["form"].errors) == ["seat_count"]
    assert len(errors) == 1 and "2 to 4" in errors[0]
    assert response.content.decode().count("2 to 4") == 1, "the error is printed once"
    assert not Table.objects.exists()


def test_new_york_with_warehouses_is_refused(client, cast):
    client.force_login(cast["alice"])
    response = post(client, ruleset="new_york", variant="standard", warehouses="on")
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["warehouses"]
    assert len(all_errors(response)) == 1
    assert not Table.objects.exists()


def test_europe_with_warehouses_creates_a_table_with_the_option(client, cast):
    client.force_login(cast["alice"])
    response = post(client, warehouses="on")
    table = Table.objects.get()
    assert response["Location"] == table.get_absolute_url()
    assert table.options == {"warehouses": True}
    assert post(client).status_code == 302
    assert Table.objects.exclude(pk=table.pk).get().options == {}


def test_only_the_chosen_clock_counts(client, cast):
    client.force_login(cast["alice"])
    # Turn-based: a missing or bad seconds field (hidden) does not matter.
    response = post(client, time_control="turn_based", move_seconds="", turn_hours=12)
    assert response.status_code == 302
    assert Table.objects.get().turn_hours == 12
    response = post(client, time_control="turn_based", move_seconds=-5, turn_hours="")
    assert list(response.context["form"].errors) == ["turn_hours"]


def test_the_form_carries_each_maps_variants_and_seats(client, cast):
    client.force_login(cast["alice"])
    html = client.get(reverse("table_create")).content.decode()
    assert 'data-ruleset="new_york"' in html and 'data-ruleset="europe"' in html
    assert 'data-max-seats="4"' in html and 'data-max-seats="5"' in html
    assert 'name="warehouses"' in html
    assert "games/table_form.js" in html


def test_lobby_and_table_page_show_warehouses_and_depots(client, cast):
    table = services.table_create(owner=cast["alice"], seat_count=3, options={"warehouses": True})
    plain = services.table_create(owner=cast["bob"], seat_count=3)
    lobby = unescape(client.get(reverse("play")).content.decode())
    row = lobby.split(f'data-table-id="{table.pk}"')[1].split("</tr>")[0]
    assert "W&D" in row
    assert "W&D" not in lobby.split(f'data-table-id="{plain.pk}"')[1].split("</tr>")[0]
    page = unescape(client.get(table.get_absolute_url()).content.decode())
    assert "Warehouses & Depots" in page
    plain_page = unescape(client.get(plain.get_absolute_url()).content.decode())
    assert "Warehouses & Depots" not in plain_page
