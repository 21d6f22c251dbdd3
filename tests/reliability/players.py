"""Scripted players for a live site: table sockets authenticated by personal API tokens.

A ``Player`` is what a robust client does: it reconnects with backoff whenever its socket
drops, takes the full frame it gets on (re)connecting, appends each pushed move whose
``log_start`` fits its log and asks for a ``sync`` when one does not (or when the socket has
been quiet too long), and answers each of its decisions with the easy bot's choice, sent
with the version of the view it was chosen from. It records everything the drills check:
every view frame in arrival order, every action sent, every action it saw applied.

To keep the ordering checks exact, a seat decides only when it is the lowest of the seats
deciding now (during the set-up every seat chooses its tickets at once; here they take
turns), so no two players race for one version.
"""

import asyncio
import collections
import json
import random
from dataclasses import dataclass, field

import websockets
from websockets.asyncio.client import connect

from games.engine.bots import choose_action
from tests.live import LiveSite

SETUP = """
import json
from games import services
from games.models import Game, Seat
from ttr_site.accounts.models import User
from ttr_site.accounts.services import api_token_create

def player(name):
    user = User.objects.create_user(name, name + "@example.com", "pw-long-enough-1")
    return user, api_token_create(user=user, name="drill")[1]

humans = [player(f"{tag}p{{i}}") for i in range({humans})]
watcher, watcher_token = player(f"{tag}w")
owner = humans[0][0]
table = services.table_create(owner=owner, seat_count={seats}, move_seconds={move_seconds})
for user, _ in humans[1:]:
    services.table_join(table_id=table.pk, user=user)
for _ in range({seats} - {humans}):
    services.table_add_bot(table_id=table.pk, by=owner, level="easy")
position = {{s.user_id: s.position for s in Seat.objects.filter(table=table)}}
print("SETUP", json.dumps({{
    "table": table.pk,
    "game": Game.objects.get(table=table).pk,
    "seats": {{position[u.pk]: token for u, token in humans}},
    "watcher": watcher_token,
}}))
"""


def open_game(site: LiveSite, *, tag: str, seats: int, humans: int, move_seconds: int = 90):
    """A started table: ``humans`` players with tokens (the rest easy bots) and a watcher
    with a token but no seat. Returns ``{"table", "game", "seats": {position: token},
    "watcher"}``."""
    code = SETUP.format(tag=tag, seats=seats, humans=humans, move_seconds=move_seconds)
    out = site.manage("shell", "--no-imports", "-c", code)
    setup = json.loads(out.split("SETUP", 1)[1])
    setup["seats"] = {int(k): v for k, v in setup["seats"].items()}
    return setup


@dataclass
class Player:
    """One client of one seat (``seat`` None: a watcher that only listens)."""

    url: str
    table_id: int
    token: str
    seat: int | None
    seed: int = 0
    quiet: float | None = 2.0  # seconds without a frame before asking for a sync
    version: int = -1
    log: list = field(default_factory=list)
    view: dict | None = None
    legal: list = field(default_factory=list)
    frames: list = field(default_factory=list)  # (connection, version, log_start) of views
    sent: list = field(default_factory=list)  # (version, action) of every action sent
    acked: list = field(default_factory=list)  # (version, action) seen applied
    errors: collections.Counter = field(default_factory=collections.Counter)
    gaps: int = 0  # pushes that did not fit the log (a sync was asked for)
    connections: int = 0
    acting: bool = True  # False: connected but silent

    def __post_init__(self):
        self.ws_url = self.url.replace("http", "ws", 1) + f"/ws/table/{self.table_id}/"
        self.rng = random.Random(self.seed)
        self.pending = None  # (version, action, log length) of the action awaiting an answer
        self.finished = asyncio.Event()
        self.started = asyncio.Event()  # the first full frame has arrived
        self.go = asyncio.Event()  # decisions wait for this (every client connected)
        self.awaiting_view = False  # after an error: decide again on the next view only
        self.decisions: dict[int, dict] = {}  # version -> the action chosen at it
        self._ws = None

    async def run(self) -> None:
        """Play until the game is over, reconnecting with backoff whenever the socket drops."""
        delay = 0.1
        headers = {"Authorization": f"Bearer {self.token}"}
        while not self.finished.is_set():
            try:
                async with connect(self.ws_url, additional_headers=headers, open_timeout=5) as ws:
                    self.connections += 1
                    delay = 0.1
                    await self._session(ws)
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                pass
            finally:
                self._ws = None
            if not self.finished.is_set():
                await asyncio.sleep(delay * random.uniform(0.75, 1.25))
                delay = min(delay * 2, 2.0)

    async def _session(self, ws) -> None:
        self._ws = ws
        # An action sent on the connection that died may never have reached a server (its web
        # process was killed): no answer will come on this one. Decide again on the full frame
        # that follows, as the page does (it is no longer busy once its socket closes). If the
        # action was applied, that frame is past its version and the same decision is not sent.
        self.pending = None
        self.awaiting_view = False
        while not self.finished.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=self.quiet or 3600)
            except TimeoutError:
                await self._send({"type": "sync"})
                continue
            await self._on_frame(json.loads(raw))
            await self._maybe_act()

    async def _send(self, frame: dict) -> None:
        if self._ws is not None:
            await self._ws.send(json.dumps(frame))

    async def _on_frame(self, frame: dict) -> None:
        kind = frame["type"]
        if kind == "error":
            # The answer to our action (refused) or to a sync (an outage). Decide again only on
            # a fresh view: a stale version brings its own; otherwise ask for one, after a pause
            # (during an outage, again and again until it is over).
            self.errors[frame["code"]] += 1
            self.pending = None
            self.awaiting_view = True
            if frame["code"] != "stale_version":
                await asyncio.sleep(0.3)
                await self._send({"type": "sync"})
        elif kind == "view":
            self.awaiting_view = False
            self._on_view(frame)

    def _on_view(self, frame: dict) -> None:
        self.frames.append((self.connections, frame["version"], frame["log_start"]))
        if frame["version"] < self.version:
            return  # an old push overtaken by a newer full frame
        if frame["log_start"] == 0:
            self.log = list(frame["log"])
        elif frame["version"] == self.version:
            return  # the same version twice (a push racing a full frame)
        elif frame["log_start"] == len(self.log):
            self.log.extend(frame["log"])
        else:
            self.gaps += 1  # a move was missed: ask for a full frame
            asyncio.ensure_future(self._send({"type": "sync"}))
            return
        self._acknowledge(frame)
        self.version, self.view, self.legal = frame["version"], frame["view"], frame["legal"]
        self.started.set()
        if self.view.get("final"):
            self.finished.set()

    def _acknowledge(self, frame: dict) -> None:
        """Did the view show our pending action applied (the next version, made by us)?"""
        if self.pending is None or frame["version"] <= self.pending[0]:
            return
        version, action, log_length = self.pending
        self.pending = None
        ours = [e for e in self.log[log_length:] if e.get("seat") == self.seat]
        if frame["version"] == version + 1 and ours and ours[0]["type"] == action["type"]:
            self.acked.append((version, action))

    async def _maybe_act(self) -> None:
        if not (self.acting and self.go.is_set() and self.legal and self.pending is None):
            return
        if self.awaiting_view:
            return
        if self.seat != min(self.view["current_seats"]):
            return  # the set-up's ticket choices are made one seat at a time here
        # One decision per version, sent again unchanged if it must be retried: every action
        # sent at a version is the same, so a move seen applied is known to be this one.
        if self.version not in self.decisions:
            seed = self.rng.randrange(2**32)
            self.decisions[self.version] = choose_action("easy", self.view, self.legal, seed=seed)
        action = self.decisions[self.version]
        self.pending = (self.version, action, len(self.log))
        self.sent.append((self.version, action))
        await self._send({"type": "action", "action": action, "version": self.version})

    def nudge(self) -> None:
        """Act now if it is our decision (after ``go`` is set)."""
        asyncio.ensure_future(self._maybe_act())


async def play(players: list[Player], *, timeout: float, during=None) -> None:
    """Connect every player, let them play once all have their first view, and wait until
    each has seen the final view. ``during`` (an async function) runs beside the game, for
    the fault to inject."""
    tasks = [asyncio.ensure_future(p.run()) for p in players]
    try:
        await asyncio.wait_for(asyncio.gather(*(p.started.wait() for p in players)), 30)
        for p in players:
            p.go.set()
            p.nudge()
        waits = [asyncio.ensure_future(p.finished.wait()) for p in players]
        if during is not None:
            waits.append(asyncio.ensure_future(during()))
        try:
            await asyncio.wait_for(asyncio.gather(*waits), timeout)
        except TimeoutError:
            message = f"the game did not end in {timeout}s: {describe(players)}"
            raise AssertionError(message) from None
    finally:
        for p in players:
            p.finished.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def describe(players: list[Player]) -> str:
    return "; ".join(
        f"seat {p.seat} at {p.url}: version {p.version}, {p.connections} connections, "
        f"pending {p.pending and p.pending[0]}, legal {len(p.legal)}, errors {dict(p.errors)}"
        for p in players
    )


def players_for(site: LiveSite, setup: dict, *, urls: list[str] | None = None, **options):
    """A player per human seat and a watcher, spread over the site's web processes
    (seat i on ``urls[i % len(urls)]``)."""
    urls = urls or site.urls
    out = [
        Player(urls[i % len(urls)], setup["table"], token, seat, seed=seat, **options)
        for i, (seat, token) in enumerate(sorted(setup["seats"].items()))
    ]
    for i, url in enumerate(urls):
        out.append(Player(url, setup["table"], setup["watcher"], None, seed=100 + i, **options))
    return out
