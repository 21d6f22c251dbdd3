"""What the outage clock costs: the heartbeat every sweep writes, and giving time back.

Runs on a fresh PostgreSQL database of its own (dropped at the end; needs ``DATABASE_URL``
pointing at PostgreSQL; ``REDIS_URL`` for the clock pushes, else they are skipped). Creates N
running games (rows only: the heartbeat and the shift never read a game's state), then
measures, as this process's CPU time and wall time:

* one sweep beat with no outage (the cost every sweep now pays, each second), with and without
  web beats to check;
* one sweep beat that finds an outage and shifts all N games (one UPDATE, the record, and the
  clock pushes after commit).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ttr REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python benchmarks/clock_outages.py [--games 2000] [--beats 300]
"""

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _with_path(url: str, path: str) -> str:
    return urlunparse(urlparse(url)._replace(path="/" + path))


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(_with_path(os.environ["DATABASE_URL"], "postgres"), autocommit=True) as c:
        c.execute(sql)


def _timed(function, repeat: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``function()``."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def _games(count: int) -> None:
    from django.utils import timezone

    from games.models import Game, Table

    now = timezone.now()
    tables = Table.objects.bulk_create(
        [Table(status=Table.Status.PLAYING, move_seconds=90) for _ in range(count)]
    )
    Game.objects.bulk_create(
        [
            Game(table=t, seed=i, state="{}", turn_started_at=now, deadline=now)
            for i, t in enumerate(tables)
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--beats", type=int, default=300)
    args = parser.parse_args()
    name = f"ttr_bench_clock_{uuid.uuid4().hex[:8]}"
    _admin(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = _with_path(os.environ["DATABASE_URL"], name)
    os.environ.setdefault("DEBUG", "true")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_site.settings")
    try:
        rows = run(args)
    finally:
        from django.db import connections

        connections.close_all()
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(f"{'what':<48} | {'wall ms':>8} | {'CPU ms':>7}")
    print("-" * 70)
    for what, (wall, cpu) in rows:
        print(f"{what:<48} | {wall:8.2f} | {cpu:7.2f}")
    print("(medians; CPU = this process only, the database's own work is in the wall time)")


def run(args) -> list:
    import django

    django.setup()
    from datetime import timedelta

    from django.conf import settings

    settings.DEBUG = False  # no query log: it would grow and cost CPU with every beat

    from django.core.management import call_command
    from django.utils import timezone

    from games.models import ClockBeat, WebBeat
    from games.services import clock_outages

    call_command("migrate", verbosity=0)
    _games(args.games)
    rows = []
    clock_outages.clock_sweep_beat()
    rows.append(("sweep beat, no outage, no web beats", _timed(clock_outages.clock_sweep_beat,
                                                              args.beats)))  # fmt: skip
    for i in range(4):
        clock_outages.web_beat(name=f"bench:{i}")
    rows.append(("sweep beat, no outage, 4 web processes", _timed(clock_outages.clock_sweep_beat,
                                                                 args.beats)))  # fmt: skip
    rows.append(("one web process beat", _timed(lambda: clock_outages.web_beat(name="bench:0"),
                                                args.beats)))  # fmt: skip
    WebBeat.objects.all().delete()

    def outage():
        ClockBeat.objects.filter(pk=1).update(beat_at=timezone.now() - timedelta(seconds=30))
        clock_outages.clock_sweep_beat()

    rows.append((f"sweep beat giving time back to {args.games} games", _timed(outage, 5)))
    return rows


if __name__ == "__main__":
    main()
