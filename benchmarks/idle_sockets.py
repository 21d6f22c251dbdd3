"""Idle sockets: what 10,000 open table sockets cost one web process, and whether it still
answers while holding them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/3 \\
        .venv/bin/python benchmarks/idle_sockets.py [--sockets 10000] [--per-table 20]

It starts what ``benchmarks/load.py`` starts (its own database ``ttr_load_<random>``, dropped at
the end, and its own Redis prefix, deleted at the end), but one uvicorn web process of the
production settings and no Celery. ``--sockets / --per-table`` tables are opened through the
REST API with four signed-in players each (turn-based clocks, so nothing times out; the games
wait in their set-up, every seat to keep tickets). Then ``--client-processes`` processes open
the sockets at ``/ws/table/<id>/?token=...``: every player one at their own table (a seat's
view), and spectators (other players, 4 sockets each at other tables) for the rest, each a
full connect as a browser makes it (token, quota lease, access, two groups, the table summary,
the chat, a full view frame, presence). Every client reads whatever it is sent.

Measured: the web process's resident memory (RSS and the private part, from
``/proc/<pid>/smaps_rollup``) after a warm-up of a few sockets, with every socket open, and
after they are closed, hence the memory per socket; the time to open them; the web process's
CPU while they sit idle; and, before and while holding them, the answer to ``ping`` frames
and a move's push: a player keeps tickets and the time to their own push of the new version
and to a spectator's at the same table is taken.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import secrets
import statistics
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402
import websockets  # noqa: E402

from benchmarks.load import SEED_USERS, Stack, _json, machine_speed  # noqa: E402

CONNECT = {"open_timeout": 300, "close_timeout": 5, "max_size": 2**23, "ping_interval": None}
CLK_TCK = os.sysconf("SC_CLK_TCK")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--sockets", type=int, default=10_000, help="sockets held open (default 10,000)")
    add("--per-table", type=int, default=20, help="sockets per table (default 20)")
    add("--client-processes", type=int, default=4, help="client processes (default 4)")
    add("--connecting", type=int, default=64, help="handshakes in flight per client process")
    add("--idle", type=float, default=20, help="seconds to hold every socket idle (default 20)")
    add("--probes", type=int, default=10, help="moves and pings timed each time (default 10)")
    add("--ws", default="auto", help="uvicorn's WebSocket implementation (auto, as deployed)")
    add("--keep-logs", action="store_true", help="keep the server's log (its path is printed)")
    args = parser.parse_args()
    if args.per_table < 5 or args.sockets < 5 * (args.sockets // args.per_table):
        parser.error("--per-table: at least 5 (4 players and a spectator)")
    return args


def main() -> int:
    args = parse_args()
    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")) or not redis_url:
        print("benchmarks/idle_sockets.py needs DATABASE_URL (PostgreSQL) and REDIS_URL")
        return 2
    stack_args = SimpleNamespace(
        web_workers=1,
        ws_compression=False,
        ws=args.ws,
        bot_delay=0.8,
        bot_nice=10,
        keep_logs=args.keep_logs,
    )
    stack = Stack(stack_args, database_url, redis_url)
    speed = [machine_speed()]
    try:
        stack.create_database()
        result = run(args, stack)
    finally:
        stack.destroy()
    if args.keep_logs:
        print(f"server log: {stack.workdir / 'web.log'}")
    speed.append(machine_speed())
    report(args, result, speed)
    failed = result["probe_before"]["failed"] + result["probe_held"]["failed"]
    return 0 if result["held"] == args.sockets and not result["errors"] and not failed else 1


def run(args, stack: Stack) -> dict:
    tables = args.sockets // args.per_table
    users = 4 * tables
    seed = SEED_USERS.format(count=users, salt=secrets.token_hex(8))
    tokens = _json(stack.manage("shell", "--no-imports", "-c", seed))
    stack.start_web()
    stack.wait_until_up("/api/v1/boards/europe/", worker=False)
    pid = stack.processes["web"].pid  # one worker: uvicorn serves in its main process
    started = time.monotonic()
    table_ids = open_tables(stack.url, tokens, tables)
    print(f"{tables} tables open in {time.monotonic() - started:.0f}s", flush=True)
    ws = stack.url.replace("http", "ws", 1)
    uris = socket_uris(ws, tokens, table_ids, args.sockets)
    result = {"tables": tables, "users": users, "errors": 0}
    # Warm-up: a few sockets of every kind through every path, then closed.
    asyncio.run(warm_up(uris[:: max(1, len(uris) // 50)]))
    time.sleep(2)
    result["before"] = memory(pid)
    print(f"after warm-up: {_memory_line(result['before'])}", flush=True)
    probed = list(enumerate(table_ids))
    result["probe_before"] = asyncio.run(probe(ws, tokens, probed[: args.probes]))
    context = multiprocessing.get_context("fork")
    queue, stop = context.Queue(), context.Event()
    shares = [uris[k :: args.client_processes] for k in range(args.client_processes)]
    asks = [context.Event() for _ in shares]  # "how many of your sockets are still open?"
    processes = [
        context.Process(target=_client_process, args=(share, args.connecting, queue, stop, ask))
        for share, ask in zip(shares, asks, strict=True)
    ]
    started = time.monotonic()
    for process in processes:
        process.start()
    try:
        opened = [queue.get(timeout=1800) for _ in processes]
        result["connect_s"] = time.monotonic() - started
        result["held"] = sum(n for n, _ in opened)
        result["errors"] += sum(e for _, e in opened)
        print(
            f"{result['held']} sockets open in {result['connect_s']:.0f}s "
            f"({result['errors']} refused); holding them idle {args.idle:.0f}s",
            flush=True,
        )
        time.sleep(2)  # the last handshakes' work done
        cpu0, t0 = cpu_ticks(pid), time.monotonic()
        time.sleep(args.idle)
        result["idle_cpu"] = 100 * (cpu_ticks(pid) - cpu0) / CLK_TCK / (time.monotonic() - t0)
        result["held_memory"] = memory(pid)
        print(f"holding them: {_memory_line(result['held_memory'])}", flush=True)
        result["probe_held"] = asyncio.run(probe(ws, tokens, probed[args.probes : 2 * args.probes]))
        for ask in asks:
            ask.set()
        result["still_open"] = sum(queue.get(timeout=60) for _ in asks)
    finally:
        stop.set()
        for process in processes:
            process.join(timeout=120)
            if process.is_alive():
                process.kill()
    time.sleep(3)
    result["after"] = memory(pid)
    return result


def open_tables(base: str, tokens: list[str], count: int) -> list[int]:
    """Tables of 4 signed-in players (users 4t .. 4t+3), the last join starting the game."""

    def one(t: int) -> int:
        owner, *others = tokens[4 * t : 4 * t + 4]
        body = {"seat_count": 4, "time_control": "turn_based", "turn_hours": 72}
        table_id = _post(base, owner, "/tables/", body)["id"]
        for token in others:
            _post(base, token, f"/tables/{table_id}/join/", {})
        return table_id

    first = one(0)  # alone: the process's first job queued (notify_turn) loads the tasks
    with ThreadPoolExecutor(8) as pool:
        return [first, *pool.map(one, range(1, count))]


def _post(base: str, token: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        f"{base}/api/v1{path}", data=json.dumps(body).encode(), method="POST"
    )
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read() or b"{}")


def socket_uris(ws: str, tokens: list[str], table_ids: list[int], count: int) -> list[str]:
    """Every player at their own table, then spectators: user ``u`` watches the tables after
    their own, one socket each, until there are ``count``."""
    tables, users = len(table_ids), len(tokens)
    uris = [f"{ws}/ws/table/{table_ids[u // 4]}/?token={tokens[u]}" for u in range(users)]
    j = 0
    while len(uris) < count:
        u, k = j % users, 1 + j // users
        uris.append(f"{ws}/ws/table/{table_ids[(u // 4 + k) % tables]}/?token={tokens[u]}")
        j += 1
    return uris[:count]


async def warm_up(uris: list[str]) -> None:
    sockets = await asyncio.gather(*(websockets.connect(u, **CONNECT) for u in uris))
    await asyncio.sleep(1)
    await asyncio.gather(*(s.close() for s in sockets))


async def probe(ws: str, tokens: list[str], tables: list[tuple[int, int]]) -> dict:
    """Pings and moves, one at a time: a player's ``ping`` answered, and a player keeping
    tickets, timed to their own push of the new version and to a spectator's."""
    pings, own, watched, failed = [], [], [], 0
    for index, t in tables:
        try:
            timed = await _probe_table(ws, tokens, index, t)
        except (OSError, RuntimeError, TimeoutError, websockets.WebSocketException) as exc:
            print(f"probe at table {t} failed: {exc!r}", flush=True)
            failed += 1
            continue
        pings.append(timed[0])
        own.append(timed[1])
        watched.append(timed[2])
    return {"ping": pings, "own": own, "spectator": watched, "failed": failed}


async def _probe_table(ws: str, tokens: list[str], index: int, t: int) -> tuple:
    """(ping answered, the mover's push, a spectator's push), seconds, at table ``t``."""
    player_uri = f"{ws}/ws/table/{t}/?token={tokens[4 * index + 1]}"
    watcher_uri = f"{ws}/ws/table/{t}/?token={tokens[(4 * index + 5) % len(tokens)]}"
    async with (
        websockets.connect(player_uri, **CONNECT) as player,
        websockets.connect(watcher_uri, **CONNECT) as watcher,
    ):
        view = await _next_view(player)
        await _next_view(watcher)
        sent = time.perf_counter()
        await player.send('{"type":"ping"}')
        while orjson.loads(await player.recv())["type"] != "pong":
            pass
        ping = time.perf_counter() - sent
        action = next(a for a in view["legal"] if a["type"] == "keep_tickets")
        frame = {"type": "action", "action": action, "version": view["version"]}
        sent = time.perf_counter()
        await player.send(json.dumps(frame))
        waits = [_next_view(player, view["version"] + 1), _next_view(watcher)]
        own_at, watched_at = await asyncio.gather(*(_timed(w) for w in waits))
        return ping, own_at - sent, watched_at - sent


async def _next_view(ws, version: int | None = None) -> dict:
    while True:
        frame = orjson.loads(await asyncio.wait_for(ws.recv(), timeout=60))
        if frame["type"] == "error":
            raise RuntimeError(f"error frame: {frame}")
        if frame["type"] == "view" and (version is None or frame["version"] >= version):
            return frame


async def _timed(waiting) -> float:
    await waiting
    return time.perf_counter()


# --- the client processes ----------------------------------------------------------------------


def _client_process(uris: list[str], connecting: int, queue, stop, ask) -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(_hold(uris, connecting, queue, stop, ask))


async def _hold(uris: list[str], connecting: int, queue, stop, ask) -> None:
    gate = asyncio.Semaphore(connecting)
    alive = [0]

    async def one(uri: str):
        async with gate:
            try:
                ws = await websockets.connect(uri, **CONNECT)
            except (OSError, websockets.WebSocketException, TimeoutError):
                return None
        alive[0] += 1
        asyncio.create_task(_drain(ws, alive))
        return ws

    sockets = await asyncio.gather(*(one(u) for u in uris))
    held = [ws for ws in sockets if ws is not None]
    queue.put((len(held), len(uris) - len(held)))
    loop = asyncio.get_running_loop()
    while not await loop.run_in_executor(None, stop.wait, 0.5):
        if ask.is_set():
            ask.clear()
            queue.put(alive[0])
    await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)


async def _drain(ws, alive) -> None:
    try:
        async for _ in ws:
            pass
    except websockets.WebSocketException:
        pass
    alive[0] -= 1


# --- measuring ---------------------------------------------------------------------------------


def memory(pid: int) -> dict:
    """Resident and private memory of a process, MiB, and its open file descriptors."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value, *_ = line.split()
        fields[name.rstrip(":")] = int(value) / 1024
    private = fields["Private_Clean"] + fields["Private_Dirty"]
    return {"rss": fields["Rss"], "private": private, "fds": len(os.listdir(f"/proc/{pid}/fd"))}


def _memory_line(m: dict) -> str:
    return f"RSS {m['rss']:.1f} MiB, private {m['private']:.1f} MiB, {m['fds']} open files"


def cpu_ticks(pid: int) -> int:
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw[raw.rindex(")") + 2 :].split()
    return int(fields[11]) + int(fields[12])


def report(args, r: dict, speed: list[float]) -> None:
    held = r["held"]
    print()
    print(
        f"ttr idle sockets: one uvicorn web process (production settings), {r['tables']} "
        f"tables of 4 signed-in players, {held} of {args.sockets} sockets held "
        f"({r['users']} players' own seats, the rest spectators) from {args.client_processes} "
        f"client processes"
    )
    print(f"machine speed (fixed loop, ms): {speed[0]:.0f} before, {speed[1]:.0f} after")
    print()
    print(f"{'web process memory, MiB':34} {'RSS':>10} {'private':>10}")
    rows = [
        ("after warm-up", r["before"]),
        ("with every socket open", r["held_memory"]),
        ("after they closed", r["after"]),
    ]
    for label, m in rows:
        print(f"{label:34} {m['rss']:>10.1f} {m['private']:>10.1f}")
    if held:
        per = {k: 1024 * (r["held_memory"][k] - r["before"][k]) / held for k in ("rss", "private")}
        print(f"{'per open socket, KiB':34} {per['rss']:>10.1f} {per['private']:>10.1f}")
    fds = [r[k]["fds"] for k in ("before", "held_memory", "after")]
    print(f"open files of the web process: {fds[0]} / {fds[1]} / {fds[2]} (same three moments)")
    print()
    print(
        f"opened in {r['connect_s']:.0f} s ({held / r['connect_s']:.0f} sockets/s); refused "
        f"or failed {r['errors']}; still open after the idle wait and probes {r['still_open']}"
    )
    print(f"web process CPU while they sat idle: {r['idle_cpu']:.1f}% of a core")
    print()
    print(f"{'answers, ms (p50 / max)':34} {'before':>16} {'holding':>16}")
    for label, key in (
        ("ping -> pong", "ping"),
        ("move -> the mover's push", "own"),
        ("move -> a spectator's push", "spectator"),
    ):
        cells = [_p50_max(r[p][key]) for p in ("probe_before", "probe_held")]
        print(f"{label:34} {cells[0]:>16} {cells[1]:>16}")
    failed = [str(r[p]["failed"]) for p in ("probe_before", "probe_held")]
    print(f"{'probes failed':34} {failed[0]:>16} {failed[1]:>16}")


def _p50_max(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{1000 * statistics.median(values):.1f} / {1000 * max(values):.1f}"


if __name__ == "__main__":
    sys.exit(main())
