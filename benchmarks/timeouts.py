"""How late do timeouts fire? 200 tables whose silent players all time out at once.

Runs the production stack on this machine (uvicorn, a Celery worker and beat over Redis,
PostgreSQL; needs ``DATABASE_URL`` pointing at PostgreSQL and ``REDIS_URL``), opens N tables
of one silent player and one bot with a short move limit, and measures, for each table's
first timeout, how long after its deadline the timed-out move was stored.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ttr REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python benchmarks/timeouts.py [--tables 200] [--move-seconds 5]
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.live import LiveSite  # noqa: E402  (the same stack the live tests start)

CREATE = """
from games import services
from ttr_site.accounts.models import User
for i in range({tables}):
    user = User.objects.create(username=f"silent{{i}}", email=f"s{{i}}@example.com")
    table = services.table_create(owner=user, seat_count=2, move_seconds={move_seconds})
    services.table_add_bot(table_id=table.pk, by=user, level="easy")
"""

LATENESS = """
SELECT EXTRACT(EPOCH FROM (e.created_at - g.first_deadline))
FROM games_gameevent e
JOIN (SELECT id, created_at + make_interval(secs => %s) AS first_deadline FROM games_game) g
  ON g.id = e.game_id
WHERE e.by_timeout AND e.seq = (
  SELECT min(seq) FROM games_gameevent x WHERE x.game_id = e.game_id AND x.by_timeout)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--move-seconds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = LiveSite("production", Path(tmp), extra_env={"BOT_MOVE_DELAY": "0.05"}).start()
        try:
            started = time.monotonic()
            site.manage(
                "shell",
                "--no-imports",
                "-c",
                CREATE.format(tables=args.tables, move_seconds=args.move_seconds),
            )
            created = time.monotonic() - started
            expected = args.tables
            site.wait_for(
                lambda: len(site.sql(LATENESS, (args.move_seconds,))) >= expected,
                timeout=args.move_seconds + created + 120,
                what=f"{expected} timeouts",
            )
            late = sorted(float(row[0]) for row in site.sql(LATENESS, (args.move_seconds,)))
        finally:
            site.stop()
    q = statistics.quantiles(late, n=100)
    print(f"{'tables':>8} | {'created in':>10} | {'p50 late':>9} | {'p99 late':>9} | {'max':>7}")
    print("-" * 56)
    print(f"{len(late):8d} | {created:9.1f}s | {q[49] * 1000:7.0f}ms | {q[98] * 1000:7.0f}ms | "
          f"{late[-1]:6.2f}s")  # fmt: skip
    print(
        "(lateness = stored timed-out move minus its deadline; deadline = game creation time +"
        " the move limit, so set-up time of the game is included)"
    )


if __name__ == "__main__":
    main()
