"""Hostile input (tests/reliability/fuzz.py, fuzz_http.py): socket frames, forms, API bodies.

A normal run fuzzes a few thousand frames and a few hundred requests; ``make fuzz`` runs
``FUZZ_FRAMES=100000`` (and ``FUZZ_REQUESTS``). ``FUZZ_SEED`` replays a run; without it the
seed is new each time and printed with the figures (``-s`` shows them; a failure shows them
anyway).
"""

import os
import time
import uuid
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync

from tests.factories import UserFactory
from tests.reliability.fuzz import fuzz_sockets
from tests.reliability.fuzz_http import fuzz_api, fuzz_forms

FRAMES = int(os.environ.get("FUZZ_FRAMES", "2000"))
REQUESTS = int(os.environ.get("FUZZ_REQUESTS", "300"))  # forms, and as many API calls
SEED = int(os.environ.get("FUZZ_SEED", str(int(time.time() * 1000) % 2**32)))


@pytest.fixture(autouse=True)
def fuzz_settings(settings):
    """A cache of the run's own; fast password hashing; rate limits out of the way (they have
    their own tests: here every frame must reach the code under test)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": uuid.uuid4().hex,
        }
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.ACTION_RATE_LIMIT = settings.SOCKET_FRAME_RATE_LIMIT = 10**9
    rates = dict.fromkeys(("anon", "user", "writes", "actions"), "1000000/minute")
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": rates}


@pytest.fixture
def world(db):
    """Something of everything a form can act on: an open, a running and a private table, a
    league with a member, a tournament with an entrant, API tokens."""
    from django.utils import timezone

    from games import services
    from ladder import services as ladder
    from tests.ladder.factories import tournament
    from ttr_site.accounts.services import api_token_create

    users = {name: UserFactory(username=name) for name in ("alice", "bob", "carol")}
    alice, bob = users["alice"], users["bob"]
    open_table = services.table_create(owner=alice, seat_count=3)
    services.table_join(table_id=open_table.pk, user=bob)
    running = services.table_create(owner=alice, seat_count=2)
    services.table_join(table_id=running.pk, user=bob)
    private = services.table_create(owner=alice, seat_count=2, is_private=True)
    league = ladder.league_create(by=alice, name="Fuzz League", ruleset="europe",
                                  variant="classic", time_controls=["realtime"])  # fmt: skip
    ladder.league_join(league_id=league.pk, user=bob)
    cup = tournament(alice, name="Fuzz Cup", starts_at=timezone.now() + timedelta(days=1))
    entries = [ladder.tournament_register(tournament_id=cup.pk, user=bob)]
    token, secret = api_token_create(user=alice, name="fuzz")
    _, bob_secret = api_token_create(user=bob, name="fuzz")
    ids = {
        "table_id": [open_table.pk, running.pk, private.pk],
        "slug": [league.slug, cup.slug, "europe"],
        "leagues:slug": [league.slug, "europe"],
        "tournaments:slug": [cup.slug],
        "user_id": [u.pk for u in users.values()],
        "token_id": [token.pk],
        "entry_id": [e.pk for e in entries],
        "position": [0, 1, 2],
        "username": list(users),
        "ruleset": ["europe", "new_york"],
        "time_control": ["realtime", "turn"],
        "tab": ["standings", "rounds", "players", "tables"],
        "fmt": ["csv", "json"],
        "action": ["start", "pause", "resume", "cancel"],
        "token": [private.invite_token, league.invite_token],
        "number": [1],
    }
    pages = {
        "alice": ["/", "/play/", "/play/new/", f"/table/{open_table.pk}/", f"/table/{running.pk}/",
                  f"/table/{private.pk}/", "/leagues/", "/leagues/new/", f"/leagues/{league.slug}/",
                  f"/leagues/{league.slug}/members/", "/tournaments/", "/tournaments/new/",
                  f"/tournaments/{cup.slug}/", "/settings/", "/notifications/",
                  "/accounts/email/", "/accounts/password/change/"],
        "bob": [f"/table/{open_table.pk}/", f"/leagues/{league.slug}/", "/leagues/europe/",
                f"/tournaments/{cup.slug}/"],
        None: ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"],
    }  # fmt: skip
    tokens = {"alice": secret, "bob": bob_secret, None: None}
    return {"users": users, "ids": ids, "pages": pages, "tokens": tokens}


@pytest.mark.django_db(transaction=True)
def test_socket_frames_never_break_a_game_or_a_connection():
    players = [UserFactory(username=f"fuzz{i}") for i in range(5)]
    outsider = UserFactory(username="outsider")
    report = async_to_sync(fuzz_sockets)(
        frames=FRAMES, seed=SEED, players=players, outsider=outsider
    )
    print(report.summary())
    assert not report.failures, report.summary()
    assert report.checks["legal_accepted"] > 0 and report.checks["no_leak"] > 0


@pytest.mark.django_db(transaction=True)
def test_forms_never_answer_with_a_server_error(world):
    report = fuzz_forms(seed=SEED, requests=REQUESTS, pages=world["pages"],
                        users=world["users"], ids=world["ids"])  # fmt: skip
    print(report.summary("form"))
    assert not report.failures, report.summary("form")
    assert len(report.targets) > 20  # the crawl found the forms


@pytest.mark.django_db(transaction=True)
def test_api_writes_never_answer_with_a_server_error(world):
    report = fuzz_api(seed=SEED, requests=REQUESTS, tokens=world["tokens"], ids=world["ids"])
    print(report.summary("API"))
    assert not report.failures, report.summary("API")
