"""benchmarks/move_path.py runs end to end against the real services and leaves nothing
behind: its own database dropped, its Redis keys deleted. (Its figures are not checked here:
timings belong in docs/benchmarks.md. Enough moves that the database server's CPU, read in
10 ms ticks from /proc, is more than none: 30 moves of about 0.3 ms each read 0.)"""

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psycopg
import pytest
import redis

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _databases() -> set[str]:
    server = urlparse(os.environ["DATABASE_URL"])._replace(path="/postgres")
    with psycopg.connect(urlunparse(server), autocommit=True) as connection:
        rows = connection.execute("SELECT datname FROM pg_database").fetchall()
    return {name for (name,) in rows if name.startswith("ttr_movepath_")}


def _redis_keys() -> int:
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    return sum(1 for _ in client.scan_iter(match="*ttr_movepath_*", count=1000))


def test_the_move_path_benchmark_prints_both_ways_and_cleans_up():
    before = _databases(), _redis_keys()
    result = subprocess.run(
        [sys.executable, "benchmarks/move_path.py", "--tables", "2", "--moves", "200",
         "--rounds", "1", "--compare-prepare"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
        env={k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO"))},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    rows = {
        line.split("  ")[0]: line
        for line in result.stdout.splitlines()
        if line.startswith(("prepared", "not prepared"))
    }
    assert set(rows) == {"prepared", "not prepared"}, result.stdout
    for line in rows.values():
        web, _choice, postgres, _redis = [float(v) for v in re.findall(r"(\d+\.\d+) \(", line)]
        assert web > 0 and postgres > 0, line
    assert (_databases(), _redis_keys()) == before
