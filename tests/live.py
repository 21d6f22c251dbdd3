"""A live site in subprocesses, started the way a user or a deployment starts it.

``embedded``: one ``manage.py serve`` process on a fresh SQLite file, no Redis (what
``make run`` starts). ``production``: ``manage.py serve`` (uvicorn) plus a separate
``celery worker`` over Redis, on a fresh PostgreSQL database.
"""

import os
import re
import signal
import socket
import subprocess
import sys
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

    def __init__(self, mode: str, workdir: Path, *, extra_env: dict | None = None):
        self.mode = mode
        self.workdir = workdir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.processes: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        self._dbname = None
        self._workers = 0
        self.env = self._environment(extra_env or {})

    def _environment(self, extra: dict) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
        env.update(DEBUG="true", PYTHONUNBUFFERED="1", SITE_URL=self.url, LOG_LEVEL="INFO")
        env["CELERY_BEAT_SCHEDULE_FILENAME"] = str(self.workdir / "celerybeat-schedule")
        if self.mode == "embedded":
            env.pop("REDIS_URL", None)
            env["DATABASE_URL"] = f"sqlite:///{self.workdir / 'site.sqlite3'}"
        else:
            self._dbname = f"ttr_live_{uuid.uuid4().hex[:10]}"
            env["DATABASE_URL"] = _with_path(os.environ["DATABASE_URL"], self._dbname)
            # A Redis database of its own, so queued tasks of other tests never meet this site.
            env["REDIS_URL"] = _with_path(os.environ["REDIS_URL"], "7")
            env["CELERY_QUEUE"] = self._dbname
        env.update(extra)
        return env

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        if result.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stderr}")
        return result.stdout

    def _spawn(self, name: str, args: list[str]) -> None:
        log = self.workdir / f"{name}.log"
        handle = log.open("w")
        process = subprocess.Popen(
            args,
            cwd=ROOT,
            env=self.env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        self.logs.append(log)

    def start(self) -> "LiveSite":
        try:
            return self._start()
        except BaseException:
            self.stop()  # never leave a half-started site consuming someone else's tasks
            raise

    def _start(self) -> "LiveSite":
        if self._dbname:
            _admin_sql(f'CREATE DATABASE "{self._dbname}"')
            _redis_flush(self.env["REDIS_URL"])
        self.manage("migrate", "--noinput")
        serve = [sys.executable, "manage.py", "serve", "--port", str(self.port)]
        self._spawn("web", serve)
        if self.mode == "production":
            self.start_worker()
            beat = ["-m", "celery", "-A", "ttr_site", "beat", "--loglevel=INFO"]
            schedule = str(self.workdir / "celerybeat-schedule")
            self._spawn("beat", [sys.executable, *beat, "--schedule", schedule])
        self._wait_until_up()
        return self

    def start_worker(self) -> None:
        """A Celery worker process (production mode), as ``celery -A ttr_site worker``."""
        self._workers += 1
        options = ["--pool=threads", "--concurrency=4", "--loglevel=INFO", "--without-mingle",
                   "--without-gossip", "-n", f"w{self._workers}@%h"]  # fmt: skip
        self._spawn(
            f"worker{self._workers}",
            [sys.executable, "-m", "celery", "-A", "ttr_site", "worker", *options],
        )

    def kill_worker(self) -> None:
        """SIGKILL the newest worker: no chance to finish or hand back its tasks."""
        index = self.logs.index(self.workdir / f"worker{self._workers}.log")
        process = self.processes[index]
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def sql(self, query: str, params: tuple = ()) -> list[tuple]:
        """Read the site's own database directly (the test never writes through this)."""
        url = self.env["DATABASE_URL"]
        if url.startswith("sqlite"):
            import sqlite3

            with sqlite3.connect(urlparse(url).path) as connection:
                return connection.execute(query.replace("%s", "?"), params).fetchall()
        with psycopg.connect(url) as connection:
            return connection.execute(query, params).fetchall()

    def wait_for(self, predicate, timeout: float = 60, what: str = "condition"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(0.25)
        raise AssertionError(f"{what} did not happen in {timeout}s:\n{self.output()[-4000:]}")

    def _wait_until_up(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"a site process exited early:\n{self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200 and self._worker_ready():
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the site did not come up in {timeout}s:\n{self.output()}")

    def _worker_ready(self) -> bool:
        if self.mode != "production":
            return True
        return "ready." in (self.workdir / f"worker{self._workers}.log").read_text()

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
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if self._dbname:
            _admin_sql(f'DROP DATABASE IF EXISTS "{self._dbname}" WITH (FORCE)')


def _with_path(url: str, path: str) -> str:
    return urlunparse(urlparse(url)._replace(path="/" + path))


def _admin_sql(sql: str) -> None:
    with psycopg.connect(_with_path(os.environ["DATABASE_URL"], "postgres"), autocommit=True) as c:
        c.execute(sql)


def _redis_flush(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()
