"""The outage-time drill every fault shares: a player's clock survives the platform's fault.

A table of one silent player and an easy bot; once the bot has kept its tickets, the player's
set-up choice is the only decision and its clock runs. The fault goes ``down``, stays down
until well past the player's deadline, and comes back ``up``. Then the seat has not timed out
(the version did not move, no timed-out event), its clock has the time it had when the fault
began (within the sweep's 1 s resolution and ``SLACK``), and a move made now, after the
original deadline, is accepted (docs/reliability.md, "Outage time").
"""

import asyncio
import json
import threading
import time

import websockets
from websockets.asyncio.client import connect

from games import engine
from tests.live import LiveSite
from tests.reliability.checks import game_row
from tests.reliability.players import open_game

SLACK = 1.0  # the drill's own reads (every 0.25 s) and process scheduling on a busy machine
RESOLUTION = 1.0  # the sweep runs every second: an outage counts from when it was next due


def clock(site: LiveSite, game_id: int) -> tuple[int, float]:
    """The game's version and deadline (seconds since the epoch)."""
    ((version, deadline),) = site.sql(
        "SELECT version, deadline FROM games_game WHERE id = %s", (game_id,)
    )
    return version, deadline.timestamp()


def timeouts(site: LiveSite, game_id: int, since: int = 0) -> int:
    """Timed-out moves after version ``since``."""
    ((count,),) = site.sql(
        "SELECT count(*) FROM games_gameevent WHERE game_id = %s AND by_timeout AND seq > %s",
        (game_id, since),
    )
    return count


def outages_since(site: LiveSite, since: float) -> list[tuple[str, float]]:
    return site.sql(
        "SELECT cause, seconds FROM games_clockoutage WHERE ended_at >= to_timestamp(%s) "
        "ORDER BY ended_at",
        (since,),
    )


def silent_seat_game(site: LiveSite, *, tag: str, move_seconds: int) -> tuple[dict, int]:
    """A game whose only decision is the seat's, its turn just begun: the seat keeps its
    tickets (its clock started with the game, seconds ago, in a command) and, once the bot has
    kept its own and played if it goes first, a turn begins with a whole clock."""
    setup = open_game(site, tag=tag, seats=2, humans=1, move_seconds=move_seconds)
    game_id = setup["game"]
    (seat,) = setup["seats"]
    site.wait_for(lambda: clock(site, game_id)[0] >= 1, what="the bot keeping its tickets")
    # On a slow machine the set-up can outlast the clock: a keep refused as ``time_up`` (the
    # sweep keeps the tickets for the seat) does as well.
    asyncio.run(move_now(site.urls[0], setup, clock(site, game_id)[0]))
    site.wait_for(lambda: clock(site, game_id)[0] >= 2 and deciding(site, game_id) == [seat],
                  what="the seat's first turn")  # fmt: skip
    return setup, game_id


def deciding(site: LiveSite, game_id: int) -> list[int]:
    return engine.current_seats(engine.from_json(game_row(site, game_id)[1]))


def moved_by(site: LiveSite, game_id: int, seq: int) -> tuple[int, bool] | None:
    """Who made the game's move ``seq``, and whether by a timeout."""
    rows = site.sql(
        "SELECT seat, by_timeout FROM games_gameevent WHERE game_id = %s AND seq = %s",
        (game_id, seq),
    )
    return rows[0] if rows else None


def drill(site: LiveSite, *, tag: str, down, up, move_seconds: int = 10) -> dict:
    """Run the fault (``down()``, past the deadline, ``up()``) against a silent seat and check
    its clock; returns the figures."""
    started = time.monotonic()
    setup, game_id = silent_seat_game(site, tag=tag, move_seconds=move_seconds)
    (seat,) = setup["seats"]
    version, deadline = clock(site, game_id)
    t0 = time.time()
    before = deadline - t0
    assert before > 1, f"the set-up took the seat's whole clock ({before:.1f}s left)"
    down()
    time.sleep(max(0.0, deadline - time.time()) + 1.5)  # well past the deadline
    # Bring it back in a thread, and watch the clock meanwhile: the time is given back as soon
    # as the platform serves again (the first web process back), not once all is back.
    coming_back = threading.Thread(target=up)
    coming_back.start()
    try:
        site.wait_for(lambda: clock(site, game_id)[1] != deadline, timeout=90, poll=0.1,
                      what="the clock given the outage's time back")  # fmt: skip
        after_version, shifted = clock(site, game_id)
        after = shifted - time.time()
        assert after_version == version and not timeouts(site, game_id, version), "timed out"
        assert before - RESOLUTION - SLACK <= after <= before + SLACK, (before, after)
        # A move after the original deadline, inside the time given back: in time. Sent at
        # once, to the first web process back (the clock runs as soon as one serves).
        moved = asyncio.run(move_now(site.urls[0], setup, version))
        assert isinstance(moved, int), moved  # not refused (``time_up``)
        assert moved_by(site, game_id, version + 1) == (seat, False)
    finally:
        coming_back.join()
    return {
        "left before": round(before, 1),
        "left after": round(after, 1),
        "outages": outages_since(site, t0),
        "seconds": round(time.monotonic() - started, 1),
        "setup": setup,
    }


async def move_now(url: str, setup: dict, version: int) -> int | str:
    """The silent seat's first legal move at ``version``, sent now: the version it made, or
    the error code."""
    (token,) = setup["seats"].values()
    ws_url = url.replace("http", "ws", 1) + f"/ws/table/{setup['table']}/"
    headers = {"Authorization": f"Bearer {token}"}
    for _attempt in range(10):
        try:
            ws = await connect(ws_url, additional_headers=headers, open_timeout=10)
        except (OSError, websockets.exceptions.WebSocketException):
            # As a client does: a socket opened while a service is still coming back can
            # be refused (1013, "try again later"); connect again.
            await asyncio.sleep(0.5)
            continue
        try:
            async with ws:
                return await _move(ws, version)
        except websockets.exceptions.ConnectionClosed:
            await asyncio.sleep(0.5)  # closed by an outage it met (1013): connect again
    raise AssertionError("could not connect to move")


async def _move(ws, version: int) -> int | str:
    frame = await _next(ws, "view")
    if frame["version"] > version:
        return frame["version"]  # sent on a connection that closed, and applied
    action = frame["legal"][0]
    await ws.send(json.dumps({"type": "action", "action": action, "version": version}))
    while True:
        frame = await _next(ws, "view", "error")
        if frame["type"] == "error":
            return frame["code"]
        if frame["version"] > version:
            return frame["version"]


async def _next(ws, *kinds: str) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 15))
        if frame["type"] in kinds:
            return frame
