"""Hostile input for the table socket: random bytes, random JSON and structurally mutated
valid actions, sent to the sockets of running games, with every answer checked.

Why in-process (``channels.testing.WebsocketCommunicator``, the configured channel layer:
Redis pub/sub when ``REDIS_URL`` is set): the consumer, the services and the engine are the
code under test, and in one process each frame can be checked against the database and the
engine before the next is sent, with no network timing in the verdict, at several hundred
frames a second. The live drills cover the server and network paths.

Each step sends one fuzz frame on one socket (a seat's, a spectator's or a seatless user's),
then a ``ping`` as a marker: everything the consumer answers to the frame arrives before the
marker's ``pong``, and a move it accepted is then pushed to every socket at the table.
Invariants, each counted when checked:

* ``answered``: every frame gets an answer (an error frame, a pong, a view, a chat line, or
  the pushed view of the move it made);
* ``no_server_error``: never a ``server_error`` frame (the socket's 500);
* ``connection_kept``: never a closed connection or a crashed consumer;
* ``version_legal``: the game's version changes only when the frame was one of the legal
  actions of the sending seat at that version (compared with the engine's list), and then
  the stored state is exactly the engine's result of that action;
* ``legal_accepted``: a legal action at the right version from the right seat is accepted;
* ``no_leak``: every view a socket gets is exactly the engine's redaction for its viewer at
  that version (``view_for``, ``log_for``, the seat's ``legal``): nobody sees another seat's
  tickets, hand or deck draws.

``tests/reliability/fuzz_http.py`` does the same for the site's forms and the API.
"""

import asyncio
import contextlib
import copy
import json
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games import engine, services
from games.models import Game
from games.routing import websocket_urlpatterns

APP = URLRouter(websocket_urlpatterns)
ANSWER_TIMEOUT = 10  # seconds; a frame not answered in this long is a failure

NASTY_STRINGS = [
    "", " ", "\x00", "\x00" * 3, "null", "0", "-1", "9" * 40, "1e309", "NaN", "E1", "T1", "X99",
    "Wien", "Times Square", "red", "locomotive", "deck", "faceup", "ä", "𝄞", "\u202e", "\ud800",
    "<script>alert(1)</script>", "' OR 1=1 --", "%s%n", "../../etc/passwd", "x" * 3000,
]  # fmt: skip
NASTY_NUMBERS = [0, -1, 1, 2, 4, 5, 7, 45, 99, 101, 2**31, 2**63, -(2**63), 10**40, 1.5, -0.0,
                 1e308, True, False]  # fmt: skip
COLOURS = ["red", "blue", "green", "yellow", "black", "white", "orange", "pink", "locomotive",
           "purple", "Red", "RED", "", "taxi", "locomotives"]  # fmt: skip
ACTION_TYPES = ["draw_card", "claim_route", "pay_tunnel", "decline_tunnel", "draw_tickets",
                "keep_tickets", "build_station", "place_depot", "pass", "undo"]  # fmt: skip
SHORT_FRAMES = ["", " ", "null", "[]", "{}", "1e999", '"action"', '{"type": null}',
                '{"type": "action"}', '{"type": "action", "version": 0}',
                '{"type": "action", "action": {}, "version": 0}']  # fmt: skip
SETUPS = [  # (ruleset, variant, options, seats)
    ("europe", "classic", {}, (2, 3, 4, 5)),
    ("europe", "europa_1912", {}, (2, 3, 4)),
    ("europe", "mega_europe", {}, (2, 3)),
    ("europe", "big_cities", {}, (2, 3)),
    ("europe", "classic", {"warehouses": True}, (2, 3, 4)),
    ("new_york", "standard", {}, (2, 3, 4)),
]


@dataclass
class Report:
    seed: int
    frames: int = 0
    seconds: float = 0.0
    games: int = 0
    kinds: Counter = field(default_factory=Counter)  # frames sent, by generator
    checks: Counter = field(default_factory=Counter)  # invariants checked (and held)
    codes: Counter = field(default_factory=Counter)  # error codes answered
    failures: list = field(default_factory=list)  # (invariant, detail)

    def fail(self, invariant: str, detail: str) -> None:
        if len(self.failures) < 50:
            self.failures.append((invariant, detail[:600]))
        self.checks[f"FAILED {invariant}"] += 1

    def summary(self) -> str:
        rate = self.frames / self.seconds if self.seconds else 0
        lines = [
            f"socket fuzz: seed {self.seed}, {self.frames} frames in {self.seconds:.1f}s "
            f"({rate:.0f}/s), {self.games} games, {len(self.failures)} failures",
            "  invariants checked: " + _counts(sorted(self.checks.items())),
            "  frames by kind: " + _counts(sorted(self.kinds.items())),
            "  answers: " + _counts(self.codes.most_common(25)),
        ]
        lines += [f"  FAILURE {name}: {detail}" for name, detail in self.failures]
        return "\n".join(lines)


def _counts(items) -> str:
    return ", ".join(f"{k} {v}" for k, v in items)


# --- frame generators -----------------------------------------------------------------------


def random_json(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 3 or roll < 0.45:
        return rng.choice([rng.choice(NASTY_STRINGS), rng.choice(NASTY_NUMBERS), None,
                           rng.choice(ACTION_TYPES), rng.choice(COLOURS)])  # fmt: skip
    if roll < 0.7:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ["type", "action", "version", "text", "source", "slot", "cards", "route", "tickets",
            "city", "color", "warehouse", "warehouses", rng.choice(NASTY_STRINGS)]  # fmt: skip
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def _nasty_value(rng: random.Random, legal: list):
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(NASTY_NUMBERS)
    if roll < 0.55:
        return rng.choice(NASTY_STRINGS + COLOURS)
    if roll < 0.7 and legal:  # a value that is valid somewhere else
        other = rng.choice(legal)
        return other[rng.choice(list(other))]
    return random_json(rng, 2)


def mutate_action(rng: random.Random, action: dict, legal: list, secrets: list[str]):
    """One structural mutation of a valid action: wrong types, missing or extra keys, huge or
    negative numbers, unknown colours, bad card counts, foreign or repeated tickets..."""
    action = copy.deepcopy(action)
    keys = [k for k in action if k != "type"]
    roll = rng.random()
    if roll < 0.12 and keys:
        del action[rng.choice(keys)]
    elif roll < 0.22:
        action[rng.choice(["extra", "seat", "version", "color", "slot", "warehouse",
                           rng.choice(NASTY_STRINGS)])] = _nasty_value(rng, legal)  # fmt: skip
    elif roll < 0.45 and keys:
        action[rng.choice(keys)] = _nasty_value(rng, legal)
    elif roll < 0.6 and isinstance(action.get("cards"), dict):
        cards = action["cards"]
        colour = rng.choice(list(cards) + COLOURS)
        cards[colour] = rng.choice([0, -1, 1, 2, 99, 2**63, 1.0, "2", None, True])
    elif roll < 0.72 and isinstance(action.get("tickets"), list):
        tickets = action["tickets"]
        choice = rng.random()
        if choice < 0.3 and tickets:
            tickets.append(tickets[0])  # repeated
        elif choice < 0.6 and secrets:
            tickets[rng.randrange(len(tickets) or 1) :] = [rng.choice(secrets)]  # another's
        elif choice < 0.8:
            tickets.clear()
        else:
            tickets.append(rng.choice(NASTY_STRINGS))
    elif roll < 0.8:
        action["type"] = rng.choice(ACTION_TYPES + [action["type"].upper(), "", 7, None])
    elif roll < 0.88 and "slot" in action:
        action["slot"] = rng.choice([-1, 5, 6, 99, -(2**63), "0", 1.0, None])
    elif roll < 0.94:
        other = rng.choice(legal) if legal else {}
        action = {**action, **{k: v for k, v in other.items() if k != "type"}}  # a hybrid
    else:
        return random_json(rng)
    return action


def _garbage(rng: random.Random) -> tuple[str | None, bytes | None, str]:
    """A frame that is not a sensible JSON object at all: (text, bytes, kind)."""
    roll = rng.random()
    if roll < 0.2:
        return (
            "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randint(0, 60))),
            None,
            "text",
        )
    if roll < 0.35:
        return None, bytes(rng.randrange(256) for _ in range(rng.randint(0, 80))), "binary"
    if roll < 0.45:
        frame = {"type": "action", "action": {"type": "pass"}, "version": 0}
        return None, json.dumps(frame).encode(), "binary_json"
    if roll < 0.55:
        return "x" * rng.choice([16_385, 40_000, 200_000]), None, "oversized"
    if roll < 0.65:
        depth = rng.choice([50, 1_000, 8_000])
        return (
            rng.choice("[{") * depth if rng.random() < 0.5 else "[" * depth + "]" * depth,
            None,
            "deep",
        )
    if roll < 0.8:
        return json.dumps(random_json(rng)), None, "random_json"
    return rng.choice(SHORT_FRAMES), None, "short"


# --- the game under fire ----------------------------------------------------------------------


@dataclass
class Game_:
    table_id: int
    game_id: int
    sockets: dict  # seat (None: spectator, "outsider": a seatless user) -> communicator
    users: dict  # seat -> user


def _open_game(rng: random.Random, users: list) -> tuple[int, int, dict]:
    ruleset, variant, options, sizes = rng.choice(SETUPS)
    seats = rng.choice(sizes)
    table = services.table_create(owner=users[0], ruleset=ruleset, variant=variant,
                                  options=options, seat_count=seats)  # fmt: skip
    for user in users[1:seats]:
        services.table_join(table_id=table.pk, user=user)
    positions = {s.position: s.user for s in table.seats.select_related("user")}
    return table.pk, Game.objects.get(table=table).pk, positions


def _game_state(game_id: int):
    """The version and the state holding its whole log (the events' entries put back)."""
    game = Game.objects.get(pk=game_id)
    return game.version, engine.to_json(services.game_state(game, whole_log=True))


async def _connect(table_id: int, user) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(APP, f"/ws/table/{table_id}/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect(timeout=ANSWER_TIMEOUT)
    if not connected:
        raise AssertionError(f"could not connect to table {table_id}")
    return communicator


async def _next(communicator, timeout: float) -> dict | None:
    """The next message the consumer sent; None after ``timeout`` or once the consumer ended
    (without cancelling it, as ``receive_output`` would)."""
    if not communicator.output_queue.empty():
        return communicator.output_queue.get_nowait()
    getter = asyncio.ensure_future(communicator.output_queue.get())
    done, _ = await asyncio.wait([getter, communicator.future], timeout=timeout,
                                 return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
    if getter in done:
        return getter.result()
    getter.cancel()
    return None


def _pending(communicator) -> list[dict]:
    out = []
    while not communicator.output_queue.empty():
        out.append(communicator.output_queue.get_nowait())
    return out


def _canonical(action) -> str | None:
    if not isinstance(action, dict):
        return None
    action = dict(action)
    for key in ("tickets", "warehouses"):
        if isinstance(action.get(key), list):
            try:
                action[key] = sorted(action[key])
            except TypeError:
                return None
    return json.dumps(action, sort_keys=True)


def _legal_keys(legal: list) -> set:
    keys = set()
    for action in legal:
        keys.add(_canonical(action))
        if action.get("source") == "faceup":  # the colour may be left out (engine docs)
            keys.add(_canonical({k: v for k, v in action.items() if k != "color"}))
    return keys


class SocketFuzzer:
    """Plays games by fuzzing them: ``await SocketFuzzer(seed, users).run(frames)``."""

    def __init__(self, seed: int, players: list, outsider):
        self.rng = random.Random(seed)
        self.report = Report(seed=seed)
        self.players, self.outsider = players, outsider
        self.game: Game_ | None = None
        self.broken = False  # a socket failed: the next step starts a new game
        self.seen: list = []  # (seat, frame) received during the step, checked at its end
        self.latest: dict = {}  # seat -> the newest view version its socket has received
        self.progress = int(os.environ.get("FUZZ_PROGRESS", "0"))  # print every n frames

    async def run(self, frames: int) -> Report:
        started = time.monotonic()
        try:
            while self.report.frames < frames:
                if self.game is None or self.broken:
                    await self._new_game()
                await self._step()
                if self.progress and self.report.frames % self.progress == 0:
                    print(f"  {self.report.frames} frames, {time.monotonic() - started:.0f}s, "
                          f"{len(self.report.failures)} failures", flush=True)  # fmt: skip
        finally:
            await self._close()
            self.report.seconds = time.monotonic() - started
        return self.report

    async def _new_game(self) -> None:
        await self._close()
        table_id, game_id, users = await database_sync_to_async(_open_game)(self.rng, self.players)
        sockets = {seat: await _connect(table_id, user) for seat, user in users.items()}
        sockets[None] = await _connect(table_id, AnonymousUser())
        sockets["outsider"] = await _connect(table_id, self.outsider)
        self.game = Game_(table_id, game_id, sockets, users)
        self.latest = {}
        self.report.games += 1
        self.version, self.state_json = await database_sync_to_async(_game_state)(game_id)
        self.seen = []
        for seat, communicator in sockets.items():  # the connect frames: checked, then dropped
            await self._until(communicator, seat, lambda f: f["type"] == "view", "connect")
        self._check_seen("connect", {self.version: self.state_json})

    async def _close(self) -> None:
        if self.game is not None:
            for communicator in self.game.sockets.values():
                with contextlib.suppress(Exception):  # a crashed consumer: reported already
                    await communicator.disconnect()
            self.game, self.broken = None, False

    # -- one step ------------------------------------------------------------------------------

    async def _step(self) -> None:
        state = engine.from_json(self.state_json)
        seat, text, data, kind, sent = self._frame(state)
        communicator = self.game.sockets[seat]
        self.report.frames += 1
        self.report.kinds[kind] += 1
        self.seen = []
        # send_input, not send_to: an empty frame is a frame too
        payload = {"text": text} if text is not None else {"bytes": data}
        await communicator.send_input({"type": "websocket.receive", **payload})
        await communicator.send_to(text_data='{"type":"ping"}')
        pongs = 2 if isinstance(sent, dict) and sent.get("type") == "ping" else 1
        answers = await self._until(communicator, seat, _pongs(pongs), kind)
        if answers is None:
            return
        version, state_json = await database_sync_to_async(_game_state)(self.game.game_id)
        moved = version != self.version
        self._check_version(state, seat, sent, kind, version, state_json)
        if moved:  # every socket at the table gets the move (some got it before the marker)
            for s, c in self.game.sockets.items():
                if self.latest.get(s, -1) >= version:
                    continue
                if await self._until(c, s, _is_view(version), f"push of {kind} to {s}") is None:
                    return
        answered = [f for f in answers[:-1] if f["type"] in ANSWERS]
        if isinstance(sent, dict) and sent.get("type") == "chat" and not answered:
            # an accepted chat line comes back as a push
            answered = await self._until(communicator, seat, lambda f: f["type"] == "chat", kind)
        if answered or moved:
            self.report.checks["answered"] += 1
        elif answered is not None:
            self.report.fail("answered", f"{kind}: {str(text or data)[:200]} got {answers}")
        for s, c in self.game.sockets.items():
            for message in _pending(c):
                self._take(s, message, kind)
        self._check_seen(kind, {self.version: self.state_json, version: state_json})
        self.version, self.state_json = version, state_json
        if engine.is_terminal(engine.from_json(state_json)):
            self.game = None

    async def _until(self, communicator, seat, predicate, kind) -> list | None:
        """Frames up to the first that matches, each checked; None if the socket failed."""
        frames = []
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while True:
            message = await _next(communicator, max(deadline - time.monotonic(), 0.01))
            if message is None:
                if communicator.future.done():
                    self.report.fail("connection_kept", f"{kind}: {_crash(communicator)}")
                else:
                    self.report.fail("answered", f"{kind}: nothing in {ANSWER_TIMEOUT}s")
                self.broken = True
                return None
            frame = self._take(seat, message, kind)
            if frame is None:
                return None
            frames.append(frame)
            if predicate(frame):
                return frames

    def _take(self, seat, message: dict, kind) -> dict | None:
        """A message the consumer sent to ``seat``'s socket, decoded and kept for the
        step's checks; None (and a failure) if it closed the connection."""
        if message["type"] != "websocket.send":
            self.report.fail("connection_kept", f"{kind}: {message}")
            self.broken = True
            return None
        self.report.checks["connection_kept"] += 1
        frame = json.loads(message["text"])
        self.seen.append((seat, frame))
        if frame["type"] == "view":
            self.latest[seat] = max(self.latest.get(seat, -1), frame["version"])
        return frame

    # -- checks --------------------------------------------------------------------------------

    def _check_seen(self, kind: str, states: dict[int, str]) -> None:
        """Every frame of the step: no server error; every view is exactly what the engine's
        redaction gives its viewer at that version (``view_for``, ``log_for``, ``legal``), so
        it shows nobody another seat's tickets, hand or deck draws. ``states``: version ->
        state JSON, before and after the step."""
        parsed = {version: engine.from_json(state) for version, state in states.items()}
        for seat, frame in self.seen:
            if frame is None:
                continue
            if frame["type"] == "error":
                self.report.codes[frame["code"]] += 1
                if frame["code"] == "server_error":
                    self.report.fail("no_server_error", f"{kind}: {frame}")
                else:
                    self.report.checks["no_server_error"] += 1
            if frame["type"] != "view" or frame["version"] not in parsed:
                continue
            problem = _redaction_problem(frame, seat, parsed[frame["version"]])
            if problem:
                self.report.fail("no_leak", f"{kind} to {seat}: {problem}")
            else:
                self.report.checks["no_leak"] += 1
        self.seen = []

    def _check_version(self, state, seat, sent, kind, version, state_json) -> None:
        """The version moved iff the frame was a legal action of the sender at that version."""
        legal = engine.legal_actions(state, seat) if isinstance(seat, int) else []
        is_action = isinstance(sent, dict) and sent.get("type") == "action"
        action = sent.get("action") if is_action else None
        legal_now = (is_action and sent.get("version") == self.version
                     and type(sent.get("version")) is int
                     and _canonical(action) in _legal_keys(legal))  # fmt: skip
        if version == self.version:
            if legal_now:
                self.report.fail("legal_accepted", f"{kind}: refused {sent}")
            else:
                self.report.checks["version_legal"] += 1
            return
        if not legal_now or version != self.version + 1:
            self.report.fail("version_legal", f"{kind}: v{self.version}->v{version} by {sent}")
            return
        expected = engine.from_json(self.state_json)
        engine.apply_action(expected, seat, action)
        if engine.to_json(expected) != state_json:
            self.report.fail("version_legal", f"{kind}: stored state differs after {action}")
        else:
            self.report.checks["version_legal"] += 1
            self.report.checks["legal_accepted"] += 1

    # -- choosing a frame ----------------------------------------------------------------------

    def _frame(self, state):
        """(sending seat, text, bytes, kind, the decoded frame or None)."""
        rng, sockets = self.rng, self.game.sockets
        deciding = engine.current_seats(state)
        seat = (
            rng.choice(deciding) if deciding and rng.random() < 0.8 else rng.choice(list(sockets))
        )
        legal = engine.legal_actions(state, seat) if isinstance(seat, int) else []
        any_legal = (legal or engine.legal_actions(state, deciding[0])) if deciding else legal
        secrets = [
            t["id"]
            for p in engine.view_for(state, "all")["players"]
            for t in (p.get("tickets") or []) + (p.get("offered_tickets") or [])
        ]
        roll = rng.random()
        if roll < 0.22 and legal:
            kind, frame = "legal", self._action(rng.choice(legal), self.version)
        elif roll < 0.5 and any_legal:
            action = mutate_action(rng, rng.choice(any_legal), any_legal, secrets)
            kind, frame = "mutated_action", self._action(action, self.version)
        elif roll < 0.6 and any_legal:
            version = rng.choice([self.version - 1, self.version + 1, -1, 2**63, 10**30, "0",
                                  str(self.version), float(self.version), None, True])  # fmt: skip
            kind, frame = "bad_version", self._action(rng.choice(any_legal), version)
        elif roll < 0.66 and any_legal:
            kind, frame = "legal_elsewhere", self._action(rng.choice(any_legal), self.version)
            seat = rng.choice([s for s in sockets if s not in deciding] or list(sockets))
        elif roll < 0.74:
            frame = {"type": "chat", "text": rng.choice(NASTY_STRINGS + [None, 5, ["x"], {}])}
            kind = "chat"
        elif roll < 0.8:
            frame = {"type": rng.choice(["sync", "ping", "pong", "view", "error", "Action", ""])}
            kind = "control"
        elif roll < 0.86:
            frame = {"type": "action", **{k: random_json(rng) for k in rng.sample(
                ["action", "version", "text", "type2"], rng.randint(0, 3))}}  # fmt: skip
            kind = "random_action_frame"
        else:
            text, data, kind = _garbage(rng)
            return seat, text, data, f"garbage_{kind}", _loads(text, data)
        return seat, json.dumps(frame), None, kind, frame

    @staticmethod
    def _action(action, version) -> dict:
        return {"type": "action", "action": action, "version": version}


ANSWERS = ("error", "pong", "view", "table", "chat")


def _pongs(count: int):
    """A predicate true at the ``count``-th pong (the step's marker)."""
    seen = []

    def predicate(frame: dict) -> bool:
        seen.extend([1] if frame["type"] == "pong" else [])
        return len(seen) >= count

    return predicate


def _redaction_problem(frame: dict, seat, state) -> str | None:
    """How ``frame`` differs from the engine's view of ``state`` for ``seat``'s socket."""
    viewer = seat if isinstance(seat, int) else None
    expected = engine.view_for(state, viewer)
    log = expected.pop("log")
    if frame["seat"] != viewer:
        return f"seat {frame['seat']} on the socket of {seat}"
    if frame["view"] != expected:
        return f"view differs from view_for({viewer}) at v{frame['version']}"
    if frame["log"] != log[frame["log_start"] :]:
        return f"log differs from log_for({viewer}) at v{frame['version']}"
    if viewer is None and frame["legal"]:
        return "a spectator was sent legal actions"
    if frame["legal"] and frame["legal"] != engine.legal_actions(state, viewer):
        return "legal actions differ from the engine's"
    return None


def _is_view(version: int):
    return lambda f: f["type"] == "view" and f["version"] >= version


def _crash(communicator) -> str:
    try:
        communicator.future.result()
    except BaseException as exc:  # the consumer's own exception: the report shows it
        return repr(exc)
    return "the consumer ended"


def _loads(text, data):
    try:
        return json.loads(text if text is not None else data)
    except (ValueError, RecursionError):
        return None


async def fuzz_sockets(*, frames: int, seed: int, players: list, outsider) -> Report:
    """Fuzz ``frames`` frames into games of ``players`` (2-5 users; ``outsider`` holds no
    seat)."""
    return await SocketFuzzer(seed, players, outsider).run(frames)
