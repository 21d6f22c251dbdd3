"""A whole Swiss tournament on a live site: 13 bots, 4-player tables (3 allowed), 3 rounds.

Production mode: uvicorn, a Celery worker and beat over Redis, PostgreSQL. Beat starts the
tournament at its start time; every game is played by bots through the worker; each result
pairs the next round. The final standings (read from the public JSON export) are checked
against the stored games and against an independent computation of points and tie-breaks.
"""

import json
import urllib.request
from collections import defaultdict
from statistics import mean

import pytest

from games import engine
from tests.live import LiveSite

FAST = {"BOT_MOVE_DELAY": "0.02", "BOT_STALL_SECONDS": "5"}
LINEAR = {2: [12, 0], 3: [12, 6, 0], 4: [12, 8, 4, 0]}

CREATE = """
from datetime import timedelta
from django.utils import timezone
from ladder import services
from ttr_site.accounts.models import User
organizer = User.objects.create_user("organizer", "o@example.com", "pw-long-enough-1")
t = services.tournament_create(
    by=organizer, name="Bot Open", starts_at=timezone.now() + timedelta(seconds=4),
    table_size=4, allow_smaller=True, round_count=3, round_break_seconds=0,
)
for i in range(13):
    level = ["easy", "medium", "hard"][i % 3]
    services.entry_add_bot(tournament_id=t.pk, by=organizer, level=level)
print("SLUG", t.slug)
"""


def export(site, slug) -> dict:
    with urllib.request.urlopen(f"{site.url}/tournaments/{slug}/results.json", timeout=10) as r:
        return json.loads(r.read())


def finished_games(site) -> dict[int, dict]:
    """The engine's final result of every game on the site, by table id."""
    rows = site.sql("SELECT table_id, state FROM games_game")
    return {table_id: engine.final_result(engine.from_json(state)) for table_id, state in rows}


def independent_standings(rounds) -> dict[str, dict]:
    """Points and tie-breaks recomputed here from the tables (the rules of docs/tournaments.md)."""
    points, games, per_round = defaultdict(float), defaultdict(int), defaultdict(list)
    for r in rounds:
        for table in r["tables"]:
            for seat in table["seats"]:
                points[seat["player"]] += seat["points"]
                games[seat["player"]] += 1
    for r in rounds:
        for table in r["tables"]:
            names = [s["player"] for s in table["seats"]]
            for name in names:
                per_round[name].append(mean(points[o] for o in names if o != name))
    out = {}
    for name, values in per_round.items():
        cut = sorted(values)[1:] if len(values) > 1 else values
        out[name] = {"points": points[name], "games": games[name],
                     "buchholz": mean(values), "buchholz_cut1": mean(cut)}  # fmt: skip
    return out


@pytest.mark.postgres
@pytest.mark.redis
def test_thirteen_bots_play_a_three_round_swiss_to_the_end(tmp_path):
    site = LiveSite("production", tmp_path, extra_env=FAST).start()
    try:
        out = site.manage("shell", "--no-imports", "-c", CREATE)
        slug = out.split("SLUG")[1].split()[0]
        site.wait_for(lambda: export(site, slug)["tournament"]["status"] == "finished",
                      timeout=420, what="the tournament finishing")  # fmt: skip
        data = export(site, slug)
        results = finished_games(site)
    finally:
        site.stop()
    assert "Traceback" not in site.output(), site.output()[-3000:]

    rounds = data["rounds"]
    assert [r["number"] for r in rounds] == [1, 2, 3]
    for r in rounds:  # 13 = 4 + 3 + 3 + 3: no byes, the full table at the top
        assert [len(t["seats"]) for t in r["tables"]] == [4, 3, 3, 3]
        assert not any(t["bye"] for t in r["tables"])
        seated = [s["player"] for t in r["tables"] for s in t["seats"]]
        assert len(seated) == len(set(seated)) == 13
        for table in r["tables"]:
            assert table["status"] == "finished"
            final = results[table["table_id"]]  # the places are the game's own ranks
            ranks = [p["rank"] for p in final["players"]]
            assert [s["place"] for s in table["seats"]] == ranks
            assert [s["score"] for s in table["seats"]] == [p["score"] for p in final["players"]]
            scale = LINEAR[len(ranks)]
            for seat in table["seats"]:  # shared places share the points of the places
                tied = [i for i, p in enumerate(sorted(ranks)) if p == seat["place"]]
                assert seat["points"] == pytest.approx(mean(scale[i] for i in tied))

    expected = independent_standings(rounds)
    standings = data["standings"]
    assert len(standings) == 13 and [row["rank"] for row in standings] == list(range(1, 14))
    for row in standings:
        mine = expected[row["player"]]
        assert row["points"] == pytest.approx(mine["points"])
        assert row["games"] == mine["games"] == 3
        assert row["buchholz"] == pytest.approx(mine["buchholz"], abs=1e-3)
        assert row["buchholz_cut1"] == pytest.approx(mine["buchholz_cut1"], abs=1e-3)
    keys = [(r["points"], r["buchholz"], r["buchholz_cut1"], r["game_points"],
             r["opponent_rating"]) for r in standings]  # fmt: skip
    assert keys == sorted(keys, reverse=True)  # ranked by points, then each tie-break
