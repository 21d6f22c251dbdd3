"""A move's own path in one process, against the real PostgreSQL and Redis: the CPU a move
costs the web process, the database server and Redis, with none of the socket traffic around
it (``benchmarks/load.py`` measures the whole stack; this one holds still enough to compare
two versions of the move path).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/9 \\
        .venv/bin/python benchmarks/move_path.py [--tables 40] [--moves 1500] [--rounds 4]

It makes a database of its own (``ttr_movepath_<random>``, migrated, dropped at the end) and a
Redis prefix of its own, and plays 4-seat Europe tables as ``load.py`` does: two players (a
script picks their actions from their own views, outside the measured part, as a client
would) and two medium bots. Each move runs as the web process runs it: a player's action
through ``games.consumers._submit_limited`` (the rate limit, the read of the game with its
table and seats, the engine, the write with its event, then each audience's view built,
encoded and published), a bot's turn through ``games.services.game_bot_move`` (the same,
with the bot's choice); Django's connection bookkeeping around each as
``database_sync_to_async`` does it. The bot's next turn is not scheduled: in a web process
that is a timer on its event loop.

Measured per round: this process's CPU time per move (the bot's choice apart), the CPU of the
PostgreSQL server process of this connection (``/proc``) and of the Redis server (``INFO``),
less what replacing the tables of finished games cost them.
``--compare-prepare`` alternates rounds with the move's statements prepared (the site's
setting) and not (``DATABASE_PREPARE_THRESHOLD=0``), over the same games.
"""

import argparse
import os
import random
import secrets
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CLK_TCK = os.sysconf("SC_CLK_TCK")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40, help="games played in turn (40)")
    parser.add_argument("--moves", type=int, default=1500, help="moves per round (1500)")
    parser.add_argument("--rounds", type=int, default=4, help="measured rounds (4)")
    parser.add_argument(
        "--compare-prepare",
        action="store_true",
        help="alternate rounds with and without prepared statements",
    )
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")) or not redis_url:
        print("move_path.py needs DATABASE_URL (PostgreSQL) and REDIS_URL", file=sys.stderr)
        return 2
    import psycopg

    name = f"ttr_movepath_{secrets.token_hex(4)}"
    admin = psycopg.connect(_with_database(database_url, "postgres"), autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    own_url = _with_database(database_url, name)
    os.environ.update(
        DATABASE_URL=own_url,
        REDIS_PREFIX=name,
        DJANGO_SETTINGS_MODULE="ttr_site.settings",
        DEBUG="false",  # as deployed; and no query log
        SECRET_KEY="benchmark-only-not-a-secret-" + "x" * 30,
        ALLOWED_HOSTS="localhost",
    )
    try:
        return Bench(args, own_url).run()
    finally:
        from django.db import connections

        connections.close_all()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        _delete_redis_keys(redis_url, name)


def _with_database(url: str, name: str) -> str:
    return urlunparse(urlparse(url)._replace(path=f"/{name}"))


def _delete_redis_keys(redis_url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"*{prefix}*", count=1000):
        client.delete(key)


class Bench:
    def __init__(self, args, database_url: str):
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        self.args = args
        self.database_url = database_url
        self.choose_seconds = 0.0
        self.replaced = [0.0, 0.0]  # servers' CPU spent replacing finished games' tables

    def run(self) -> int:
        import psycopg
        import redis
        from django.conf import settings
        from django.db import connection

        from games import bot_turns
        from games.engine import bots
        from games.services import moves

        bot_turns.schedule = lambda *args, **kwargs: True  # the web loop's timer: not measured
        timed_choice = moves.choose_action

        def choose(*args, **kwargs):
            started = time.process_time()
            try:
                return timed_choice(*args, **kwargs)
            finally:
                self.choose_seconds += time.process_time() - started

        moves.choose_action = choose
        self.reader = psycopg.connect(self.database_url, autocommit=True)  # the script's reads
        self.redis = redis.Redis.from_url(os.environ["REDIS_URL"])
        self.choose_action = bots.choose_action
        self.rng = random.Random(1)
        self.games = [self._new_table(i) for i in range(self.args.tables)]
        prepared = settings.DATABASES["default"]["OPTIONS"].get("prepare_threshold")
        ways = [("prepared", prepared)]
        if self.args.compare_prepare:
            ways.append(("not prepared", None))
        self._play(self.args.moves)  # warm-up: caches, prepared plans
        results: dict[str, list[dict]] = {label: [] for label, _ in ways}
        for index in range(self.args.rounds * len(ways)):
            label, threshold = ways[index % len(ways)]
            connection.close()
            connection.settings_dict["OPTIONS"]["prepare_threshold"] = threshold
            self._play(50)  # connect; with prepared ones, prepare them
            results[label].append(self._measure(self.args.moves))
        self._report(results)
        return 0

    # --- tables and moves --------------------------------------------------------------------

    def _new_table(self, index: int):
        from games import services
        from ttr_site.accounts.models import User

        tag = secrets.token_hex(3)
        players = [
            User.objects.create(username=f"mp{index}-{tag}-{n}", email=f"mp{index}{tag}{n}@x.org")
            for n in range(2)
        ]
        table = services.table_create(owner=players[0], seat_count=4, move_seconds=600)
        services.table_join(table_id=table.pk, user=players[1])
        for _ in range(2):
            services.table_add_bot(table_id=table.pk, by=players[0], level="medium")
        return {"table": table.pk, "game": table.game.pk, "players": dict(enumerate(players))}

    def _next_move(self, game):
        """The script's part (not measured): what to play at this game's version, or ``None``
        if the game is over."""
        from games import engine

        row = self.reader.execute(
            "SELECT state, version FROM games_game WHERE id = %s", [game["game"]]
        ).fetchone()
        state = engine.from_json(row[0])
        if engine.is_terminal(state):
            return None
        seat = engine.current_seats(state)[0]
        seats = self.reader.execute(
            "SELECT position, user_id FROM games_seat WHERE table_id = %s", [game["table"]]
        ).fetchall()
        user_id = dict(seats)[seat]
        if user_id is None:
            return ("bot", row[1], None, None)
        legal = engine.legal_actions(state, seat)
        view = engine.view_for(state, seat)
        action = self.choose_action("medium", view, legal, seed=self.rng.randrange(1 << 30))
        user = next(u for u in game["players"].values() if u.pk == user_id)
        return ("player", row[1], user, action)

    def _play(self, count: int) -> float:
        """Play ``count`` moves round the tables; return the CPU seconds of the moves alone."""
        from django.db import close_old_connections

        from games.consumers import _submit_limited
        from games.services import game_bot_move

        spent, played, turn = 0.0, 0, 0
        while played < count:
            slot = turn % len(self.games)
            turn += 1
            game = self.games[slot]
            move = self._next_move(game)
            if move is None:
                # A finished game's table is replaced; what that costs the database and
                # Redis is not a move's, so it is taken out of the round's figures.
                servers = self._servers_cpu()
                self.games[slot] = self._new_table(slot)
                after = self._servers_cpu()
                spent_here = zip(self.replaced, servers, after, strict=True)
                self.replaced = [so_far + b - a for so_far, a, b in spent_here]
                continue
            kind, version, user, action = move
            started = time.process_time()
            close_old_connections()
            if kind == "bot":
                game_bot_move(game_id=game["game"], expected_version=version)
            else:
                _submit_limited(
                    game_id=game["game"], user=user, action=action, expected_version=version
                )
            close_old_connections()
            spent += time.process_time() - started
            played += 1
        return spent

    def _servers_cpu(self) -> tuple[float, float]:
        """CPU seconds so far of this connection's PostgreSQL process and of Redis."""
        from django.db import connection

        connection.ensure_connection()
        return _process_cpu(connection.connection.info.backend_pid), self._redis_cpu()

    def _measure(self, count: int) -> dict:
        before = self._servers_cpu()
        self.choose_seconds, self.replaced = 0.0, [0.0, 0.0]
        spent = self._play(count)
        after = self._servers_cpu()
        pg = after[0] - before[0] - self.replaced[0]
        redis_cpu = after[1] - before[1] - self.replaced[1]
        return {
            "web": spent / count * 1000,
            "choice": self.choose_seconds / count * 1000,
            "postgres": pg / count * 1000,
            "redis": redis_cpu / count * 1000,
        }

    def _redis_cpu(self) -> float:
        info = self.redis.info("cpu")
        return info["used_cpu_user"] + info["used_cpu_sys"]

    def _report(self, results: dict[str, list[dict]]) -> None:
        print(
            f"\nmove path, {self.args.tables} tables of 2 players + 2 medium bots, "
            f"{self.args.moves} moves a round, {self.args.rounds} round(s) each; "
            "CPU per move in ms, median of the rounds (all rounds in brackets)"
        )
        heads = ("web process", 24), ("of it the bot choice", 22), ("postgres", 24), ("redis", 8)
        print(f"{'':14} " + " ".join(f"{head:>{width}}" for head, width in heads))
        for label, rounds in results.items():
            cells = []
            for part in ("web", "choice", "postgres", "redis"):
                values = [r[part] for r in rounds]
                spread = "/".join(f"{v:.2f}" for v in values)
                cells.append(f"{statistics.median(values):.3f} ({spread})")
            print(f"{label:14} {cells[0]:>24} {cells[1]:>22} {cells[2]:>24} {cells[3]:>8}")


def _process_cpu(pid: int) -> float:
    from benchmarks.idle_sockets import cpu_ticks

    return cpu_ticks(pid) / CLK_TCK


if __name__ == "__main__":
    sys.exit(main())
