"""A live site in subprocesses, started the way a user or a deployment starts it.

``embedded``: one ``manage.py serve`` process on a fresh SQLite file, no Redis (what
``make run`` starts). ``production``: ``manage.py serve`` (uvicorn) plus a separate
``celery worker`` over Redis, on a fresh PostgreSQL database. Each site's database is a copy
of one that ``manage.py migrate`` made once in this test process (``_migrated``).

A production site can be scaled out (``web_processes`` web servers on their own ports,
``workers`` Celery workers, all sharing one database and one Redis), pointed at a Redis of
its own (``redis_url``) and reach PostgreSQL through a port of the test's choosing
(``database_port``, e.g. a proxy the test can cut); the fault drills stop and start its
processes one by one (``stop_web``/``start_web``, ``kill_worker``/``start_worker``).
"""

import atexit
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psycopg

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveSite:
    """Start with ``start()``, stop with ``stop()``; ``url`` is the base address."""

    def __init__(
        self,
        mode: str,
        workdir: Path,
        *,
        extra_env: dict | None = None,
        web_processes: int = 1,
        workers: int = 1,
        redis_url: str | None = None,
        database_port: int | None = None,
    ):
        self.mode = mode
        self.workdir = workdir
        self.ports = [free_port() for _ in range(web_processes)]
        self.urls = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.port, self.url = self.ports[0], self.urls[0]
        self.processes: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        self._dbname = None
        self._workers = 0  # workers started so far (names them w1, w2, ...)
        self._worker_count = workers
        self._web: dict[int, subprocess.Popen] = {}
        self._live_workers: list[tuple[subprocess.Popen, Path]] = []
        self._beat: subprocess.Popen | None = None
        self._redis_url = redis_url
        self._database_port = database_port
        self.database_url = ""  # the site's database, reached directly (not via a proxy)
        self.env = self._environment(extra_env or {})

    def _environment(self, extra: dict) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
        env.update(DEBUG="true", PYTHONUNBUFFERED="1", SITE_URL=self.url, LOG_LEVEL="INFO")
        env["DEMO_BOT_TOURNAMENTS"] = "false"  # no bots' tournament starting mid-test
        env["CELERY_BEAT_SCHEDULE_FILENAME"] = str(self.workdir / "celerybeat-schedule")
        if self.mode == "embedded":
            env.pop("REDIS_URL", None)
            env["DATABASE_URL"] = f"sqlite:///{self.workdir / 'site.sqlite3'}"
            self.database_url = env["DATABASE_URL"]
        else:
            self._dbname = f"ttr_live_{uuid.uuid4().hex[:10]}"
            self.database_url = _with_path(os.environ["DATABASE_URL"], self._dbname)
            env["DATABASE_URL"] = self.database_url
            if self._database_port is not None:
                env["DATABASE_URL"] = _with_port(self.database_url, self._database_port)
            # Its own Celery queue and key prefix, so the tasks, cache keys and pub/sub channels
            # of another live site on the same Redis never meet this one's.
            redis_db = os.environ.get("LIVE_REDIS_DB", "7")
            env["REDIS_URL"] = self._redis_url or _with_path(os.environ["REDIS_URL"], redis_db)
            env["CELERY_QUEUE"] = self._dbname
            env["REDIS_PREFIX"] = self._dbname
        env.update(extra)
        return env

    def manage(self, *args: str) -> str:
        return _manage(self.env, *args)

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen:
        log = self.workdir / f"{name}.log"
        handle = log.open("a")  # a restarted process adds to its predecessor's log
        process = subprocess.Popen(
            args,
            cwd=ROOT,
            env=self.env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        if log not in self.logs:
            self.logs.append(log)
        return process

    def start(self) -> "LiveSite":
        try:
            return self._start()
        except BaseException:
            self.stop()  # never leave a half-started site consuming someone else's tasks
            raise

    def _start(self) -> "LiveSite":
        template = _migrated(self.mode, self.env)
        if self._dbname:
            _admin_sql(f'CREATE DATABASE "{self._dbname}" TEMPLATE "{template}"')
        else:
            _copy_sqlite(template, urlparse(self.database_url).path)
        for index in range(len(self.ports)):
            self._spawn_web(index)
        if self.mode == "production":
            for _ in range(self._worker_count):
                self.start_worker(wait=False)
            self.start_beat()
        self._wait_until_up()
        return self

    def _spawn_web(self, index: int) -> None:
        serve = [sys.executable, "manage.py", "serve", "--port", str(self.ports[index])]
        self._web[index] = self._spawn("web" if index == 0 else f"web{index}", serve)

    def stop_web(self, index: int = 0, sig: int = signal.SIGTERM) -> None:
        """Stop one web process: SIGTERM (uvicorn's graceful shutdown) or SIGKILL."""
        process = self._web.pop(index)
        if process.poll() is None:
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        self.processes.remove(process)

    def start_web(self, index: int = 0) -> None:
        """Start a web process on the port ``index`` had, and wait until it answers."""
        self._spawn_web(index)
        self._wait_until_up()

    def start_worker(self, *, wait: bool = True) -> None:
        """A Celery worker process (production mode), as ``celery -A ttr_site worker``."""
        self._workers += 1
        queue = self.env["CELERY_QUEUE"]  # and its analyses' queue (ttr_site/settings.py)
        options = ["--pool=threads", "--concurrency=4", "--loglevel=INFO", "--without-mingle",
                   "--without-gossip", "-n", f"w{self._workers}@%h",
                   "-Q", f"{queue},{queue}.analysis"]  # fmt: skip
        name = f"worker{self._workers}"
        process = self._spawn(
            name, [sys.executable, "-m", "celery", "-A", "ttr_site", "worker", *options]
        )
        self._live_workers.append((process, self.workdir / f"{name}.log"))
        if wait:
            self._wait_until_up()

    def kill_worker(self) -> None:
        """SIGKILL the newest worker: no chance to finish or hand back its tasks."""
        process, _log = self._live_workers.pop()
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        self.processes.remove(process)

    def start_beat(self) -> None:
        """Celery beat (production mode), as ``celery -A ttr_site beat``."""
        beat = ["-m", "celery", "-A", "ttr_site", "beat", "--loglevel=INFO"]
        schedule = str(self.workdir / "celerybeat-schedule")
        self._beat = self._spawn("beat", [sys.executable, *beat, "--schedule", schedule])

    def kill_beat(self) -> None:
        """SIGKILL beat: no periodic task (the deadline sweep) is sent until it is back."""
        os.killpg(self._beat.pid, signal.SIGKILL)
        self._beat.wait()
        self.processes.remove(self._beat)

    def kill_workers(self) -> None:
        """SIGKILL every worker."""
        while self._live_workers:
            self.kill_worker()

    def sql(self, query: str, params: tuple = ()) -> list[tuple]:
        """Read the site's own database directly (the test never writes through this)."""
        url = self.database_url
        if url.startswith("sqlite"):
            import sqlite3

            with sqlite3.connect(urlparse(url).path) as connection:
                return connection.execute(query.replace("%s", "?"), params).fetchall()
        with psycopg.connect(url) as connection:
            return connection.execute(query, params).fetchall()

    def wait_for(self, predicate, timeout: float = 60, what: str = "condition", poll=0.25):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(poll)
        raise AssertionError(f"{what} did not happen in {timeout}s:\n{self.output()[-4000:]}")

    def _wait_until_up(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"a site process exited early:\n{self.output()}")
            running = [self.urls[index] for index in self._web]
            if all(self._answers(url) for url in running) and self._worker_ready():
                return
            time.sleep(0.2)
        raise RuntimeError(f"the site did not come up in {timeout}s:\n{self.output()}")

    @staticmethod
    def _answers(url: str) -> bool:
        try:
            with urllib.request.urlopen(url + "/", timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    def _worker_ready(self) -> bool:
        return all("ready." in log.read_text() for _process, log in self._live_workers)

    def output(self) -> str:
        return "\n".join(log.read_text(errors="replace") for log in self.logs if log.exists())

    def wait_for_output(self, pattern: str, timeout: float = 15) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            matches = list(re.finditer(pattern, self.output()))
            if matches:
                return matches[-1]
            time.sleep(0.2)
        raise AssertionError(f"{pattern!r} never appeared in the site's output")

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                # Beat is killed: its SIGTERM handler closes the schedule file and raises
                # SystemExit wherever beat is, and in the middle of sending the deadline sweep
                # (every second) that cut a Redis reply in half and logged tracebacks (seen
                # once in CI). The others stop gracefully, and their logs must stay clean.
                sig = signal.SIGKILL if process is self._beat else signal.SIGTERM
                os.killpg(process.pid, sig)
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if self._dbname:
            _admin_sql(f'DROP DATABASE IF EXISTS "{self._dbname}" WITH (FORCE)')
            _redis_forget(self.env["REDIS_URL"], self._dbname)


# mode -> a database this test process migrated once (PostgreSQL: its name; SQLite: its file),
# which each site's database is copied from: ``manage.py migrate`` on a fresh database took
# 3-4 s of CPU a site, and a make test run starts dozens of sites.
_templates: dict[str, str] = {}


def _migrated(mode: str, site_env: dict) -> str:
    """This process's migrated database for ``mode``, made by ``manage.py migrate`` (as a
    deployment makes one) the first time; dropped when the process exits."""
    if mode in _templates:
        return _templates[mode]
    env = dict(site_env)
    if mode == "embedded":
        folder = Path(tempfile.mkdtemp(prefix="ttr_live_template_"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = str(folder / "template.sqlite3")
        env["DATABASE_URL"] = f"sqlite:///{template}"
    else:
        template = f"ttr_live_template_{uuid.uuid4().hex[:10]}"
        _admin_sql(f'CREATE DATABASE "{template}"')
        atexit.register(_admin_sql, f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)')
        env["DATABASE_URL"] = _with_path(os.environ["DATABASE_URL"], template)
    _manage(env, "migrate", "--noinput")
    _templates[mode] = template
    return template


def _manage(env: dict, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout


def _copy_sqlite(source: str, target: str) -> None:
    """Copy an SQLite database through SQLite itself (whatever its journal holds)."""
    import sqlite3

    with sqlite3.connect(source) as original, sqlite3.connect(target) as copy:
        original.backup(copy)
    original.close()
    copy.close()


def _with_path(url: str, path: str) -> str:
    return urlunparse(urlparse(url)._replace(path="/" + path))


def _with_port(url: str, port: int) -> str:
    parsed = urlparse(url)
    credentials = parsed.netloc.rpartition("@")[0]
    netloc = f"{credentials}@127.0.0.1:{port}" if credentials else f"127.0.0.1:{port}"
    return urlunparse(parsed._replace(netloc=netloc))


def _admin_sql(sql: str) -> None:
    with psycopg.connect(_with_path(os.environ["DATABASE_URL"], "postgres"), autocommit=True) as c:
        c.execute(sql)


def _redis_forget(url: str, prefix: str) -> None:
    """Delete this site's keys (cache, its Celery queue) from the shared Redis database."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=f"*{prefix}*", count=1000))  # also _kombu.binding.*
        if keys:
            client.delete(*keys)
    except redis.ConnectionError:  # a Redis of the test's own that is already gone
        pass
