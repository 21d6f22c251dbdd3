"""An arena of bots on a live site (production mode: uvicorn, a Celery worker and beat over
Redis, PostgreSQL): beat starts it at its start time, every game is played by bots through
the worker, each result seats its players again at once, and the organizer's "end now"
stops new tables while the games in progress still count. The final standings (the public
JSON export) are checked against the stored games."""

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
    by=organizer, name="Bot Arena", starts_at=timezone.now() + timedelta(seconds=4),
    format="arena", duration_minutes=30, table_size=2,
)
for i in range(5):
    services.entry_add_bot(tournament_id=t.pk, by=organizer, level="easy")
print("SLUG", t.slug)
"""

END = """
from ladder import services
from ladder.models import Tournament
t = Tournament.objects.get(slug="{slug}")
services.tournament_end_now(tournament_id=t.pk, by=t.organizer)
"""


def export(site, slug) -> dict:
    with urllib.request.urlopen(f"{site.url}/tournaments/{slug}/results.json", timeout=10) as r:
        return json.loads(r.read())


def tables(site, slug) -> list[str]:
    """The status of every arena table so far, in opening order."""
    rows = site.sql(
        "SELECT p.status FROM ladder_pairing p JOIN ladder_round r ON p.round_id = r.id "
        "JOIN ladder_tournament t ON r.tournament_id = t.id WHERE t.slug = %s ORDER BY p.number",
        (slug,),
    )
    return [status for (status,) in rows]


@pytest.mark.postgres
@pytest.mark.redis
def test_bots_play_an_arena_and_are_seated_again_by_the_worker_until_it_is_ended(tmp_path):
    site = LiveSite("production", tmp_path, extra_env=FAST).start()
    try:
        out = site.manage("shell", "--no-imports", "-c", CREATE)
        slug = out.split("SLUG")[1].split()[0]

        # Five bots at tables of two: two tables, one bot waits; each finished game frees
        # two players, who sit down at once with whoever is free (no beat needed for that).
        def reseated() -> bool:  # the first two tables, and one more per result
            so_far = tables(site, slug)
            return so_far.count("finished") >= 3 and len(so_far) >= 5

        site.wait_for(reseated, timeout=420, what="three games finishing, their players reseated")
        site.manage("shell", "--no-imports", "-c", END.format(slug=slug))
        opened = len(tables(site, slug))
        site.wait_for(lambda: export(site, slug)["tournament"]["status"] == "finished",
                      timeout=420, what="the arena finishing")  # fmt: skip
        data = export(site, slug)
        finals = {tid: engine.final_result(engine.from_json(state))
                  for tid, state in site.sql("SELECT table_id, state FROM games_game")}  # fmt: skip
    finally:
        site.stop()
    assert "Traceback" not in site.output(), site.output()[-3000:]

    (round_,) = data["rounds"]
    played = round_["tables"]
    assert len(played) == opened  # no table opened after the end
    assert [t["number"] for t in played] == list(range(1, opened + 1))
    totals: dict[str, float] = {}
    streak: dict[str, int] = {}
    for table in played:
        assert table["status"] == "finished"  # the games in progress at the end counted
        ranks = [p["rank"] for p in finals[table["table_id"]]["players"]]
        assert [s["place"] for s in table["seats"]] == ranks
        for seat in table["seats"]:
            won = seat["place"] == 1
            base = {1: 12.0, 2: 0.0}[seat["place"]] if ranks.count(1) == 1 else 6.0
            doubled = won and streak.get(seat["player"], 0) >= 1
            assert seat["points"] == (2 * base if doubled else base)
            streak[seat["player"]] = streak.get(seat["player"], 0) + 1 if won else 0
            totals[seat["player"]] = totals.get(seat["player"], 0.0) + seat["points"]
    standings = data["standings"]
    assert len(standings) == 5 and [row["rank"] for row in standings] == [1, 2, 3, 4, 5]
    assert {row["player"]: row["points"] for row in standings} == {
        row["player"]: totals.get(row["player"], 0.0) for row in standings
    }
    ranked = [row["points"] for row in standings]
    assert ranked == sorted(ranked, reverse=True)
    assert any(s["points"] == 24.0 for t in played for s in t["seats"]) or max(streak.values()) < 2
