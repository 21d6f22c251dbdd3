"""Load benchmark: real clients playing real tables on the production stack of this machine.

    make bench-load        # or, with PostgreSQL and Redis of your own:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/3 \\
        .venv/bin/python benchmarks/load.py [--tables 200] [--clients-per-table 4] [--duration 60]

It starts everything itself and removes it at the end (also on Ctrl-C or failure): a fresh
PostgreSQL database ``ttr_load_<random>`` (migrated, then dropped), users with personal API
tokens (bulk-inserted, no password hashing), uvicorn web workers, a Celery worker and beat,
all with their own ``REDIS_PREFIX`` and Celery queue, so that nothing meets another site on
the same Redis (whose keys of this run are deleted at the end; Redis is never flushed).

**Game run.** ``--tables`` tables are kept playing for the whole run (a finished game is
replaced at once by a fresh table of the same users, opened through the REST API). Each table
has ``--seats`` seats: ``--humans`` scripted humans (sockets) and bots for the rest (moved
after ``--bot-delay`` seconds by the web process that made the move before, on threads
``--bot-nice`` steps below it in CPU priority, see ``games/bot_turns.py``); the other sockets
of ``--clients-per-table`` are spectators. The default table is 4 seats = humans at seats 0 and
2, medium bots at seats 1 and 3, plus 2 spectators: 2 + 2 = 4 sockets per table, 800 for 200
tables. A human thinks ``--think`` seconds (uniform) before each decision: 1.5 to 3 s by
default, a quick player. With bots at 0.1 s that offers about 170 moves/s at 200 tables if the
server keeps up: the required 150 with room. ``--think 1.0:2.5`` offers about 200 (where this
2-core machine's latency turns up: see the README) and ``--think 0.2:0.5`` about 500. Clocks
are ``--move-seconds`` per move, far beyond any think time, so a timeout means the server fell
that far behind (it is counted as an error). Games rarely finish within a run (a game is ~250
moves); one that does is replaced. See ``benchmarks/load_clients.py`` for the clients' exact
behaviour.

Measured over ``--duration`` seconds after ``--warmup`` seconds (which start once every table
has its sockets connected): moves per second (the sum of ``Game.version`` increments, read
from the database), human actions sent and acknowledged, latency from an action sent to the
view frame of the new version received by that client, errors (error frames, stale
versions where only the sender could move, frame gaps, refused or dropped sockets, actions
unanswered, moves made by a timeout), the load generator's own event-loop lag (how late its
loop wakes a task: a share of each latency that clients on their own machines would not add;
the pauses of its garbage collector, which ``--client-gc off`` turns off once its sockets
are connected; it is served before the site, ``--client-nice``), lost moves (for every game:
events 1..version contiguous, replaying them from the seed gives the stored state, and every
action a client saw acknowledged is in the log) and the CPU used by each kind of process.

**Bare run** (the ceiling): the same number of uvicorn workers and the same channel layer
serve ``benchmarks/bare_asgi.py`` instead of the site: the same sockets in the same tables,
each move one ``group_send`` of a ~2 KB frame to the table, no database, no game, no think
time. The ratio game/bare compares moves per second.

``--only game`` or ``--only bare`` runs one part. The load generator runs in
``--load-processes`` asyncio processes (tables split between them).
"""

import argparse
import asyncio
import contextlib
import gc
import json
import math
import multiprocessing
import os
import platform
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from datetime import date
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from benchmarks import load_clients as clients  # noqa: E402
from ttr_site import collector  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")

SEED_USERS = """
import json
from django.contrib.auth.hashers import make_password
from ttr_site.accounts.models import ApiToken, User
from ttr_site.accounts.services import TOKEN_PREFIX
count, unusable = {count}, make_password(None)
users = User.objects.bulk_create(
    User(username=f"load{{i:04d}}", email=f"load{{i:04d}}@example.com", password=unusable)
    for i in range(count)
)
secrets = [TOKEN_PREFIX + f"load{{i:04d}}-{salt}" for i in range(count)]
ApiToken.objects.bulk_create(
    ApiToken(user=u, name="load", prefix=s[:12], digest=ApiToken.digest_of(s))
    for u, s in zip(users, secrets)
)
print(json.dumps(secrets))
"""


def main() -> int:
    args = parse_args()
    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")) or not redis_url:
        print(
            "benchmarks/load.py needs DATABASE_URL pointing at PostgreSQL and REDIS_URL, e.g.\n"
            "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres "
            "REDIS_URL=redis://127.0.0.1:6379/3 make bench-load",
            file=sys.stderr,
        )
        return 2
    signal.signal(signal.SIGTERM, _raise_interrupt)
    stack = Stack(args, database_url, redis_url)
    results = {"speed": [machine_speed()]}
    try:
        if args.only in (None, "game"):
            stack.create_database()
            results["game"] = run_game(args, stack)
        if args.only in (None, "bare"):
            results["bare"] = run_bare(args, stack)
    finally:
        stack.destroy()
    results["speed"].append(machine_speed())
    report(args, results)
    failed = "game" in results and not results["game"]["passed"]
    return 1 if failed else 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add = parser.add_argument
    add("--tables", type=int, default=200, help="concurrent tables (default 200)")
    add("--clients-per-table", type=int, default=4, help="sockets per table (default 4)")
    add("--seats", type=int, default=4, help="seats per table (default 4)")
    add("--humans", type=int, default=2, help="scripted human seats per table (default 2)")
    add("--duration", type=float, default=60, help="measured seconds (default 60)")
    add("--warmup", type=float, default=10, help="seconds before measuring (default 10)")
    add("--web-workers", type=int, default=8, help="uvicorn workers (default 8: 4 per core)")
    add("--ws-compression", action="store_true", help="permessage-deflate on (off, as deployed)")
    add("--ws", default="auto", help="uvicorn's WebSocket implementation (auto, as deployed)")
    add("--celery-concurrency", type=int, default=2, help="Celery worker processes (default 2)")
    add("--celery-pool", default="prefork", help="Celery pool (default prefork, as deployed)")
    add("--celery-workers", type=int, default=1, help="Celery worker processes (default 1)")
    add("--think", default="1.5:3.0", help="a human's think time range, seconds (1.5:3.0)")
    add("--bot-delay", type=float, default=0.1, help="BOT_MOVE_DELAY, seconds (default 0.1)")
    add("--bot-nice", type=int, default=10, help="BOT_MOVE_NICE (default 10, as deployed)")
    add("--bot-level", default="medium", choices=["easy", "medium", "hard"])
    add("--move-seconds", type=int, default=20, help="clock per move, seconds (default 20)")
    add("--load-processes", type=int, default=1, help="load generator processes (default 1)")
    add(
        "--client-gc",
        choices=["on", "off"],
        default="on",
        help="the load generator's cyclic garbage collector once its sockets are connected "
        "(default on, as in the runs of docs/benchmarks.md; the report prints its pauses)",
    )
    add(
        "--client-nice",
        type=int,
        default=CLIENT_NICE_DEFAULT if os.geteuid() == 0 else 0,
        help="the load generator's CPU priority as a nice increment, for its processes and "
        "their own scheduling group (default -10 as root, else 0: below 0 it is served before "
        "the site, as clients on their own machines would be, and its loop does not wait for a "
        "CPU; needs root)",
    )
    add("--seed", type=int, default=1, help="seeds the scripted humans' choices")
    add("--only", choices=["game", "bare"], help="run one part only")
    add("--keep-logs", action="store_true", help="print where the server logs are kept")
    args = parser.parse_args()
    if args.client_nice < 0 and os.geteuid() != 0:
        parser.error("--client-nice below 0 needs root")
    CLIENT_NICE[0] = args.client_nice
    CLIENT_GC[0] = args.client_gc
    lo, _, hi = args.think.partition(":")
    args.think = (float(lo), float(hi or lo))
    if not 1 <= args.humans < args.seats or args.humans > args.clients_per_table:
        parser.error(
            "--humans: at least 1, fewer than --seats (a bot fills the last seat), "
            "at most --clients-per-table"
        )
    return args


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


# --- the stack -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def with_path(url: str, path: str) -> str:
    return urlunparse(urlparse(url)._replace(path="/" + path))


class Stack:
    """The production processes of this run, and its database and Redis keys."""

    def __init__(self, args, database_url: str, redis_url: str):
        self.args = args
        self.name = f"ttr_load_{secrets.token_hex(5)}"
        self.admin_url = with_path(database_url, "postgres")
        self.database_url = with_path(database_url, self.name)
        self.redis_url = redis_url
        self.workdir = Path(tempfile.mkdtemp(prefix=self.name + "_"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.processes: dict[str, subprocess.Popen] = {}
        self.created = False
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("PYTEST")},
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "SECURE_HSTS_SECONDS": "0",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": redis_url,
            "REDIS_PREFIX": self.name,
            # Every simulated player connects from this machine's one address.
            "SOCKETS_PER_ADDRESS": "1000000",
            "CELERY_QUEUE": self.name,
            "CELERY_BEAT_SCHEDULE_FILENAME": str(self.workdir / "celerybeat-schedule"),
            "BOT_MOVE_DELAY": str(args.bot_delay),
            "BOT_MOVE_NICE": str(args.bot_nice),
            "PYTHONUNBUFFERED": "1",
        }

    def sql(self, query: str, params: tuple = ()) -> list[tuple]:
        with psycopg.connect(self.database_url) as connection:
            return connection.execute(query, params).fetchall()

    def _admin(self, statement: str) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(statement)

    def create_database(self) -> None:
        self._admin(f'CREATE DATABASE "{self.name}"')
        self.created = True
        self.manage("migrate", "--noinput")

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if result.returncode != 0:
            raise RuntimeError(f"manage.py {args[0]} failed:\n{result.stderr[-4000:]}")
        return result.stdout

    def spawn(self, name: str, command: list[str]) -> None:
        log = (self.workdir / f"{name}.log").open("w")
        self.processes[name] = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def start_web(self, app: str = "ttr_site.asgi:application") -> None:
        """uvicorn as the Docker image runs it (``docker/entrypoint.sh``)."""
        self.spawn(
            "web",
            [
                sys.executable,
                "-m",
                "uvicorn",
                app,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--workers",
                str(self.args.web_workers),
                "--no-access-log",
                "--ws-per-message-deflate",
                "true" if self.args.ws_compression else "false",
                "--ws",
                getattr(self.args, "ws", "auto"),
            ],
        )

    def start_celery(self) -> None:
        celery = [sys.executable, "-m", "celery", "-A", "ttr_site"]
        for n in range(self.args.celery_workers):
            # No mingle, gossip or heartbeat: they talk to every worker on the same Redis.
            self.spawn(
                f"worker{n}",
                [
                    *celery,
                    "worker",
                    "--loglevel=INFO",
                    f"--pool={self.args.celery_pool}",
                    f"--concurrency={self.args.celery_concurrency}",
                    "--without-mingle",
                    "--without-gossip",
                    "--without-heartbeat",
                    "-n",
                    f"{self.name}.{n}@%h",
                ],
            )
        schedule = str(self.workdir / "celerybeat-schedule")
        self.spawn("beat", [*celery, "beat", "--loglevel=INFO", "--schedule", schedule])

    def wait_until_up(self, path: str, worker: bool, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, process in self.processes.items():
                if process.poll() is not None:
                    raise RuntimeError(f"{name} exited early:\n{self.log(name)[-3000:]}")
            workers = [self.log(name) for name in self.processes if name.startswith("worker")]
            if (not worker or all("ready." in log for log in workers)) and self._answers(path):
                return
            time.sleep(0.3)
        raise RuntimeError(f"the stack did not come up in {timeout}s:\n{self.log('web')[-3000:]}")

    def _answers(self, path: str) -> bool:
        try:
            with urllib.request.urlopen(self.url + path, timeout=2) as response:
                return response.status < 500
        except urllib.error.HTTPError as exc:
            return exc.code < 500
        except OSError:
            return False

    def log(self, name: str) -> str:
        path = self.workdir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """A warm shutdown (SIGTERM to each main process), then SIGKILL to what is left."""
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=20)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        self.processes = {}

    def destroy(self) -> None:
        """Stop every process, drop the database, delete this run's Redis keys."""
        try:
            self.stop()
        finally:
            if self.created:
                self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
                self.created = False
            self._forget_redis_keys()
            if not self.args.keep_logs:
                for path in self.workdir.iterdir():
                    path.unlink()
                self.workdir.rmdir()

    def _forget_redis_keys(self) -> None:
        import redis

        client = redis.Redis.from_url(self.redis_url)
        keys = list(client.scan_iter(match=f"*{self.name}*", count=1000))
        if keys:
            client.delete(*keys)


# --- CPU accounting from /proc -----------------------------------------------------------------


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, command name, user + system ticks) of a process, if it still exists."""
    return _stat_path(f"/proc/{pid}/stat")


def _stat_path(path: str) -> tuple[int, str, int] | None:
    try:
        raw = Path(path).read_text()
    except OSError:
        return None
    name = raw[raw.index("(") + 1 : raw.rindex(")")]
    fields = raw[raw.rindex(")") + 2 :].split()
    return int(fields[1]), name, int(fields[11]) + int(fields[12])


def _all_processes() -> dict[int, tuple[int, str, int]]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            found[int(entry)] = stat
    return found


WEB = "web (uvicorn workers)"
# The threads of the web processes, by the names ``ttr_site.pools`` gives them in the kernel: a
# worker's main thread runs its event loop (the sockets), ``move_N`` the players' moves and
# ``bot-move_N`` the bots'.
WEB_THREADS = {
    "move": "  players' moves (move_N)",
    "bot-move": "  bots' moves (bot-move_N)",
}
STOLEN = "stolen by the hypervisor"
WEB_LOOP, WEB_OTHER = "  event loops (main threads)", "  other threads"
# in the order the report prints them, under the web processes (whose CPU they split)
THREAD_KINDS = (WEB_LOOP, *WEB_THREADS.values(), WEB_OTHER)


def _thread_ticks(pids) -> dict[str, dict[tuple[int, int], int]]:
    """The user + system ticks of each thread of ``pids``, by the kind of work it does."""
    found: dict[str, dict[tuple[int, int], int]] = {}
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in map(int, tids):
            stat = _stat_path(f"/proc/{pid}/task/{tid}/stat")
            if stat is None:
                continue
            _, name, ticks = stat
            kind = WEB_LOOP if tid == pid else WEB_THREADS.get(name.rpartition("_")[0], WEB_OTHER)
            found.setdefault(kind, {})[(pid, tid)] = ticks
    return found


def _machine_ticks() -> tuple[int, int, int]:
    """(busy, total, stolen) ticks of the whole machine since boot. Busy counts the ticks the
    hypervisor gave other guests while this one's CPUs had work (steal): no process is charged
    with them, yet they are CPU time this machine did not get."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values), values[7] if len(values) > 7 else 0


class CpuMeter:
    """CPU seconds per process kind between ``start()`` and ``stop()``.

    Sampled every ``EVERY`` seconds, not only at both ends: a process that ends in between (a
    PostgreSQL backend whose connection the site recycles after ``CONN_MAX_AGE``) keeps the
    CPU it was last seen with, where two samples lost all of it to "other"."""

    EVERY = 1.0

    def __init__(self, roots: dict[str, list[int]], *, threads_of: str | None = None):
        self.roots = roots  # kind -> root pids (their descendants count too)
        self.threads_of = threads_of  # the kind whose threads are also counted by their work
        self._done = threading.Event()

    def _sample(self) -> dict:
        processes = _all_processes()
        children: dict[int, list[int]] = {}
        for pid, (ppid, _, _) in processes.items():
            children.setdefault(ppid, []).append(pid)
        kinds: dict[str, dict[int, int]] = {}
        for kind, roots in self.roots.items():
            todo, seen = list(roots), {}
            while todo:
                pid = todo.pop()
                if pid in processes and pid not in seen:
                    seen[pid] = processes[pid][2]
                    todo.extend(children.get(pid, []))
            kinds[kind] = seen
        threads = _thread_ticks(kinds.get(self.threads_of, ())) if self.threads_of else {}
        for kind, command in (
            ("postgres (whole server)", "postgres"),
            ("redis (whole server)", "redis-server"),
        ):
            kinds[kind] = {p: s[2] for p, s in processes.items() if s[1] == command}
        kinds.update(threads)
        return {"kinds": kinds, "machine": _machine_ticks(), "at": time.monotonic()}

    def start(self) -> None:
        self.first = self._sample()
        self.seen = {kind: dict(ticks) for kind, ticks in self.first["kinds"].items()}
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._done.wait(self.EVERY):
            self._merge(self._sample())

    def _merge(self, sample: dict) -> None:
        for kind, ticks in sample["kinds"].items():
            seen = self.seen.setdefault(kind, {})
            for pid, t in ticks.items():
                seen[pid] = max(seen.get(pid, 0), t)

    def stop(self) -> dict:
        self._done.set()
        self._thread.join()
        last, first = self._sample(), self.first
        self._merge(last)
        seconds = last["at"] - first["at"]
        used = {}
        for kind, ticks in self.seen.items():
            before = first["kinds"].get(kind, {})
            used[kind] = sum(t - before.get(pid, 0) for pid, t in ticks.items()) / CLK_TCK
        busy = (last["machine"][0] - first["machine"][0]) / CLK_TCK
        stolen = (last["machine"][2] - first["machine"][2]) / CLK_TCK
        cores = os.cpu_count() or 1
        share = {kind: 100 * s / seconds for kind, s in used.items()}
        processes = sum(v for kind, v in share.items() if kind not in THREAD_KINDS)
        share[STOLEN] = 100 * stolen / seconds
        share["other (not this run)"] = max(0.0, 100 * busy / seconds - processes - share[STOLEN])
        share["whole machine"] = 100 * busy / seconds
        share["idle"] = 100 * cores - share["whole machine"]
        return share


# --- the game run ------------------------------------------------------------------------------


def run_game(args, stack: Stack) -> dict:
    clients_count = args.tables * args.clients_per_table
    started = time.monotonic()
    seed = SEED_USERS.format(count=clients_count, salt=secrets.token_hex(8))
    secrets_ = _json(stack.manage("shell", "--no-imports", "-c", seed))
    print(
        f"set-up: database migrated and {clients_count} users with tokens in "
        f"{time.monotonic() - started:.0f}s",
        flush=True,
    )
    stack.start_web()
    stack.start_celery()
    stack.wait_until_up("/api/v1/boards/europe/", worker=True)
    per = args.clients_per_table
    slots = [(slot, secrets_[slot * per : (slot + 1) * per]) for slot in range(args.tables)]
    shards = [
        clients.Plan(
            base_url=stack.url,
            slots=slots[k :: args.load_processes],
            seats=args.seats,
            humans=args.humans,
            bot_level=args.bot_level,
            move_seconds=args.move_seconds,
            think=args.think,
            seed=args.seed,
        )
        for k in range(args.load_processes)
    ]
    roots = {
        WEB: [stack.processes["web"].pid],
        "celery worker": [p.pid for n, p in stack.processes.items() if n.startswith("worker")],
        "celery beat": [stack.processes["beat"].pid],
    }
    snapshots = {}

    def at_window_edge(edge: str) -> None:
        query = "SELECT coalesce(sum(version), 0), clock_timestamp() FROM games_game"
        ((moves, now),) = stack.sql(query)
        snapshots[edge] = (moves, now, time.monotonic())

    tallies, cpu = run_shards(args, _game_shard, shards, roots, at_window_edge)
    stack.stop()  # quiescent before the checks
    (moves0, at0, t0), (moves1, at1, t1) = snapshots["start"], snapshots["end"]
    kinds = dict(
        stack.sql(
            "SELECT CASE WHEN by_timeout THEN 'timeout' WHEN by_bot THEN 'bot' ELSE 'human' END, "
            "count(*) FROM games_gameevent WHERE created_at >= %s AND created_at < %s GROUP BY 1",
            (at0, at1),
        )
    )
    ((timeouts,),) = stack.sql("SELECT count(*) FROM games_gameevent WHERE by_timeout")
    ((bot50, bot99),) = stack.sql(BOT_DELAY, (at0, at1))
    tally = merge(tallies)
    if timeouts:
        tally.errors["moved_by_timeout"] += timeouts
    lost = check_history(stack, tally.acked_moves)
    result = summarize(tally, t1 - t0)
    result.update(
        moves_per_s=(moves1 - moves0) / (t1 - t0),
        kinds={k: v / (t1 - t0) for k, v in kinds.items()},
        lost=lost,
        cpu=cpu,
        tables_opened=len(tally.tables),
        finished=tally.finished,
        bot_delay=(1000 * (bot50 or 0), 1000 * (bot99 or 0)),
    )
    result["passed"] = (
        result["moves_per_s"] >= 150
        and result["p99"] < 250
        and not tally.errors
        and lost["lost"] == 0
    )
    return result


# A bot's turn, server side: the move before it committed -> the bot's move committed
# (BOT_MOVE_DELAY, the wait for a thread of the web process, and the move itself).
BOT_DELAY = """
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d),
       percentile_cont(0.99) WITHIN GROUP (ORDER BY d)
FROM (SELECT EXTRACT(EPOCH FROM e.created_at - p.created_at) AS d
      FROM games_gameevent e JOIN games_gameevent p ON p.game_id = e.game_id AND p.seq = e.seq - 1
      WHERE e.by_bot AND e.created_at >= %s AND e.created_at < %s) AS delays
"""


def _json(text: str):
    return json.loads(text.strip().splitlines()[-1])


def _game_shard(plan, window, ready, queue) -> None:
    tally = _run_loop(clients.run_game_shard(plan, window, _connected(ready)))
    queue.put(tally)


def _bare_shard(work, window, ready, queue) -> None:
    base_url, tables = work
    queue.put(_run_loop(clients.run_bare_shard(base_url, tables, window, _connected(ready))))


def _connected(ready):
    def all_connected() -> None:
        # The sockets and their clients live for the whole run: out of the way of the
        # collector, as in the web processes (ttr_site/collector.py), so that the load
        # generator spends its CPU on the frames, not on walking the clients it keeps.
        collector.settle()
        if CLIENT_GC[0] == "off":
            gc.disable()
        ready.set()

    return all_connected


CLIENT_NICE = [0]  # --client-nice, applied by each load process to itself (forked)
# Before stop 39 the default was 0: the load generator's loop then waited for a CPU behind the
# site, its lag p99 about 100 ms, a part of every latency that remote clients do not add.
CLIENT_NICE_DEFAULT = -10
CLIENT_GC = ["on"]  # --client-gc, applied by each load process once it is connected


def _run_loop(coroutine):
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us through the window
    os.setsid()  # its own scheduling group, as each process of the stack (``Stack.spawn``)
    if CLIENT_NICE[0]:
        os.nice(CLIENT_NICE[0])  # before any thread: its threads inherit it
        _autogroup_nice(CLIENT_NICE[0])
    try:
        import uvloop

        return uvloop.run(coroutine)
    except ImportError:
        return asyncio.run(coroutine)


def _autogroup_nice(nice: int) -> None:
    """With the kernel's autogroups on (``/proc/sys/kernel/sched_autogroup_enabled``), a
    process's nice ranks it only against its own session's processes: sessions share the CPU
    by their autogroup's nice, set here (``sched(7)``)."""
    with contextlib.suppress(OSError):
        Path("/proc/self/autogroup").write_text(str(nice))


def run_shards(args, target, works, roots, at_window_edge=None):
    """Start one load process per work item, wait until all are connected, measure the
    window, and return their tallies with the CPU shares of the window."""
    context = multiprocessing.get_context("fork")
    window = context.Array("d", [math.inf, math.inf], lock=False)
    queue = context.Queue()
    readies = [context.Event() for _ in works]
    processes = [
        context.Process(target=target, args=(work, window, ready, queue), daemon=True)
        for work, ready in zip(works, readies, strict=True)
    ]
    for process in processes:
        process.start()
    try:
        started = time.monotonic()
        for ready in readies:
            if not ready.wait(timeout=max(0.0, 600 - (time.monotonic() - started))):
                raise RuntimeError("the load generator did not get every socket connected")
        print(
            f"all sockets connected after {time.monotonic() - started:.0f}s; warming up "
            f"{args.warmup:.0f}s, measuring {args.duration:.0f}s",
            flush=True,
        )
        meter = CpuMeter({**roots, "load generator": [p.pid for p in processes]}, threads_of=WEB)
        begin = time.time() + args.warmup
        window[0], window[1] = begin, begin + args.duration
        time.sleep(max(0.0, begin - time.time()))
        if at_window_edge:
            at_window_edge("start")
        meter.start()
        time.sleep(max(0.0, window[1] - time.time()))
        cpu = meter.stop()
        if at_window_edge:
            at_window_edge("end")
        tallies = [queue.get(timeout=120) for _ in processes]
        for process in processes:
            process.join(timeout=30)
        return tallies, cpu
    finally:
        for process in processes:
            if process.is_alive():
                process.kill()


def merge(tallies: list) -> clients.Tally:
    total = clients.Tally()
    for tally in tallies:
        total.sent += tally.sent
        total.acked += tally.acked
        total.latencies += tally.latencies
        total.errors.update(tally.errors)
        total.notes.update(tally.notes)
        total.frames += tally.frames
        total.acked_moves += tally.acked_moves
        total.tables += tally.tables
        total.finished += tally.finished
        total.lags += tally.lags
        total.gc_pauses += tally.gc_pauses
        total.lagged += tally.lagged
        for kind, latencies in tally.by_kind.items():
            total.by_kind.setdefault(kind, []).extend(latencies)
    total.errors = Counter({k: v for k, v in total.errors.items() if v})
    return total


def summarize(tally, seconds: float) -> dict:
    latencies = sorted(tally.latencies) or [math.nan]
    return {
        "sent": tally.sent,
        "acked": tally.acked,
        "p50": 1000 * _quantile(latencies, 0.50),
        "p95": 1000 * _quantile(latencies, 0.95),
        "p99": 1000 * _quantile(latencies, 0.99),
        "max": 1000 * latencies[-1],
        "mean": 1000 * statistics.fmean(latencies),
        "lag_p50": 1000 * _quantile(tally.lags, 0.50),
        "lag_p99": 1000 * _quantile(tally.lags, 0.99),
        "lagged": lag_causes(tally.lagged),
        "gc": {
            generation: (
                len(pauses),
                1000 * sum(pauses),
                1000 * max(pauses),
            )
            for generation in (0, 1, 2)
            if (pauses := [p for g, p in tally.gc_pauses if g == generation])
        },
        "by_kind": {
            kind: (len(values), 1000 * _quantile(values, 0.50), 1000 * _quantile(values, 0.99))
            for kind, values in sorted(tally.by_kind.items(), key=lambda kv: -len(kv[1]))
        },
        "frames_per_s": tally.frames / seconds,
        "errors": tally.errors,
        "notes": tally.notes,
    }


def lag_causes(lagged: list) -> dict:
    """Where the load generator's lagged ticks' time went, in shares of it: its loop thread
    running (its own callbacks), that thread waiting for a CPU, the process's other threads
    running, and the rest (waiting for the interpreter without another thread of the process
    running: e.g. the hypervisor's stolen time)."""
    if not lagged:
        return {"ticks": 0, "seconds": 0.0, "shares": {}}
    seconds, running, waiting, others = (sum(column) for column in zip(*lagged, strict=True))
    parts = {"loop running": running, "waiting for a CPU": waiting, "other threads": others}
    parts["the rest"] = max(0.0, seconds - sum(parts.values()))
    shares = {name: 100 * value / seconds for name, value in parts.items()}
    return {"ticks": len(lagged), "seconds": seconds, "shares": shares}


def _quantile(values: list, q: float) -> float:
    ordered = sorted(values) or [math.nan]
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def check_history(stack: Stack, acked: list) -> dict:
    """Lost moves: every game's events are whole (0, the set-up, to its version) and their
    actions replay to its state and to the log entries they hold; every acknowledged action
    is in them."""
    from games import engine

    games = stack.sql("SELECT id, table_id, version, seed, state FROM games_game ORDER BY id")
    rows = stack.sql(
        "SELECT game_id, seq, seat, action, by_timeout, entries FROM games_gameevent "
        "ORDER BY game_id, seq"
    )
    events: dict[int, list] = {}
    entries: dict[int, list] = {}
    for game_id, seq, seat, action, by_timeout, made in rows:
        entries.setdefault(game_id, []).extend(made)
        if seq:  # 0 is the set-up
            events.setdefault(game_id, []).append((seq, seat, action, by_timeout))
    broken, logged = [], {}
    for game_id, table_id, version, seed, state_json in games:
        log = events.get(game_id, [])
        stored = engine.from_json(state_json)
        params = {
            "ruleset": stored.ruleset,
            "variant": stored.variant,
            "seats": stored.n,
            "seed": seed,
            "options": stored.options,
        }
        whole = [seq for seq, *_ in log] == list(range(1, version + 1)) and game_id in entries
        replayed = engine.replay(params, [(seat, action) for _, seat, action, _ in log])
        same_log = whole and replayed.log == entries[game_id]
        engine.detach_log(replayed)  # as stored
        if not same_log or engine.to_json(replayed) != state_json:
            broken.append(game_id)
        for seq, seat, action, by_timeout in log:
            logged[(table_id, seq)] = (seat, action, by_timeout)
    missing = timed_out = 0
    for table_id, version, seat, action in acked:
        found = logged.get((table_id, version))
        if found is not None and found[:2] == (seat, action):
            continue
        if found is not None and found[0] == seat and found[2]:
            timed_out += 1  # the seat's own timeout came first (counted as an error already)
        else:
            missing += 1
    return {
        "games": len(games),
        "events": len(rows),
        "acked": len(acked),
        "broken_games": len(broken),
        "missing_acked": missing,
        "timed_out": timed_out,
        "lost": len(broken) + missing,
    }


# --- the bare broadcast ------------------------------------------------------------------------


def run_bare(args, stack: Stack) -> dict:
    stack.start_web("benchmarks.bare_asgi:application")
    _wait_for_socket(stack.port)
    tables = list(range(args.tables))
    works = [(stack.url, tables[k :: args.load_processes]) for k in range(args.load_processes)]
    roots = {WEB: [stack.processes["web"].pid]}
    try:
        tallies, cpu = run_shards(args, _bare_shard, works, roots)
    finally:
        stack.stop()
    tally = merge(tallies)
    result = summarize(tally, args.duration)
    result.update(moves_per_s=tally.acked / args.duration, cpu=cpu)
    return result


def _wait_for_socket(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the bare server did not come up")


# --- the report --------------------------------------------------------------------------------


def report(args, results: dict) -> None:
    game, bare = results.get("game"), results.get("bare")
    cpu_model = _cpu_model()
    print()
    print(
        f"ttr load benchmark, {date.today()}, {os.cpu_count()} cores ({cpu_model}), "
        f"Python {platform.python_version()}"
    )
    spectators = args.clients_per_table - args.humans
    print(
        f"{args.tables} tables x {args.clients_per_table} sockets = "
        f"{args.tables * args.clients_per_table} clients: per table {args.humans} scripted "
        f"humans + {spectators} spectators; {args.seats - args.humans} {args.bot_level} bots "
        f"in the other seats"
    )
    print(
        f"think {args.think[0]}-{args.think[1]} s, BOT_MOVE_DELAY {args.bot_delay} s, "
        f"BOT_MOVE_NICE {args.bot_nice}, "
        f"{args.move_seconds} s per move; {args.web_workers} uvicorn workers, "
        f"{args.celery_workers} Celery worker(s) {args.celery_pool} x{args.celery_concurrency} "
        f"+ beat, {args.load_processes} load "
        f"process(es) at nice {args.client_nice:+d}; {args.warmup:.0f} s warm-up, "
        f"{args.duration:.0f} s measured"
    )
    before, after = results["speed"]
    print(
        f"machine speed (a fixed pure-Python loop, ms, lower is faster): {before:.0f} before "
        f"the run, {after:.0f} after"
    )
    print()
    rows = [
        ("moves/s", "moves_per_s", "{:.1f}"),
        ("human actions sent", "sent", "{}"),
        ("human actions acknowledged", "acked", "{}"),
        ("latency p50 ms", "p50", "{:.1f}"),
        ("latency p95 ms", "p95", "{:.1f}"),
        ("latency p99 ms", "p99", "{:.1f}"),
        ("latency max ms", "max", "{:.1f}"),
        ("frames received/s", "frames_per_s", "{:.0f}"),
        ("load generator loop lag p50 ms", "lag_p50", "{:.1f}"),
        ("load generator loop lag p99 ms", "lag_p99", "{:.1f}"),
    ]
    print(f"{'':30} {'game':>12} {'bare':>12}")
    for label, key, fmt in rows:
        cells = [fmt.format(r[key]) if r else "-" for r in (game, bare)]
        print(f"{label:30} {cells[0]:>12} {cells[1]:>12}")
    for label, key in (("errors", "errors"), ("expected protocol events", "notes")):
        cells = [str(sum(r[key].values())) if r else "-" for r in (game, bare)]
        print(f"{label:30} {cells[0]:>12} {cells[1]:>12}")
        for r, name in ((game, "game"), (bare, "bare")):
            for code, count in sorted((r or {}).get(key, {}).items()):
                print(f"  {name}: {code:24} {count:>12}")
    if game:
        _report_game_details(game)
    _report_collections(args, game, bare)
    _report_lag_causes(game, bare)
    if game and bare:
        print(
            f"{'ratio game/bare (moves/s)':30} {game['moves_per_s'] / bare['moves_per_s']:>12.3f}"
        )
    print()
    # A process kind's CPU per move: its share of a core (%) * 10 / moves per second, in ms.
    print(f"{'CPU, % of one core':30} {'game':>12} {'bare':>12} {'game ms/move':>14}")
    kinds = list(dict.fromkeys([*(game or {}).get("cpu", {}), *(bare or {}).get("cpu", {})]))
    # the web processes' threads right under the web processes
    threads = [kind for kind in THREAD_KINDS if kind in kinds]
    kinds = [kind for kind in kinds if kind not in THREAD_KINDS]
    kinds[kinds.index(WEB) + 1 : kinds.index(WEB) + 1] = threads
    for kind in kinds:
        cells = [f"{r['cpu'][kind]:.0f}" if r and kind in r["cpu"] else "-" for r in (game, bare)]
        per = "-"
        if game and game["moves_per_s"] and kind in game["cpu"] and kind != "idle":
            per = f"{game['cpu'][kind] * 10 / game['moves_per_s']:.2f}"
        print(f"{kind:30} {cells[0]:>12} {cells[1]:>12} {per:>14}")
    if game and game["moves_per_s"]:
        web = game["cpu"][WEB] * 10 / game["moves_per_s"]
        print(f"{'web CPU per move, ms':30} {web:>12.2f}")
        own = [
            f"{label} {game['cpu'][kind] * 10 / game['kinds'][by]:.2f} ms"
            for label, kind, by in (
                ("a player's move", WEB_THREADS["move"], "human"),
                ("a bot's", WEB_THREADS["bot-move"], "bot"),
            )
            if game["kinds"].get(by) and kind in game["cpu"]
        ]
        if own:
            print(f"  in the move's own thread: {', '.join(own)} (per move of its kind)")
    if game:
        verdict = "PASS" if game["passed"] else "FAIL"
        print(f"\nrequired: >= 150 moves/s, p99 < 250 ms, no error, no lost move: {verdict}")
        print(scale_verdict(game, bare))


def _report_game_details(game: dict) -> None:
    lost = game["lost"]
    print(f"{'lost moves':30} {lost['lost']:>12} {'-':>12}")
    print(
        f"  checked {lost['games']} games, {lost['events']} events, {lost['acked']} "
        f"acknowledged actions; {lost['broken_games']} games not whole, "
        f"{lost['missing_acked']} acknowledged actions missing ({lost['timed_out']} others "
        "were overtaken by their seat's own timeout: errors, not lost)"
    )
    kinds = ", ".join(f"{k} {v:.1f}/s" for k, v in sorted(game["kinds"].items()))
    print(
        f"  moves by kind: {kinds}; tables opened {game['tables_opened']}, games "
        f"finished {game['finished']}"
    )
    by_kind = "; ".join(
        f"{kind} {n}: {p50:.0f} / {p99:.0f}" for kind, (n, p50, p99) in game["by_kind"].items()
    )
    print(f"  latency by action (acknowledged, p50 / p99 ms): {by_kind}")
    bot50, bot99 = game["bot_delay"]
    print(
        f"  a bot's turn (move before committed -> bot move committed, BOT_MOVE_DELAY "
        f"included): p50 {bot50:.0f} ms, p99 {bot99:.0f} ms"
    )


def _report_collections(args, game: dict | None, bare: dict | None) -> None:
    """The load generator's own garbage collections in the window, by generation."""
    state = "collector on" if args.client_gc == "on" else "collector off once connected"
    for r, name in ((game, "game"), (bare, "bare")):
        if r is not None:
            pauses = "; ".join(
                f"generation {g}: {n}, {total:.0f} ms in all, longest {longest:.1f} ms"
                for g, (n, total, longest) in r["gc"].items()
            )
            print(f"  {name}: the load generator's collections ({state}): {pauses or 'none'}")


def _report_lag_causes(game: dict | None, bare: dict | None) -> None:
    for r, name in ((game, "game"), (bare, "bare")):
        if r is None:
            continue
        causes = r["lagged"]
        shares = ", ".join(f"{cause} {share:.0f}%" for cause, share in causes["shares"].items())
        where = f"; of it {shares}" if shares else ""
        print(
            f"  {name}: the load generator's ticks {1000 * clients.LAGGED:.0f} ms late or more: "
            f"{causes['ticks']}, {causes['seconds']:.1f} s{where}"
        )


def scale_verdict(game: dict, bare: dict | None) -> str:
    """Issue 24's live-play line, judged on one run: at least 350 moves/s at p99 under
    250 ms with no error and no lost move, and game/bare at least 0.5 (the bare part of the
    same run; without it the line cannot be judged)."""
    misses = []
    if game["moves_per_s"] < SCALE_MOVES:
        misses.append(f"{game['moves_per_s']:.1f} moves/s")
    if game["p99"] >= SCALE_P99_MS:
        misses.append(f"p99 {game['p99']:.1f} ms")
    if game["errors"] or game["lost"]["lost"]:
        misses.append("errors or lost moves")
    if bare is None:
        verdict = "not judged (no bare part: run without --only)"
    else:
        ratio = game["moves_per_s"] / bare["moves_per_s"]
        if ratio < SCALE_RATIO:
            misses.append(f"game/bare {ratio:.3f}")  # 0.496 is not 0.50
        verdict = f"FAIL ({', '.join(misses)})" if misses else "PASS"
    return (
        f"scale (issue 24): >= {SCALE_MOVES} moves/s, p99 < {SCALE_P99_MS} ms, no error, no "
        f"lost move, game/bare >= {SCALE_RATIO} in the same run: {verdict}"
    )


SCALE_MOVES, SCALE_P99_MS, SCALE_RATIO = 350, 250, 0.5  # issue 24's live-play line


def machine_speed() -> float:
    """Milliseconds for a fixed pure-Python loop, the best of three: how fast this machine's
    CPU is just now. On a shared virtual machine it varies by half between minutes, and every
    figure of the run with it."""
    best = math.inf
    for _ in range(3):
        started = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - started)
    return best * 1000


def _cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
