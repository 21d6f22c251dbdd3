"""Live standings benchmark: thousands of spectators on one tournament page's socket.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/3 \\
        .venv/bin/python benchmarks/tournament_live.py [--players 2000] [--spectators 5000]

It starts the production stack of ``benchmarks/load.py`` (its ``Stack``: a fresh PostgreSQL
database, uvicorn workers, a Celery worker, all under their own ``REDIS_PREFIX``; removed at
the end), builds a ``--players`` tournament whose round 1 is played (bot entrants, bulk
inserts, results through the pure points code), opens ``--spectators`` anonymous sockets on
its page socket from ``--load-processes`` processes, then makes ``--changes`` result changes,
one every ``--interval`` seconds: the organizer corrects a random table's places
(``services.pairing_set_result``, the real path: the commit queues the snapshot rebuild in
Celery, which publishes the standings diff to the tournament's group).

Measured for every change and every socket: from the commit of the change (an ``on_commit``
hook registered first in its transaction) to the socket's receipt of the first ``standings``
frame that includes it (a frame may cover two changes when rebuilds coalesce): p50, p95,
p99, max; the bytes of each frame; frames lost (a socket never got a frame covering a change)
and gaps (a frame whose ``from`` is not the version the socket had: that page would reload);
the CPU of each kind of process. ``--via publish`` skips the database and Celery: a driver
process calls ``live_standings.publish`` with a synthetic change of four players (the fan-out
alone). Target: p99 under 1 s.
"""

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import platform
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402
import websockets  # noqa: E402

from benchmarks.load import (  # noqa: E402
    CpuMeter,
    Stack,
    _cpu_model,
    _raise_interrupt,
    _run_loop,
    machine_speed,
)

SEED = r"""
import json, random, sys
import django
django.setup()
from django.utils import timezone
from ladder import services, standings
from ladder.models import Entry, Pairing, PairingSeat, Round, Tournament
from ttr_site.accounts.models import User

players, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
now = timezone.now()
organizer = User.objects.create(username="organizer", email="organizer@example.com")
t = Tournament.objects.create(
    name="Live Cup", slug="live-cup", organizer=organizer, starts_at=now, started_at=now,
    status="running", round_count=12, table_size=4, round_break_seconds=0,
)
entries = Entry.objects.bulk_create(
    Entry(tournament=t, bot_level="easy", rating=1500 + rng.gauss(0, 200)) for _ in range(players)
)
ids = [e.pk for e in entries]
r = Round.objects.create(tournament=t, number=1, status="finished", roster=ids, starts_at=now,
                         started_at=now, finished_at=now)
rng.shuffle(ids)
groups = [ids[i:i + 4] for i in range(0, len(ids) - len(ids) % 4, 4)]
pairings = Pairing.objects.bulk_create(
    Pairing(round=r, number=n + 1, status="finished") for n in range(len(groups))
)
seats = []
for pairing, group in zip(pairings, groups):
    places = rng.sample(range(1, 5), 4)
    points = standings.placement_points(places)
    for seat, (entry, place, value) in enumerate(zip(group, places, points)):
        seats.append(PairingSeat(pairing=pairing, entry_id=entry, seat=seat, place=place,
                                 points=value, score=100 - 10 * place))
PairingSeat.objects.bulk_create(seats)
services.snapshot_refresh(tournament_id=t.pk)
print(json.dumps({"id": t.pk, "slug": t.slug, "organizer": organizer.pk,
                  "tables": [[p.pk, g] for p, g in zip(pairings, groups)]}))
"""

DRIVE = r"""
import json, random, sys, time
import django
django.setup()
from django.db import transaction
from ladder import live_standings, services
from ladder.models import Tournament
from ttr_site.accounts.models import User

plan = json.loads(sys.stdin.readline())
rng = random.Random(plan["seed"])
organizer = User.objects.get(pk=plan["organizer"])
start = time.time()
model = live_standings.load_model(plan["id"])
for k in range(plan["changes"]):
    time.sleep(max(0.0, start + k * plan["interval"] - time.time()))
    if plan["via"] == "publish":
        before = live_standings.model_rows(model)
        after = [dict(row) for row in before]
        for row in rng.sample(after, 4):
            row["points"] += rng.choice([0, 4, 8, 12])
            row["games"] += 1
        after.sort(key=lambda row: -row["points"])  # stable: the others keep their order
        for place, row in enumerate(after, start=1):
            row["place"] = place
        v = model["v"] + 1
        at = time.time()
        live_standings.publish(tournament_id=plan["id"], version=v, before=before, after=after)
        model = live_standings.load_model(plan["id"])
    else:
        pairing, group = rng.choice(plan["tables"])
        places = dict(zip(group, rng.sample(range(1, 5), 4)))
        mark = {}
        with transaction.atomic():
            transaction.on_commit(lambda: mark.setdefault("at", time.time()))
            services.pairing_set_result(pairing_id=pairing, by=organizer, places=places)
        at = mark["at"]
        v = Tournament.objects.values_list("version", flat=True).get(pk=plan["id"])
    print(json.dumps({"v": v, "at": at}), flush=True)
"""


def main() -> int:
    args = parse_args()
    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")) or not redis_url:
        print(
            "benchmarks/tournament_live.py needs DATABASE_URL (PostgreSQL) and REDIS_URL",
            file=sys.stderr,
        )
        return 2
    signal.signal(signal.SIGTERM, _raise_interrupt)
    stack = Stack(args, database_url, redis_url)
    speed = [machine_speed()]
    try:
        stack.create_database()
        stack.start_web()
        stack.start_celery()
        stack.wait_until_up("/api/v1/boards/europe/", worker=True)
        started = time.monotonic()
        plan = json.loads(run_script(stack, SEED, str(args.players), str(args.seed)))
        print(f"{args.players}-player tournament built in {time.monotonic() - started:.0f}s")
        plan |= {"changes": args.changes, "interval": args.interval, "via": args.via}
        plan["seed"] = args.seed
        model_bytes = len(fetch(f"{stack.url}/tournaments/{plan['slug']}/standings.json"))
        result = measure(args, stack, plan)
        result["model_bytes"] = model_bytes
    finally:
        stack.destroy()
    speed.append(machine_speed())
    report(args, result, speed)
    return 0 if result["p99"] < 1000 and not result["lost"] else 1


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add = parser.add_argument
    add("--players", type=int, default=2000, help="entrants of the tournament (default 2000)")
    add("--spectators", type=int, default=5000, help="sockets on its page (default 5000)")
    add("--load-processes", type=int, default=5, help="load generator processes (default 5)")
    add("--changes", type=int, default=30, help="result changes (default 30)")
    add("--interval", type=float, default=2.0, help="seconds between changes (default 2)")
    add("--via", choices=["service", "publish"], default="service", help="see above")
    add("--grace", type=float, default=15, help="wait for the last frames (default 15 s)")
    add("--web-workers", type=int, default=8, help="uvicorn workers (default 8, as load.py)")
    add("--celery-concurrency", type=int, default=2, help="Celery worker processes (default 2)")
    add("--seed", type=int, default=1)
    add("--keep-logs", action="store_true", help="keep the server logs")
    args = parser.parse_args()
    # What benchmarks/load.py's Stack reads.
    args.ws_compression, args.bot_delay, args.bot_nice = False, 0.1, 10
    args.celery_workers, args.celery_pool = 1, "prefork"
    return args


def run_script(stack: Stack, script: str, *argv: str, stdin: str = "") -> str:
    result = subprocess.run(
        [sys.executable, "-c", script, *argv],
        cwd=ROOT,
        env={**stack.env, "DJANGO_SETTINGS_MODULE": "ttr_site.settings"},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if result.returncode != 0:
        raise RuntimeError(f"script failed:\n{result.stderr[-4000:]}")
    return result.stdout.strip().splitlines()[-1] if not stdin else result.stdout


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


# --- the spectators ------------------------------------------------------------------------


async def spectate(uri: str, frames: list, failures: Counter) -> None:
    """One page's socket: keep (version, from, receipt time, bytes) of each standings frame."""
    try:
        # An anonymous page, as a browser opens it: the session stack wants its Origin.
        origin = "http://" + uri.split("/")[2]
        async with websockets.connect(
            uri, origin=origin, open_timeout=120, ping_interval=None, max_size=2**22
        ) as ws:
            frames.append(0)  # connected; counts the other frames
            async for text in ws:
                at = time.time()
                if '"standings"' not in text[:24]:
                    frames[0] = (frames[0] or 0) + 1  # other frames (tournament_changed)
                    continue
                frame = orjson.loads(text)
                sent = frame.get("at", at)
                frames.append((frame["v"], frame["from"], at, len(text.encode()), sent))
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # counted: a refused or dropped socket is a lost spectator
        failures[type(exc).__name__] += 1


async def shard(uri: str, count: int, ready, stop, queue) -> None:
    frames: list[list] = [[] for _ in range(count)]
    failures: Counter = Counter()
    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(spectate(uri, frames[i], failures)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # connect at a pace, as pages open
    while sum(1 for f in frames if f) + sum(failures.values()) < count:
        await asyncio.sleep(0.2)
    ready.set()
    while not stop.is_set():
        await asyncio.sleep(0.2)
    queue.put((frames, failures))
    # No closing handshakes: 1,000 of them on a busy server take minutes. The process ends
    # here and the kernel closes its sockets (the server sees them drop).
    queue.close()
    queue.join_thread()
    os._exit(0)


def _shard(uri, count, ready, stop, queue) -> None:
    _run_loop(shard(uri, count, ready, stop, queue))


def measure(args, stack: Stack, plan: dict) -> dict:
    uri = f"ws://127.0.0.1:{stack.port}/ws/tournament/{plan['id']}/"
    context = multiprocessing.get_context("fork")
    stop, queue = context.Event(), context.Queue()
    per = [args.spectators // args.load_processes] * args.load_processes
    per[0] += args.spectators - sum(per)
    readies = [context.Event() for _ in per]
    shards = [
        context.Process(target=_shard, args=(uri, n, ready, stop, queue), daemon=True)
        for n, ready in zip(per, readies, strict=True)
    ]
    for process in shards:
        process.start()
    try:
        started = time.monotonic()
        for ready in readies:
            if not ready.wait(timeout=600):
                raise RuntimeError("the spectators did not connect")
        print(f"{args.spectators} sockets connected in {time.monotonic() - started:.0f}s")
        roots = {
            "web (uvicorn workers)": [stack.processes["web"].pid],
            "Celery worker": [p.pid for n, p in stack.processes.items() if n.startswith("worker")],
            "load generator": [p.pid for p in shards],
        }
        meter = CpuMeter(roots)
        meter.start()
        began = time.monotonic()
        out = run_script(stack, DRIVE, stdin=json.dumps(plan) + "\n")
        changes = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        time.sleep(args.grace)  # the last frames' way
        cpu = meter.stop()
        cpu["seconds"] = time.monotonic() - began
        stop.set()
        results = [queue.get(timeout=600) for _ in shards]
    finally:
        stop.set()
        for process in shards:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
    return tally(changes, results, cpu)


def tally(changes: list[dict], results: list, cpu: dict) -> dict:
    latencies, sizes, lost, gaps, failures = [], {}, 0, 0, Counter()
    rebuilds, fanouts = [], []  # commit -> publish (per change), publish -> socket
    sockets = 0
    others = 0  # every frame received, of any type
    for frames_of, failed in results:
        failures.update(failed)
        for frames in frames_of:
            if not frames:
                continue  # never connected (counted in failures)
            others += frames[0]
            frames = frames[1:]
            others += len(frames)  # and the standings frames
            sockets += 1
            frames.sort(key=lambda f: f[2])
            for v, _, received, size, sent in frames:
                sizes[v] = size
                fanouts.append(received - sent)
            for prior, frame in zip(frames, frames[1:], strict=False):
                gaps += frame[1] != prior[0]
            for change in changes:
                covering = next((f for f in frames if f[0] >= change["v"]), None)
                if covering is None:
                    lost += 1
                else:
                    latencies.append(covering[2] - change["at"])
                    if sockets == 1:
                        rebuilds.append(covering[4] - change["at"])
    latencies.sort()

    def at(q: float, values=latencies) -> float:
        values = sorted(values)
        if not values:
            return math.nan
        return 1000 * values[min(len(values) - 1, int(q * len(values)))]

    size_list = sorted(sizes.values()) or [0]
    seconds = cpu.pop("seconds")
    web_seconds = cpu.get("web (uvicorn workers)", 0) * seconds / 100
    return {
        "changes": len(changes),
        "frames": len(sizes),
        "sockets": sockets - sum(failures.values()),
        "failures": failures,
        "p50": at(0.50),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": 1000 * latencies[-1] if latencies else math.nan,
        "rebuild": (at(0.5, rebuilds), at(0.99, rebuilds)),
        "fanout": (at(0.5, fanouts), at(0.99, fanouts), at(1.0, fanouts)),
        "bytes_mean": sum(size_list) / len(size_list),
        "bytes_max": size_list[-1],
        "lost": lost,
        "gaps": gaps,
        "cpu": cpu,
        "delivered": others,
        "web_us": 1e6 * web_seconds / max(1, others),
    }


def report(args, r: dict, speed: list[float]) -> None:
    print()
    print(
        f"ttr live standings benchmark, {date.today()}, {os.cpu_count()} cores "
        f"({_cpu_model()}), Python {platform.python_version()}"
    )
    print(
        f"{args.players} players, {args.spectators} spectator sockets from "
        f"{args.load_processes} load processes, {args.changes} result changes every "
        f"{args.interval} s via {args.via}; {args.web_workers} uvicorn workers, Celery x"
        f"{args.celery_concurrency}; machine speed loop {speed[0]:.0f} / {speed[1]:.0f} ms "
        "before / after (lower is faster)"
    )
    print()
    rows = [
        ("changes made", f"{r['changes']}"),
        ("standings frames sent", f"{r['frames']}"),
        ("sockets that stayed connected", f"{r['sockets']}"),
        ("commit -> socket p50 ms", f"{r['p50']:.0f}"),
        ("commit -> socket p95 ms", f"{r['p95']:.0f}"),
        ("commit -> socket p99 ms", f"{r['p99']:.0f}"),
        ("commit -> socket max ms", f"{r['max']:.0f}"),
        ("  commit -> publish p50 / p99 ms", "{:.0f} / {:.0f}".format(*r["rebuild"])),
        ("  publish -> socket p50/p99/max ms", "{:.0f} / {:.0f} / {:.0f}".format(*r["fanout"])),
        ("frames delivered (all kinds)", f"{r['delivered']}"),
        ("web CPU per frame delivered, us", f"{r['web_us']:.0f}"),
        ("bytes per frame, mean / max", f"{r['bytes_mean']:.0f} / {r['bytes_max']}"),
        ("full standings JSON, bytes", f"{r['model_bytes']}"),
        ("lost or later than --grace", f"{r['lost']}"),
        ("gaps (a page would reload)", f"{r['gaps']}"),
        ("refused or dropped sockets", f"{sum(r['failures'].values())}"),
    ]
    for label, value in rows:
        print(f"{label:34} {value:>14}")
    for name, count in sorted(r["failures"].items()):
        print(f"  {name:32} {count:>14}")
    print()
    print(f"{'CPU while changing, % of a core':34}")
    for kind, share in r["cpu"].items():
        print(f"  {kind:32} {share:>14.0f}")
    verdict = "PASS" if r["p99"] < 1000 and not r["lost"] else "FAIL"
    print(f"\nrequired: p99 < 1 s, no lost frame: {verdict}")


if __name__ == "__main__":
    sys.exit(main())
