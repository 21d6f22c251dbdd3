"""Recalculating a ladder of 1,000,000 rated games end to end, on PostgreSQL.

    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/ttr_bench \\
        .venv/bin/python benchmarks/ratings.py [--games 1000000] [--players 20000] [--fresh]

The database is created and migrated if missing. The history is synthetic but shaped like
ranked play: players have a hidden strength (normal, mean 1500, sd 200), tables of 2-5 are
drawn from players within 150 points of each other (as the matchmaker does), places follow a
Plackett-Luce model on the Elo scale (a 400-point edge is 10:1 odds), with a few shared
places and abandoned seats. It is generated once with COPY and kept for later runs (a league
named after its size); ``--fresh`` drops the database (only one named ``ttr_bench*``) first.

Timed: ``ladder.services.ladder_recalculate`` (read with SQL, compute with the pure
``ladder.rating``, delete the old rows and COPY the new ones), first on an empty ladder and
then as a rebuild over existing rows. Target (issue 7): under 120 s for 1,000,000 games.
Also printed: the predictive accuracy of the ratings on this history.
"""

import argparse
import bisect
import math
import os
import random
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_site.settings")
os.environ.setdefault("DEBUG", "true")

import psycopg  # noqa: E402

WINDOW = 150.0  # true-strength spread of a table
GUMBEL_SCALE = 400 / math.log(10)  # Gumbel noise at this scale = Plackett-Luce on Elo odds


def ensure_database(url: str, fresh: bool) -> None:
    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = urlunparse(parsed._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if fresh and name.startswith("ttr_bench"):  # never drop a database not made for this
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def setup_django():
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def simulate(games: int, players: int, seed: int = 2026):
    """Yield ``(size, seated player indexes, engine ranks, abandoned flags)`` per game."""
    rng = random.Random(seed)
    strength = sorted(rng.gauss(1500, 200) for _ in range(players))
    for _ in range(games):
        size = rng.choice((2, 3, 3, 4, 4, 4, 5))
        # the matchmaker seats players of similar rating: here, within 150 of the first one
        centre = strength[rng.randrange(players)]
        low = bisect.bisect_left(strength, centre - WINDOW)
        high = max(bisect.bisect_right(strength, centre + WINDOW), low + size)
        seated = rng.sample(range(low, high), size)
        perf = [strength[p] + GUMBEL_SCALE * -math.log(-math.log(rng.random())) for p in seated]
        order = sorted(range(size), key=lambda i: -perf[i])
        rank = [0] * size
        for position, i in enumerate(order):
            tied = position and rng.random() < 0.02  # a shared place now and then
            rank[i] = rank[order[position - 1]] if tied else position + 1
        abandoned = [rng.random() < 0.01 for _ in range(size)]
        yield size, seated, rank, abandoned


def generate(conn, league_id: int, games: int, players: int) -> None:
    with conn.transaction():  # Django's foreign keys are checked at commit (deferred)
        _generate(conn.cursor(), league_id, games, players)


def _generate(cur, league_id: int, games: int, players: int) -> None:
    from ladder.rating import effective_places

    started = time.perf_counter()
    user_base = cur.execute("SELECT coalesce(max(id), 0) FROM accounts_user").fetchone()[0] + 1
    table_base = cur.execute("SELECT coalesce(max(id), 0) FROM games_table").fetchone()[0] + 1
    match_base = cur.execute("SELECT coalesce(max(id), 0) FROM ladder_match").fetchone()[0] + 1
    cur.execute(
        """INSERT INTO accounts_user (id, password, is_superuser, username, first_name, last_name,
             email, is_staff, is_active, date_joined, display_name, country, bio, language)
           SELECT %s + g, '!', false, 'bench' || (%s + g), '', '', '', false, true, now(), '',
             '', '', '' FROM generate_series(0, %s - 1) g""",
        [user_base, user_base, players],
    )
    cur.execute(
        """INSERT INTO games_table (id, ruleset, variant, options, seat_count, time_control,
             move_seconds, bank_seconds, turn_hours, rated, is_private, invite_token, status,
             created_at, finished_at, league_id)
           SELECT %s + g, 'europe', 'classic', '{}', 4, 'realtime', 90, 0, 24, true, false,
             'bench' || (%s + g), 'finished', now(), now(), %s
           FROM generate_series(0, %s - 1) g""",
        [table_base, table_base, league_id, games],
    )
    print(f"  users and tables inserted in {time.perf_counter() - started:.1f} s")
    match_sql = (
        "COPY ladder_match (id, league_id, table_id, time_control, seq, size, finished_at, "
        "annulled) FROM STDIN"
    )
    player_sql = (
        "COPY ladder_matchplayer (match_id, user_id, seat, score, rank, place, abandoned) "
        "FROM STDIN"
    )
    sizes = []
    with cur.copy(player_sql) as copy:
        for n, (size, seated, rank, abandoned) in enumerate(simulate(games, players)):
            places = effective_places(rank, abandoned)
            for seat in range(size):
                copy.write_row((match_base + n, user_base + seated[seat], seat,
                                100 - 10 * rank[seat], rank[seat], places[seat],
                                abandoned[seat]))  # fmt: skip
            sizes.append(size)
            if n % 200_000 == 0 and n:
                print(f"  {n:,} games simulated")
    with cur.copy(match_sql) as copy:
        for n, size in enumerate(sizes):
            copy.write_row((match_base + n, league_id, table_base + n, "realtime", n + 1, size,
                            "2026-01-01T00:00:00Z", False))  # fmt: skip
    cur.execute("UPDATE ladder_league SET next_seq = %s WHERE id = %s", [games + 1, league_id])
    for table in ("accounts_user", "games_table", "ladder_match"):
        cur.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
        )
    print(f"  history of {games:,} games generated in {time.perf_counter() - started:.1f} s")


def bench_league(games: int, players: int):
    from django.db import connection, transaction

    from ladder.models import League

    slug = f"bench-{games}-{players}"
    league = League.objects.filter(slug=slug).first()
    if league is None:
        print(f"generating {games:,} rated games among {players:,} players ...")
        with transaction.atomic():
            league = League.objects.create(name=f"Benchmark {games:,}", slug=slug)
        connection.ensure_connection()
        generate(connection.connection, league.pk, games, players)
        with connection.cursor() as cur:
            cur.execute("VACUUM ANALYZE ladder_match")
            cur.execute("VACUUM ANALYZE ladder_matchplayer")
    return league


def run(league, label: str) -> None:
    from django.db import connection

    from ladder.services import ladder_recalculate

    # Untimed: what autovacuum does between two rebuilds (dead rows of the previous one).
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE ladder_ratingchange")

    last = [0.0]

    def progress(phase, done, total):
        now = time.perf_counter()
        if now - last[0] > 5:
            last[0] = now
            print(f"    {phase}: {done:,}" + (f" / {total:,}" if total else ""))

    started = time.perf_counter()
    report = ladder_recalculate(league_id=league.pk, progress=progress)
    wall = time.perf_counter() - started
    s = report.seconds
    print(f"\n{label}")
    print(f"  {'games':<24}{report.matches:>14,}")
    print(f"  {'rating-change rows':<24}{report.rows:>14,}")
    print(f"  {'players rated':<24}{report.players:>14,}")
    for phase in ("read", "compute", "delete", "insert", "commit"):
        print(f"  {phase + ' (s)':<24}{s[phase]:>14.1f}  {100 * s[phase] / wall:5.1f} %")
    verdict = "PASS" if wall < 120 else "FAIL"
    print(f"  {'total, wall clock (s)':<24}{wall:>14.1f}  {verdict} (< 120 s)")
    print(f"  {'throughput (games/s)':<24}{report.matches / wall:>14,.0f}")
    print(f"  {'pure computation share':<24}{100 * s['compute'] / wall:>13.1f} %")


def accuracy(league) -> None:
    from ladder import presenters

    started = time.perf_counter()
    figures = presenters._measure(presenters.RatingChange.objects.filter(league=league))
    print(f"\npredictive accuracy on this history ({time.perf_counter() - started:.0f} s)")
    for label, f in figures.items():
        print(f"  {label:<12} higher-rated ahead in {f['share_pct']} % of {f['decided']:,} "
              f"decided pairs; Brier {f['brier']}")  # fmt: skip
    for band in figures["established"]["bands"]:
        high = band["high"] or "+"
        print(f"    gap {band['low']}-{high}: pairs {band['pairs']:,}, predicted "
              f"{band['expected_pct']} %, observed {band['observed_pct']} %")  # fmt: skip


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument(
        "--fresh", action="store_true", help="drop the database (named ttr_bench*) and regenerate"
    )
    parser.add_argument("--no-accuracy", action="store_true")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("Set DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> (PostgreSQL only).")
    ensure_database(url, args.fresh)
    setup_django()
    league = bench_league(args.games, args.players)
    run(league, "run 1: recalculation")
    run(league, "run 2: again, over the rows of run 1 (idempotent rebuild)")
    if not args.no_accuracy:
        accuracy(league)


if __name__ == "__main__":
    main()
