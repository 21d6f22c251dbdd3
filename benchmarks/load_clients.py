"""The load generator of ``benchmarks/load.py``: real WebSocket clients in asyncio processes.

Game run: each *slot* is one table kept busy for the whole run. Its first human opens a
table through the REST API with a personal token, the seats are filled (the other humans
join, the owner adds bots; the last seat starts the game), then every client of the slot
connects to ``/ws/table/<id>/?token=...``. A *scripted human* acts on its view frames: when
``legal`` is not empty it thinks for a uniform random time, picks an action from the newest
``legal`` it has, and sends it with that view's ``version``. A *spectator* only reads. When
the game is over the slot opens a fresh table (same users), so the number of live tables
stays constant.

An action sent at version ``v`` is *acknowledged* by the push frame of version ``v + 1`` whose
log entries carry the sender's seat (only the acting seat, or no seat, appears in a move's
entries). Its latency is the time from the send to that frame. Expected by the protocol and
not counted as errors: a ``stale_version`` answer to a choice made while several seats decide
at once (the set-up ticket choice), and a resync after frames of such simultaneous moves
arrive out of order. Everything else is an error: any other error frame, a stale version
where only the sender could move, a frame gap, a refused or dropped socket, a failed REST
call, an action unanswered for ``NO_ANSWER`` seconds.

Bare run: ``benchmarks/bare_asgi.py``. Each table has 4 sockets that take turns: on the
frame of move ``n`` the socket ``(n + 1) % 4`` sends move ``n + 1`` at once (no think time),
so every table has exactly one move in flight and the server runs flat out.
"""

import asyncio
import contextlib
import gc
import json
import random
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import orjson
import websockets

SIMULTANEOUS = {"setup", "depots"}  # phases where several seats decide at once
NO_ANSWER = 15.0  # seconds an action may wait for its answer before it counts as an error
OPENING = 8  # tables a load process opens at a time (REST calls and socket handshakes)
CONNECT = {"open_timeout": 60, "close_timeout": 2, "max_size": 2**23, "ping_interval": None}


@dataclass
class Plan:
    """What one load process does (picklable: handed to a ``multiprocessing`` child)."""

    base_url: str
    slots: list  # [(slot, [secret, ...])]: humans first, then spectators
    seats: int = 4
    humans: int = 2
    bot_level: str = "medium"
    move_seconds: int = 20
    think: tuple = (0.3, 1.0)
    seed: int = 1


@dataclass
class Tally:
    """What one load process saw. Counts inside the window, except ``errors``, ``notes``,
    ``acked_moves`` and the table counts (whole run)."""

    sent: int = 0
    acked: int = 0
    latencies: list = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    notes: Counter = field(default_factory=Counter)
    frames: int = 0
    acked_moves: list = field(default_factory=list)  # [table_id, version, seat, action]
    tables: list = field(default_factory=list)
    finished: int = 0
    connected: int = 0
    lags: list = field(default_factory=list)  # the process's own event-loop lag, seconds
    by_kind: dict = field(default_factory=dict)  # an action's type -> its latencies
    gc_pauses: list = field(default_factory=list)  # [generation, seconds] in the window
    # each lagged tick's causes: [its seconds, the loop thread running, the loop thread
    # runnable but waiting for a CPU, the process's other threads running] (``watch_lag``)
    lagged: list = field(default_factory=list)


class GcWatch:
    """The cyclic collector's pauses in this process inside the window (``gc.callbacks``):
    while it walks the heap the event loop waits, and so does every frame that arrives."""

    def __init__(self, tally: Tally, window: "Window"):
        self.tally, self.window, self.started = tally, window, 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        elif self.window.inside(time.time()):
            self.tally.gc_pauses.append([info["generation"], time.perf_counter() - self.started])


LAG_TICK = 0.01  # seconds between the loop-lag probe's wake-ups
LAGGED = 0.02  # a tick this much late has its causes kept (``Tally.lagged``)


def loop_thread_times() -> tuple[float, float, float]:
    """(the calling thread's seconds running, its seconds runnable but waiting for a CPU, the
    process's CPU seconds): Linux's scheduler statistics of the thread, which tell a loop
    busy with its own work from one starved of a CPU. Zeros where the kernel has none."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as stats:
            running, waiting = stats.read().split()[:2]
    except (OSError, ValueError):
        return 0.0, 0.0, time.process_time()
    return int(running) / 1e9, int(waiting) / 1e9, time.process_time()


async def watch_lag(tally: Tally, window: "Window") -> None:
    """Sample how late this process's event loop wakes a task: a frame that reached the
    socket waits that long before the client reads it. Remote clients would not add it, so it
    says how much of a latency is the load generator's own share of the machine. A tick late
    by ``LAGGED`` or more also keeps where its time went (``Tally.lagged``): the loop's own
    callbacks, a wait for a CPU (the machine oversubscribed), or the process's other threads
    (the REST calls' pool holding the interpreter)."""
    while not window.over():
        asked, before = time.monotonic(), loop_thread_times()
        await asyncio.sleep(LAG_TICK)
        woke, after = time.monotonic(), loop_thread_times()
        if window.inside(time.time()):
            lag = woke - asked - LAG_TICK
            tally.lags.append(lag)
            if lag >= LAGGED:
                running, waiting, process = (a - b for a, b in zip(after, before, strict=True))
                tally.lagged.append([woke - asked, running, waiting, max(0.0, process - running)])


class Window:
    """The measured window, shared with the parent process (wall clock; inf until set)."""

    def __init__(self, shared):
        self.shared = shared

    def inside(self, now: float) -> bool:
        return self.shared[0] <= now < self.shared[1]

    def over(self) -> bool:
        return time.time() >= self.shared[1]


def human_positions(seats: int, humans: int) -> list[int]:
    """Humans spread around the table, never in the last seat (a bot's, filled last): 4
    seats and 2 humans put them at 0 and 2, bots at 1 and 3."""
    return [int(i * (seats - 1) / humans + 0.5) for i in range(humans)]


def choose(legal: list, rng: random.Random) -> dict:
    """A scripted human's pick: a required choice, else usually a route, else cards."""
    kinds: dict[str, list] = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    for kind in ("keep_tickets", "place_depot", "pay_tunnel"):
        if kind in kinds:
            return rng.choice(kinds[kind])
    if "claim_route" in kinds and rng.random() < 0.6:
        return rng.choice(kinds["claim_route"])
    if "draw_card" in kinds:
        return rng.choice(kinds["draw_card"])
    return rng.choice(legal)


def _rest(base: str, secret: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        f"{base}/api/v1{path}", data=json.dumps(body).encode(), method="POST"
    )
    request.add_header("Authorization", f"Bearer {secret}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"{}")


@dataclass
class Pending:
    version: int
    sent_at: float
    action: dict
    counted: bool
    phase: str


class TableClient:
    """One socket at a table: a scripted human (``human``) or a spectator."""

    def __init__(self, ws, table_id, plan, tally, window, rng, human):
        self.ws, self.table_id, self.plan, self.tally = ws, table_id, plan, tally
        self.window, self.rng, self.human = window, rng, human
        self.version = self.seat = self.view = None
        self.legal: list = []
        self.pending: Pending | None = None
        self.changed = asyncio.Event()
        self.greeted = asyncio.Event()  # the server's first frame (the table summary) came
        self.over = False

    async def run(self) -> None:
        actor = asyncio.create_task(self._act()) if self.human else None
        try:
            async for raw in self.ws:
                message = orjson.loads(raw)
                self.greeted.set()
                if message["type"] == "view":
                    await self._on_view(message)
                elif message["type"] == "error":
                    self._on_error(message)
                if self.over:
                    return
        except websockets.ConnectionClosed:
            pass
        finally:
            if actor is not None:
                actor.cancel()
        if not self.window.over():
            self.tally.errors["socket_closed"] += 1

    async def _on_view(self, frame: dict) -> None:
        now, version, push = time.monotonic(), frame["version"], frame["log_start"] > 0
        self.tally.frames += self.window.inside(time.time())
        if not push and self.version is not None:
            self.tally.notes["full_sync_frame"] += 1
        pending = self.pending
        if (
            pending is not None
            and push
            and version == pending.version + 1
            and any(entry.get("seat") == frame["seat"] for entry in frame["log"])
        ):
            self._acknowledge(pending, now, version)
        if self.version is not None and push and version <= self.version:
            self.tally.notes["push_older_than_view"] += 1  # already in a sync frame
            return
        if self.version is not None and push and version > self.version + 1:
            self._count_gap(frame)
            await self.ws.send('{"type":"sync"}')
            return
        self.version, self.seat = version, frame["seat"]
        self.view, self.legal = frame["view"], frame["legal"]
        self.over = self.view["phase"] == "over"
        self.changed.set()

    def _acknowledge(self, pending: Pending, now: float, version: int) -> None:
        if pending.counted:
            self.tally.acked += 1
            self.tally.latencies.append(now - pending.sent_at)
            kind = pending.action.get("type", "?")
            self.tally.by_kind.setdefault(kind, []).append(now - pending.sent_at)
        self.tally.acked_moves.append([self.table_id, version, self.seat, pending.action])
        self.pending = None

    def _count_gap(self, frame: dict) -> None:
        if self.view is not None and self.view["phase"] in SIMULTANEOUS:
            self.tally.notes["resync_simultaneous"] += 1
        else:
            self.tally.errors["frame_gap"] += 1

    def _on_error(self, frame: dict) -> None:
        code, pending = frame["code"], self.pending
        if code == "stale_version" and pending is not None and pending.phase in SIMULTANEOUS:
            self.tally.notes["stale_simultaneous"] += 1
        else:
            self.tally.errors[code] += 1
        self.pending = None  # a stale answer is followed by a fresh sync frame
        self.changed.set()

    async def _act(self) -> None:
        # the run ended (or the socket dropped: ``run`` counts that) while it thought
        with contextlib.suppress(websockets.ConnectionClosed):
            await self._think_and_send()

    async def _think_and_send(self) -> None:
        lo, hi = self.plan.think
        while not self.over:
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=1.0)
            except TimeoutError:
                await self._check_answer()
                continue
            self.changed.clear()
            if self.pending is not None or not self.legal:
                continue
            await asyncio.sleep(self.rng.uniform(lo, hi))
            if self.pending is not None or not self.legal or self.over:
                continue  # acts on the newest view it has after thinking
            await self._send(choose(self.legal, self.rng))

    async def _send(self, action: dict) -> None:
        counted = self.window.inside(time.time())
        self.tally.sent += counted
        self.pending = Pending(self.version, time.monotonic(), action, counted, self.view["phase"])
        message = {"type": "action", "action": action, "version": self.version}
        await self.ws.send(json.dumps(message, separators=(",", ":")))

    async def _check_answer(self) -> None:
        pending = self.pending
        if pending is not None and time.monotonic() - pending.sent_at > NO_ANSWER:
            self.tally.errors["no_answer"] += 1
            self.pending = None
            await self.ws.send('{"type":"sync"}')


def _connect(uri: str):
    return websockets.connect(uri, **CONNECT)


async def play_table(plan: Plan, secrets, tally, window, rng, ready, opening) -> bool:
    """Open a table as users do (REST, tokens): the owner creates it, the other humans join,
    the owner adds bots. Every socket connects before the last seat (a bot's) is filled, so
    the game's first frame reaches everyone at once. At most ``OPENING`` tables of a load
    process are being opened at a time (players arrive over a few seconds, not all in the
    same instant). Play until the game is over (True) or the run ends (False)."""
    sockets: list = []
    try:
        async with opening:
            table_id = await _open(plan, secrets, tally)
            ws_base = plan.base_url.replace("http", "ws", 1)
            uris = [f"{ws_base}/ws/table/{table_id}/?token={secret}" for secret in secrets]
            results = await asyncio.gather(*map(_connect, uris), return_exceptions=True)
            sockets = [ws for ws in results if not isinstance(ws, BaseException)]
            tally.errors["refused_socket"] += len(results) - len(sockets)
            tally.connected += len(sockets)
            if len(sockets) < len(results):
                return False
            clients = [
                TableClient(ws, table_id, plan, tally, window, rng, human=i < plan.humans)
                for i, ws in enumerate(sockets)
            ]
            runs = [asyncio.create_task(client.run()) for client in clients]
            await asyncio.gather(*(client.greeted.wait() for client in clients))
            humans = human_positions(plan.seats, plan.humans)
            await _seat(plan, secrets, table_id, plan.seats - 1, humans)  # the game starts
        ready()
        await asyncio.gather(*runs)
        return all(client.over for client in clients)
    finally:
        tally.connected -= len(sockets)
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


async def _open(plan: Plan, secrets: list[str], tally) -> int:
    """Create the table and fill every seat but the last; its id."""
    humans = human_positions(plan.seats, plan.humans)
    body = {"seat_count": plan.seats, "move_seconds": plan.move_seconds}
    table_id = (await _post(plan, secrets[0], "/tables/", body))["id"]
    tally.tables.append(table_id)
    for position in range(1, plan.seats - 1):
        await _seat(plan, secrets, table_id, position, humans)
    return table_id


async def _post(plan: Plan, secret: str, path: str, body: dict) -> dict:
    return await asyncio.to_thread(_rest, plan.base_url, secret, path, body)


async def _seat(plan: Plan, secrets: list[str], table_id: int, position: int, humans) -> None:
    """Fill ``position``: its human joins, or the owner adds a bot."""
    if position in humans:
        await _post(plan, secrets[humans.index(position)], f"/tables/{table_id}/join/", {})
    else:
        level = {"level": plan.bot_level}
        await _post(plan, secrets[0], f"/tables/{table_id}/bots/", level)


async def run_slot(plan: Plan, slot: int, secrets, tally, window, ready, opening) -> None:
    """Keep one table playing: a finished game is replaced by a fresh table at once."""
    rng = random.Random(plan.seed * 1_000_003 + slot)
    first = [True]

    def started() -> None:
        if first[0]:
            ready.append(slot)
            first[0] = False

    while not window.over():
        try:
            if await play_table(plan, secrets, tally, window, rng, started, opening):
                tally.finished += 1
        except (OSError, urllib.error.URLError, KeyError, ValueError) as exc:
            tally.errors[f"open_table_{getattr(exc, 'code', type(exc).__name__)}"] += 1
            await asyncio.sleep(1)


async def run_game_shard(plan: Plan, shared_window, report_ready) -> Tally:
    """Run the slots of ``plan`` until the window is over; report readiness once every
    slot has its first table."""
    tally, window, ready = Tally(), Window(shared_window), []
    gc.callbacks.append(GcWatch(tally, window))
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(32))  # REST calls
    opening = asyncio.Semaphore(OPENING)
    tasks = [
        asyncio.create_task(run_slot(plan, slot, secrets, tally, window, ready, opening))
        for slot, secrets in plan.slots
    ]
    while len(ready) < len(tasks) or tally.connected < len(tasks) * len(plan.slots[0][1]):
        await asyncio.sleep(0.2)
        if any(task.done() for task in tasks):
            break
    report_ready()
    await watch_lag(tally, window)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally


# --- the bare broadcast ------------------------------------------------------------------------


async def bare_table(base_url: str, table: int, tally: Tally, window: Window) -> None:
    uri = f"{base_url.replace('http', 'ws', 1)}/ws/bare/{table}/"
    results = await asyncio.gather(
        *(websockets.connect(uri, **CONNECT) for _ in range(4)), return_exceptions=True
    )
    sockets = [ws for ws in results if not isinstance(ws, BaseException)]
    tally.errors["refused_socket"] += len(results) - len(sockets)
    tally.connected += len(sockets)
    if len(sockets) < 4:
        return
    sent: dict[int, tuple[float, bool]] = {}

    async def move(seq: int) -> None:
        sent[seq] = (time.monotonic(), window.inside(time.time()))
        tally.sent += sent[seq][1]
        await sockets[seq % 4].send(f'{{"seq":{seq}}}')

    async def reader(index: int, ws) -> None:
        async for raw in ws:
            seq = orjson.loads(raw)["version"]
            tally.frames += window.inside(time.time())
            if seq % 4 == index:
                started, counted = sent.pop(seq)
                if counted:
                    tally.acked += 1
                    tally.latencies.append(time.monotonic() - started)
            if (seq + 1) % 4 == index and not window.over():
                await move(seq + 1)

    readers = [asyncio.create_task(reader(i, ws)) for i, ws in enumerate(sockets)]
    try:
        await move(0)
        while not window.over():
            await asyncio.sleep(0.5)
            oldest = min((t for t, _ in sent.values()), default=time.monotonic())
            if time.monotonic() - oldest > NO_ANSWER:
                tally.errors["no_answer"] += 1
                sent.clear()
                await move(0)
    except websockets.ConnectionClosed:
        tally.errors["socket_closed"] += 1
    finally:
        for task in readers:
            task.cancel()
        tally.connected -= len(sockets)
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


async def run_bare_shard(base_url: str, tables: list[int], shared_window, report_ready) -> Tally:
    tally, window = Tally(), Window(shared_window)
    gc.callbacks.append(GcWatch(tally, window))
    tasks = [asyncio.create_task(bare_table(base_url, t, tally, window)) for t in tables]
    while tally.connected < 4 * len(tables) and not any(task.done() for task in tasks):
        await asyncio.sleep(0.1)
    report_ready()
    await asyncio.gather(watch_lag(tally, window), *tasks, return_exceptions=True)
    return tally
