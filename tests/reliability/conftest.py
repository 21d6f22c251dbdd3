"""The drills' site: production mode scaled out to two web processes and two workers, on a
Redis server of its own (so it can be killed without touching the shared one) and reaching
PostgreSQL through a TCP proxy the test can cut. One site serves every drill:
starting one costs ~10 s, and each drill ends by proving the site whole again."""

import os
import shutil
from urllib.parse import urlparse

import pytest

from games import services
from tests.live import LiveSite
from tests.reliability.faults import RedisServer, TcpProxy

# Fast bots, and a lost bot move is swept up after 3 s.
FAST = {"BOT_MOVE_DELAY": "0.02", "BOT_STALL_SECONDS": "3"}


@pytest.fixture(scope="package")
def drill_site(tmp_path_factory):
    if not shutil.which("redis-server"):
        pytest.skip("needs redis-server (apt-get install redis-server)")
    workdir = tmp_path_factory.mktemp("drills")
    database = urlparse(os.environ["DATABASE_URL"])
    redis = RedisServer(workdir).start()
    proxy = TcpProxy(database.hostname, database.port or 5432).start()
    site = LiveSite("production", workdir, extra_env=FAST, web_processes=2, workers=2,
                    redis_url=redis.url, database_port=proxy.port)  # fmt: skip
    site.redis, site.proxy = redis, proxy
    try:
        yield site.start()
    finally:
        site.stop()
        proxy.stop()
        redis.kill()


@pytest.fixture
def started(cast):
    """A two-seat table of alice (seat 0) and bob (seat 1), its game dealt."""
    table = services.table_create(owner=cast["alice"], seat_count=2)
    services.table_join(table_id=table.pk, user=cast["bob"])
    return table
