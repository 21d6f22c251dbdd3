"""The socket path of a view push, in one process: the channel layer's per-socket dispatch
against the per-process fan-out (``ttr_site/fanout.py``), with the real Redis.

    REDIS_URL=redis://127.0.0.1:6379/9 .venv/bin/python benchmarks/push_path.py \\
        [--sockets 400] [--pushes 2000] [--rounds 3]

Real ``TableConsumer`` objects (no browser: their ASGI send only counts), four to a table as
in ``benchmarks/load.py``, every push a ~2 KB view addressed to one table's group and
published by ``ttr_site.layer.group_send_all`` from a thread, in batches of 50, as moves
publish theirs. Measured: the process's CPU time (publishing included) per push delivered to
a socket, and the wall time until every socket had every push. The two ways alternate.
"""

import argparse
import asyncio
import os
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_site.settings")
os.environ.setdefault("DEBUG", "false")  # as deployed; and no query log
os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret-" + "x" * 30)

import django  # noqa: E402

django.setup()

from channels.layers import get_channel_layer  # noqa: E402
from channels.utils import await_many_dispatch  # noqa: E402
from django.conf import settings  # noqa: E402

from games.consumers import TableConsumer  # noqa: E402
from ttr_site import fanout, layer  # noqa: E402

TEXT = "x" * 2000
PER_TABLE = 4


class Counted(TableConsumer):
    """A table socket whose client is a counter."""

    delivered = 0
    done: asyncio.Future | None = None
    wanted = 0

    async def send(self, text_data=None, bytes_data=None, close=False):
        Counted.delivered += 1
        if Counted.delivered >= Counted.wanted and not Counted.done.done():
            Counted.done.set_result(None)


def _socket(user_id: int) -> Counted:
    socket = Counted()
    socket.scope = {"type": "websocket", "headers": [], "url_route": {"kwargs": {}}}
    socket.user = SimpleNamespace(pk=user_id, is_authenticated=True)
    socket.language = "en"
    socket.views_begin()
    socket.access_lock = asyncio.Lock()
    socket.groups_joined = []
    return socket


@contextmanager
def _through_channels():
    """Publish view pushes as ordinary channel-layer messages (as before the fan-out)."""
    kept = fanout.FANOUT_TYPES
    fanout.FANOUT_TYPES = frozenset()
    try:
        yield
    finally:
        fanout.FANOUT_TYPES = kept


async def _run(way: str, sockets: int, pushes: int) -> tuple[float, float]:
    channel_layer = get_channel_layer()
    tables = sockets // PER_TABLE
    members, loops = [], []
    for i in range(tables * PER_TABLE):
        group = f"bench-{os.getpid()}-{i // PER_TABLE}"
        socket = _socket(i)
        socket.channel_layer = channel_layer
        socket.channel_name = await channel_layer.new_channel()
        socket.view_joined = group
        if way == "channels":
            await channel_layer.group_add(group, socket.channel_name)

            async def idle():
                await asyncio.Future()

            receive = socket.channel_name

            async def from_layer(name=receive):
                return await channel_layer.receive(name)

            loops.append(
                asyncio.ensure_future(await_many_dispatch([idle, from_layer], socket.dispatch))
            )
        else:
            await fanout.join(group, socket)
        members.append((group, socket))
    Counted.delivered, Counted.wanted = 0, pushes * PER_TABLE
    Counted.done = asyncio.get_running_loop().create_future()
    prefix = f"bench-{os.getpid()}-"
    messages = [
        (f"{prefix}{k % tables}", {"type": "view.push", "version": k // tables, "text": TEXT})
        for k in range(pushes)
    ]
    await asyncio.sleep(0.3)
    loop = asyncio.get_running_loop()
    cpu, wall = time.process_time(), time.perf_counter()
    for start in range(0, pushes, 50):
        await loop.run_in_executor(None, layer.group_send_all, messages[start : start + 50])
    await asyncio.wait_for(Counted.done, 120)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    for task in loops:
        task.cancel()
    for group, socket in members:
        if way == "channels":
            await channel_layer.group_discard(group, socket.channel_name)
        else:
            await fanout.leave(group, socket)
    return cpu / Counted.delivered * 1e6, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=400)
    parser.add_argument("--pushes", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if settings.EMBEDDED:
        sys.exit("push_path.py needs Redis: set REDIS_URL")
    figures: dict[str, list[tuple[float, float]]] = {"channels": [], "fan-out": []}
    for _ in range(args.rounds):
        with _through_channels():
            figures["channels"].append(asyncio.run(_run("channels", args.sockets, args.pushes)))
        figures["fan-out"].append(asyncio.run(_run("fan-out", args.sockets, args.pushes)))
    print(f"{args.sockets} sockets, {args.pushes} pushes of 2 KB to tables of {PER_TABLE}, "
          f"{args.rounds} rounds (median)")  # fmt: skip
    print(f"{'way':<10} | {'CPU per push, us':>16} | {'wall, s':>7}")
    print(f"{'-' * 10}-|-{'-' * 16}-|-{'-' * 7}")
    for way, runs in figures.items():
        cpu = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        print(f"{way:<10} | {cpu:>16.1f} | {wall:>7.2f}")


if __name__ == "__main__":
    main()
