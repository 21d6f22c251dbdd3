"""A web process's thread pools (``ttr_site.pools``): each thread named in the kernel after its
pool, the bot moves' threads at a lower priority."""

import os
import sys
import threading

import pytest

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
