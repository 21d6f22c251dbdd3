"""A web process's thread pools (``ttr_site.pools``): each thread named in the kernel after its
pool, the bot moves' threads at a lower priority; a call handed to one (``run_in``) gets the
caller's language and loop, and leaves neither behind."""

import asyncio
import os
import sys
import threading

import pytest
from asgiref.sync import async_to_sync
from django.utils import translation

from ttr_site import pools

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux threads")


def _seen_by_the_kernel() -> tuple[str, int]:
    tid = threading.get_native_id()
    with open(f"/proc/self/task/{tid}/comm", encoding="ascii") as comm:
        return comm.read().strip(), os.getpriority(os.PRIO_PROCESS, tid)


def test_pool_threads_carry_their_names_in_the_kernel_and_the_priority_asked():
    ours = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    try:
        named = pools.pool("test-move", 1).submit(_seen_by_the_kernel).result()
        niced = pools.pool("test-bot-move", 1, nice=3).submit(_seen_by_the_kernel).result()
    finally:
        pools.shutdown()
    assert named == ("test-move_0", ours)
    assert niced == ("test-bot-move_0", min(ours + 3, 19))


def test_the_load_benchmark_counts_each_thread_by_the_work_its_name_says():
    """``benchmarks/load.py`` splits a web process's CPU by these names: its main thread (the
    event loop), the players' moves, the bots' moves and the rest."""
    from benchmarks import load

    started, ready = threading.Event(), threading.Event()
    pools.shutdown()  # (pools of earlier tests, with more threads)
    try:
        for name in ("move", "bot-move"):
            pools.pool(name, 1).submit(lambda: None).result()
        other = threading.Thread(target=lambda: (started.set(), ready.wait(5)))
        other.start()
        started.wait(5)
        found = load._thread_ticks([os.getpid()])
        ids = {kind: {tid for _, tid in threads} for kind, threads in found.items()}
    finally:
        ready.set()
        pools.shutdown()
    assert ids[load.WEB_LOOP] == {os.getpid()}
    assert len(ids[load.WEB_THREADS["move"]]) == 1
    assert len(ids[load.WEB_THREADS["bot-move"]]) == 1
    assert other.native_id in ids[load.WEB_OTHER]


class _Refused(Exception):
    pass


def test_a_call_handed_to_a_pool_speaks_the_callers_language_and_knows_its_loop():
    """A move's errors are written in the thread that makes it, in the socket's language; the
    bot after it is scheduled on the loop that handed it the move (``games.bot_turns``), and
    in embedded mode its pushes are sent on that loop (``async_to_sync``)."""
    from games import bot_turns

    async def running_loop():
        return asyncio.get_running_loop()

    def seen():
        return (
            translation.get_language(),
            bot_turns.web_loop(),
            async_to_sync(running_loop)(),
            threading.current_thread().name,
        )

    def refuse():
        raise _Refused(translation.get_language())

    async def scenario():
        loop = asyncio.get_running_loop()
        executor = pools.pool("test-run", 1)
        with translation.override("de"):
            inside = await pools.run_in(executor, seen)
        with translation.override("nl"), pytest.raises(_Refused) as refused:
            await pools.run_in(executor, refuse)
        # the same thread, given other work without run_in: neither is left behind
        after = await loop.run_in_executor(executor, seen)
        return loop, inside, str(refused.value), after

    try:
        loop, inside, refused, after = async_to_sync(scenario)()
    finally:
        pools.shutdown()
    assert inside == ("de", loop, loop, "test-run_0")
    assert refused == "nl"
    language, web_loop, pushed_on, name = after
    assert language != "de" and web_loop is None and pushed_on is not loop and name == "test-run_0"
