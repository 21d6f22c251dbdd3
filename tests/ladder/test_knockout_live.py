"""A whole knockout on a live site with a real worker (docs/tournaments.md "Knockout"):
7 bots at tables of 3, the best of each table through: round 1 is two tables and a bye to
the top seed, round 2 the final of three.

Production mode: uvicorn, a Celery worker and beat over Redis, PostgreSQL. Beat starts it;
bots play every game through the worker; each result closes the round and seats the next.
"""

import json
import urllib.request

import pytest

from games import engine
from tests.live import LiveSite

FAST = {"BOT_MOVE_DELAY": "0.02", "BOT_STALL_SECONDS": "5"}

CREATE = """
from datetime import timedelta
from django.utils import timezone
from ladder import services
from ttr_site.accounts.models import User
organizer = User.objects.create_user("organizer", "o@example.com", "pw-long-enough-1")
t = services.tournament_create(
    by=organizer, name="Bot Knockout", starts_at=timezone.now() + timedelta(seconds=4),
    format="knockout", table_size=3, allow_smaller=False, advance_count=1,
    round_break_seconds=0,
)
for i in range(7):
    level = ["easy", "medium", "hard"][i % 3]
    services.entry_add_bot(tournament_id=t.pk, by=organizer, level=level)
print("SLUG", t.slug)
"""


def export(site, slug) -> dict:
    with urllib.request.urlopen(f"{site.url}/tournaments/{slug}/results.json", timeout=10) as r:
        return json.loads(r.read())


@pytest.mark.postgres
@pytest.mark.redis
def test_seven_bots_play_a_knockout_to_the_final_through_the_worker(tmp_path):
    site = LiveSite("production", tmp_path, extra_env=FAST).start()
    try:
        out = site.manage("shell", "--no-imports", "-c", CREATE)
        slug = out.split("SLUG")[1].split()[0]
        site.wait_for(lambda: export(site, slug)["tournament"]["status"] == "finished",
                      timeout=420, what="the knockout finishing")  # fmt: skip
        data = export(site, slug)
        games = {tid: engine.final_result(engine.from_json(state))
                 for tid, state in site.sql("SELECT table_id, state FROM games_game")}  # fmt: skip
        out_in = dict(site.sql("SELECT e.id, e.eliminated_in FROM ladder_entry e "
                               "JOIN ladder_tournament t ON t.id = e.tournament_id "
                               "WHERE t.slug = %s", (slug,)))  # fmt: skip
    finally:
        site.stop()
    assert "Traceback" not in site.output(), site.output()[-3000:]

    first, final = data["rounds"]
    assert [len(t["seats"]) for t in first["tables"]] == [3, 3, 1]
    assert [t["bye"] for t in first["tables"]] == [False, False, True]
    assert [len(t["seats"]) for t in final["tables"]] == [3]
    for r in (first, final):
        for table in r["tables"]:
            if table["bye"]:
                continue
            ranks = [p["rank"] for p in games[table["table_id"]]["players"]]
            assert [s["place"] for s in table["seats"]] == ranks  # the games' own ranks
    winners = {min(t["seats"], key=lambda s: s["place"])["player"]
               for t in first["tables"] if not t["bye"]}  # fmt: skip
    (bye,) = [t["seats"][0]["player"] for t in first["tables"] if t["bye"]]
    finalists = {s["player"] for s in final["tables"][0]["seats"]}
    assert finalists == winners | {bye}

    standings = data["standings"]
    assert [row["rank"] for row in standings] == list(range(1, 8))
    by_place = sorted(final["tables"][0]["seats"], key=lambda s: s["place"])
    if len({s["place"] for s in by_place}) == 3:  # no shared place at the final
        assert [row["player"] for row in standings[:3]] == [s["player"] for s in by_place]
    assert {row["player"] for row in standings[:3]} == finalists
    assert sum(1 for v in out_in.values() if v == 1) == 4
    assert sum(1 for v in out_in.values() if v is None) == 3
