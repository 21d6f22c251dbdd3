"""A table socket sends views in version order, each version once, whatever order the
pushes of two moves arrive in (two web processes or a worker push them after commit).

Found by the scale-out drill: a watcher on one web process got version 155 before 154,
because the next player reacted to its own push of 154 while the process that made 154 was
still pushing it to the other audiences.
"""

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async

from games import broadcast, consumers, engine, services
from games.models import Game
from tests.games.test_table_socket import is_view, receive_until, socket

pytestmark = pytest.mark.django_db(transaction=True)


def _move_twice_unannounced(table, cast, monkeypatch) -> list[tuple[str, dict]]:
    """Make two moves; return their pushes, held back from the channel layer."""
    captured = []
    monkeypatch.setattr(broadcast, "group_send_all", captured.extend)
    users = {0: cast["alice"], 1: cast["bob"]}
    game = Game.objects.get(table=table)
    for version in (0, 1):
        state = engine.from_json(Game.objects.get(pk=game.pk).state)
        seat = engine.current_seats(state)[0]
        services.game_submit_action(game_id=game.pk, user=users[seat], expected_version=version,
                                    action=engine.legal_actions(state, seat)[0])  # fmt: skip
    monkeypatch.undo()
    seat_group = broadcast.seat_group(table.pk, 0)
    return [m for group, m in captured if group == seat_group and m["type"] == "view.push"]


async def _push(group: str, message: dict) -> None:
    """Publish one push the way a move does (the fan-out with Redis, Channels embedded)."""
    await sync_to_async(broadcast.send_all)([(group, message)])


async def _drain(communicator) -> list[dict]:
    frames = []
    while not await communicator.receive_nothing(timeout=0.3):
        frames.append(json.loads(await communicator.receive_from()))
    return frames


def test_swapped_pushes_reach_the_client_in_version_order(started, cast, monkeypatch):
    async def scenario():
        alice = socket(started.pk, cast["alice"])
        assert (await alice.connect())[0]
        await receive_until(alice, is_view(0))
        first, second = await database_sync_to_async(_move_twice_unannounced)(
            started, cast, monkeypatch
        )
        group = broadcast.seat_group(started.pk, 0)
        for message in (second, first, second, first):  # swapped, then both again
            await _push(group, message)
        views = [f for f in await receive_until(alice, is_view(2)) if f["type"] == "view"]
        assert [(f["version"], f["log_start"] > 0) for f in views] == [(1, True), (2, True)]
        await asyncio.sleep(consumers.HOLD_SECONDS + 0.2)
        assert not [f for f in await _drain(alice) if f["type"] == "view"]
        await alice.disconnect()

    async_to_sync(scenario)()


def test_a_push_whose_predecessor_is_lost_becomes_a_full_frame(started, cast, monkeypatch):
    async def scenario():
        alice = socket(started.pk, cast["alice"])
        assert (await alice.connect())[0]
        await receive_until(alice, is_view(0))
        first, second = await database_sync_to_async(_move_twice_unannounced)(
            started, cast, monkeypatch
        )
        group = broadcast.seat_group(started.pk, 0)
        await _push(group, second)
        frames = await receive_until(alice, lambda f: f["type"] == "view")
        frame = frames[-1]
        assert (frame["type"], frame["version"], frame["log_start"]) == ("view", 2, 0)
        await _push(group, first)  # late: the client has it already
        assert not [f for f in await _drain(alice) if f["type"] == "view"]
        await alice.disconnect()

    async_to_sync(scenario)()
