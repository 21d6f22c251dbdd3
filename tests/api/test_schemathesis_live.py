"""Schemathesis against the live schema of a running site: every operation, a bounded
number of generated requests each (as a signed-in token user), no 5xx and no response that
breaks the schema. Nothing is excluded."""

import re
import subprocess
import sys

import pytest

from tests.api.test_bot_client_live import make_token
from tests.live import ROOT, LiveSite

# Generous rates: the fuzzer is one client sending thousands of requests in two minutes.
FAST = {"BOT_MOVE_DELAY": "0.02", "API_THROTTLE_ANON": "100000/minute",
        "API_THROTTLE_USER": "100000/minute", "API_THROTTLE_WRITES": "100000/minute",
        "API_THROTTLE_ACTIONS": "100000/minute"}  # fmt: skip
CHECKS = ",".join(["not_a_server_error", "status_code_conformance", "content_type_conformance",
                   "response_schema_conformance"])  # fmt: skip
# Real objects for the fuzzer to meet besides random ids: a running table and a tournament
# the token user organizes (the default leagues come with the migrations).
SEED = """
from datetime import timedelta
from django.utils import timezone
from games import services as games
from ladder import services
from ttr_site.accounts.models import User
owner = User.objects.get(username="robota")
table = games.table_create(owner=owner, seat_count=2)
games.table_add_bot(table_id=table.pk, by=owner)
t = services.tournament_create(by=owner, name="Fuzz Cup",
                               starts_at=timezone.now() + timedelta(hours=1))
print("TABLE", table.pk, "TOURNAMENT", t.slug)
"""


@pytest.fixture
def site(tmp_path):
    live = LiveSite("embedded", tmp_path, extra_env=FAST).start()
    yield live
    live.stop()


@pytest.mark.timeout(420)
def test_the_live_api_conforms_to_its_schema(site, tmp_path):
    token = make_token(site)
    site.manage("shell", "-c", SEED)
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", f"{site.url}/api/schema/?format=json",
        "--url", site.url, "-H", f"Authorization: Bearer {token}", "--checks", CHECKS,
        "--phases", "examples,coverage,fuzzing", "--max-examples", "12", "--seed", "7",
        "--request-timeout", "20", "--generation-deterministic", "--continue-on-failure",
        "--report", "junit", "--report-dir", str(tmp_path), "--suppress-health-check", "all",
    ]  # fmt: skip
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=400)
    out = result.stdout + result.stderr
    (tmp_path / "schemathesis.txt").write_text(out)
    print(out[-3000:])
    assert result.returncode == 0, f"see {tmp_path / 'schemathesis.txt'}\n" + out[-6000:]
    operations = re.search(r"Tested: (\d+)", out)
    assert operations and int(operations.group(1)) >= 40, out[-3000:]
    assert "Traceback" not in site.output(), site.output()[-5000:]
