"""A 2,000-player, 12-round Swiss tournament's pages, exports and API reads, under load.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ttr_bench_tournament \\
    REDIS_URL=redis://127.0.0.1:6379/4 \\
        .venv/bin/python benchmarks/tournament_pages.py [--players 2000] [--rounds 12]
        [--clients 8] [--requests 30] [--no-cache] [--fresh]

The database is created and migrated if missing (``--fresh`` drops it first; only a database
named ``ttr_bench*``). The tournament is built directly with bulk inserts: users, entries,
and every round paired by the real Swiss pairing (``ladder.pairing.pair_round``) from the
real standings (``ladder.standings``), with places drawn from hidden strengths (no games are
played). Its last round is in play, half its tables done.

Timed through Django's full request stack (middleware, views, templates; the test client)
in ``--clients`` processes, each a web worker with one client (odd ones signed in as a player
in the middle of the standings; production runs 8 workers on 2 cores): each tab (standings,
a middle page of the standings, rounds, crosstable, players), each export (CSV, JSON) and the
API reads (standings, rounds, results); ``--requests`` per client per page. Printed: p50 /
p95 / p99 per page and the CPU per request, then the snapshot rebuild (what every request
paid before it).
``--no-cache`` makes every request find a stale snapshot (the version is bumped before each
one), which is the old cost: a recomputation per request. Target (issue 24): p95 < 100 ms.
"""

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse, urlunparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_site.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret-" + "x" * 30)
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("API_THROTTLE_ANON", "1000000/minute")  # the load is the point here
os.environ.setdefault("API_THROTTLE_USER", "1000000/minute")

import psycopg  # noqa: E402

GUMBEL = 400 / math.log(10)  # Gumbel noise at this scale = Plackett-Luce on Elo odds


def ensure_database(url: str, fresh: bool) -> None:
    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    if parsed.scheme not in ("postgres", "postgresql"):
        return
    admin = urlunparse(parsed._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if fresh and name.startswith("ttr_bench"):  # never drop a database not made for this
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def setup_django():
    import django
    from django.core.management import call_command

    django.setup()
    from django.conf import settings

    # Production settings otherwise, but static files without a collected manifest.
    settings.STORAGES["staticfiles"] = {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
    }
    call_command("migrate", verbosity=0)


# --- the tournament ---------------------------------------------------------------------------


def build_tournament(players: int, rounds: int, seed: int = 2026):
    """The tournament (bulk inserts); returns it and a signed-in player in the middle."""
    from django.utils import timezone

    from ladder import pairing, standings
    from ladder.models import Entry, Pairing, PairingSeat, Round, Tournament
    from ttr_site.accounts.models import User

    slug = f"bench-swiss-{players}-{rounds}"
    existing = Tournament.objects.filter(slug=slug).first()
    if existing is not None:
        print(f"reusing tournament {slug}")
        return existing
    started = time.perf_counter()
    rng = random.Random(seed)
    tag = f"b{players}r{rounds}"
    users = User.objects.bulk_create(
        User(username=f"{tag}_{i:05d}", display_name=f"Player {i:05d}", password="!")
        for i in range(players)
    )
    now = timezone.now()
    t = Tournament.objects.create(
        name=f"Benchmark Swiss {players}", slug=slug, organizer=users[0], table_size=4,
        round_count=rounds, starts_at=now - timedelta(hours=rounds), status="running",
        started_at=now - timedelta(hours=rounds), round_break_seconds=0,
    )  # fmt: skip
    strength = {}
    entries = Entry.objects.bulk_create(
        Entry(tournament=t, user=u, rating=rng.gauss(1500, 200)) for u in users
    )
    for e in entries:
        strength[e.pk] = e.rating + rng.gauss(0, 100)
    entrants = [standings.Entrant(e.pk, e.rating) for e in entries]
    seats_done, byes_done, history = [], [], []
    for number in range(1, rounds + 1):
        if number == 1:
            order = [e.pk for e in sorted(entries, key=lambda e: -e.rating)]
        else:
            rows = standings.standings(entrants, seats_done, byes_done, seed=t.seed)
            order = [r.player for r in rows]
        result = pairing.pair_round(order, size=4, allow_smaller=True, history=history,
                                    seed=t.seed + number)  # fmt: skip
        last = number == rounds
        round_ = Round.objects.create(
            tournament=t, number=number, starts_at=now, roster=sorted(order),
            status="playing" if last else "finished",
        )  # fmt: skip
        tables = [Pairing(round=round_, number=i, status="finished")
                  for i in range(1, len(result.tables) + 1)]  # fmt: skip
        first_bye = len(result.tables) + 1
        tables += [Pairing(round=round_, number=first_bye + i, is_bye=True, status="bye")
                   for i in range(len(result.byes))]  # fmt: skip
        if last:
            for p in tables[: len(result.tables) // 2]:
                p.status = "playing"
        Pairing.objects.bulk_create(tables)
        rows = []
        for p, players_at in zip(tables, result.tables, strict=False):
            history.append(list(players_at))
            if p.status == "playing":
                rows += [
                    PairingSeat(pairing=p, entry_id=e, seat=i) for i, e in enumerate(players_at)
                ]
                continue
            perf = [strength[e] + GUMBEL * -math.log(-math.log(rng.random())) for e in players_at]
            order_at = sorted(range(len(players_at)), key=lambda i: -perf[i])
            places = [0] * len(players_at)
            for position, i in enumerate(order_at):
                places[i] = position + 1
            points = standings.placement_points(places)
            for i, e in enumerate(players_at):
                score = int(80 + perf[i] / 20)
                rows.append(PairingSeat(pairing=p, entry_id=e, seat=i, place=places[i],
                                        score=score, points=points[i]))  # fmt: skip
                seats_done.append(standings.Seat(number, p.pk, e, places[i], score, points[i]))
        for p, e in zip(tables[len(result.tables) :], result.byes, strict=True):
            history.append([e])
            rows.append(PairingSeat(pairing=p, entry_id=e, seat=0, place=1, score=0,
                                    points=standings.BYE_POINTS))  # fmt: skip
            byes_done.append(standings.Bye(number, e))
        PairingSeat.objects.bulk_create(rows, batch_size=2000)
    Tournament.objects.filter(pk=t.pk).update(version=1)
    print(
        f"built {slug}: {players} players, {rounds} rounds in {time.perf_counter() - started:.1f} s"
    )
    return Tournament.objects.get(pk=t.pk)


def middle_player(t):
    from ladder import services
    from ttr_site.accounts.models import User

    view = services.snapshot_current(t)
    row = view.rows[len(view.rows) // 2]
    return User.objects.get(pk=row.entry.user_id), row.rank


# --- timing -----------------------------------------------------------------------------------


def pages(t) -> list[tuple[str, str]]:
    base = t.get_absolute_url()
    api = f"/api/v1/tournaments/{t.slug}/"
    return [
        ("standings", base),
        ("standings ?page=20", f"{base}?page=20"),
        ("standings ?q=", f"{base}?q=Player%2001"),
        ("rounds", f"{base}rounds/"),
        ("crosstable", f"{base}crosstable/"),
        ("players", f"{base}players/"),
        ("export CSV", f"{base}results.csv"),
        ("export JSON", f"{base}results.json"),
        ("API standings", f"{api}standings/"),
        ("API rounds", f"{api}rounds/"),
        ("API results", f"{api}results/"),
    ]


def run(t, user, *, clients: int, requests: int, stale: bool) -> dict:
    """Latencies (s) per (page, who): ``clients`` processes (as many web workers, each with
    one client; odd ones signed in), each ``requests`` per page after one warm-up round."""
    from django.core.cache import cache
    from django.db import connections

    connections.close_all()
    cache.close()
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(clients + 1), context.Queue()
    workers = [
        context.Process(
            target=client_loop, args=(n, t.pk, user.pk, requests, stale, barrier, results)
        )  # fmt: skip
        for n in range(clients)
    ]
    for worker in workers:
        worker.start()
    barrier.wait()  # every worker warmed up
    began = time.perf_counter()
    times, cpu_times, cpu = defaultdict(list), defaultdict(list), 0.0
    for _ in workers:
        mine, mine_cpu, cpu_s = results.get()
        cpu += cpu_s
        for key, values in mine.items():
            times[key] += values
            cpu_times[key] += mine_cpu[key]
    wall = time.perf_counter() - began
    for worker in workers:
        worker.join()
    total = sum(len(v) for v in times.values())
    return {"times": times, "cpu": cpu_times, "wall": wall, "cpu_per_request": cpu / total,
            "total": total}  # fmt: skip


def client_loop(n, tournament_id, user_id, requests, stale, barrier, results):
    from django.test import Client

    from ladder.models import Tournament
    from ttr_site.accounts.models import User

    t = Tournament.objects.get(pk=tournament_id)
    client = Client()
    who = "signed in" if n % 2 else "anonymous"
    if who == "signed in":
        client.force_login(User.objects.get(pk=user_id))
    for _name, url in pages(t):  # warm up: templates compiled, the snapshot loaded
        client.get(url)
    barrier.wait()
    times, cpu_times = defaultdict(list), defaultdict(list)
    cpu = time.process_time()
    for _ in range(requests):
        for name, url in pages(t):
            if stale:
                Tournament.objects.filter(pk=t.pk).update(version=models_F() + 1)
            began, began_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            took = time.perf_counter() - began
            assert response.status_code == 200, (url, response.status_code)
            times[name, who].append(took)
            cpu_times[name, who].append(time.process_time() - began_cpu)
    results.put((dict(times), dict(cpu_times), time.process_time() - cpu))


def models_F():
    from django.db.models import F

    return F("version")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1)] * 1000


def print_table(result: dict, title: str) -> None:
    print(f"\n{title}: {result['total']} requests in {result['wall']:.1f} s "
          f"({result['total'] / result['wall']:.0f}/s), "
          f"CPU {result['cpu_per_request'] * 1000:.1f} ms per request")  # fmt: skip
    print(f"{'page':<22} {'who':<10} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
          f"{'CPU p50':>8}  target")  # fmt: skip
    worst = 0.0
    for (name, who), values in sorted(result["times"].items()):
        p95 = pct(values, 95)
        worst = max(worst, p95)
        mark = "ok" if p95 < 100 else "OVER"
        cpu = statistics.median(result["cpu"][name, who]) * 1000
        print(f"{name:<22} {who:<10} {len(values):>5} {pct(values, 50):>8.1f} {p95:>8.1f} "
              f"{pct(values, 99):>8.1f} {cpu:>8.1f}  {mark}")  # fmt: skip
    print(f"worst p95: {worst:.1f} ms (target < 100 ms)")


def time_rebuild(t, times: int = 3) -> None:
    from ladder import services
    from ladder import tournament_snapshots as snapshots
    from ladder.models import Tournament, TournamentSnapshot

    wall, cpu = [], []
    for _ in range(times):
        Tournament.objects.filter(pk=t.pk).update(version=models_F() + 1)
        snapshots.forget_all()
        c, w = time.process_time(), time.perf_counter()
        services.snapshot_rebuild(tournament_id=t.pk)
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    size = len(TournamentSnapshot.objects.get(tournament=t).data)
    print(f"\nsnapshot rebuild (read, rank, store; once per change, not per request): "
          f"median {statistics.median(wall) * 1000:.0f} ms wall, "
          f"{statistics.median(cpu) * 1000:.0f} ms CPU; stored {size / 1e6:.1f} MB")  # fmt: skip


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=30, help="per client and page")
    parser.add_argument("--no-cache", action="store_true", help="every request rebuilds")
    parser.add_argument("--fresh", action="store_true", help="drop the ttr_bench* database")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url:
        sys.exit(
            "set DATABASE_URL (PostgreSQL), e.g. postgres://postgres@127.0.0.1:5432/ttr_bench_tournament"
        )
    ensure_database(url, args.fresh)
    setup_django()
    t = build_tournament(args.players, args.rounds)
    time_rebuild(t)
    user, rank = middle_player(t)
    print(f"signed in as {user.username} (place {rank} of {args.players})")
    requests = max(1, args.requests // 10) if args.no_cache else args.requests
    result = run(t, user, clients=args.clients, requests=requests, stale=args.no_cache)
    mode = "no cache (a rebuild per request, the old cost)" if args.no_cache else "snapshot"
    print_table(result, f"{args.clients} concurrent clients, {mode}")


if __name__ == "__main__":
    main()
