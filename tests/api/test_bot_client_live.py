"""examples/bot_client.py plays a whole game against bots on a live site, using only the
public API (REST and the table socket) with a personal token."""

import re
import subprocess
import sys

import pytest

from tests.live import ROOT, LiveSite

MAKE_TOKEN = """
from ttr_site.accounts.models import User
from ttr_site.accounts.services import api_token_create
user = User.objects.create_user("robota", "robota@example.com", "a-long-enough-passphrase")
print("TOKEN", api_token_create(user=user, name="bot client")[1])
"""


def make_token(site: LiveSite) -> str:
    return re.search(r"TOKEN (\S+)", site.manage("shell", "-c", MAKE_TOKEN)).group(1)


@pytest.fixture
def site(tmp_path):
    live = LiveSite("embedded", tmp_path, extra_env={"BOT_MOVE_DELAY": "0.02"}).start()
    yield live
    live.stop()


@pytest.mark.parametrize("via", ["socket", "rest"])
def test_the_example_bot_plays_a_whole_game_itself(site, via):
    token = make_token(site)
    command = [sys.executable, "examples/bot_client.py", "--url", site.url, "--token", token,
               "--create", "--bots", "1", "--via", via, "--timeout", "240"]  # fmt: skip
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr + site.output()[-3000:]
    line = re.search(r"final: seat (\d+) scored (-?\d+) \(rank (\d) of 2\)", result.stdout)
    assert line, result.stdout
    seat = int(line.group(1))
    table_id = int(re.search(r"plays table (\d+)", result.stdout).group(1))
    [(status,)] = site.sql("SELECT status FROM games_table WHERE id = %s", (table_id,))
    assert status == "finished"
    moves = site.sql(
        "SELECT e.user_id, e.by_timeout, e.by_bot FROM games_gameevent e "
        "JOIN games_game g ON g.id = e.game_id WHERE g.table_id = %s AND e.seat = %s",
        (table_id, seat),
    )
    assert len(moves) > 10
    # Every one of the client's decisions was its own: none by timeout, none by a bot.
    assert all(user is not None and not timeout and not bot for user, timeout, bot in moves)
    print(result.stdout.strip().splitlines()[-1], f"({len(moves)} moves by the client)")
    assert "Traceback" not in site.output()
