"""Thread pools of a web process, for the synchronous work its sockets start (moves).

Each is made on first use in the process that uses it (uvicorn's workers are processes). Few
threads per process, and more processes, is the shape that kept latency down under
``benchmarks/load.py``: a process's event loop gives up the GIL at every socket write, and
each thread busy with a move can then keep it for a switch interval (``WEB_SWITCH_INTERVAL``)
before the loop gets it back, so every busy thread in a process lengthens every push of that
process.

A pool's threads can run at a lower CPU priority than the rest of the process (``nice``): the
bot moves' pool does (``BOT_MOVE_NICE``), so that when the machine is short of CPU the kernel
runs the event loops and the players' moves first; a bot's turn waits a little longer, and
nothing changes while the CPU has room (figures: README, Benchmarks).

On Linux each thread also carries its Python name (``move_0``, ``bot-move_1``) as its name in
the kernel, where ``top -H``, ``ps -L`` and ``/proc`` show it: ``benchmarks/load.py`` splits a
web process's CPU between its event loop, the players' moves and the bots' moves by it.
"""

import asyncio
import functools
import logging
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from django.db import close_old_connections
from django.utils import translation

log = logging.getLogger(__name__)

_lock = threading.Lock()
_pools: dict[str, ThreadPoolExecutor] = {}


def pool(name: str, threads: int, nice: int = 0) -> ThreadPoolExecutor:
    """This process's pool ``name`` (``threads`` threads, fixed by the first call), each
    thread ``nice`` steps below the process's CPU priority (Linux: a thread has its own)."""
    found = _pools.get(name)
    if found is None:
        with _lock:
            found = _pools.get(name)
            if found is None:
                found = ThreadPoolExecutor(
                    threads, thread_name_prefix=name, initializer=_start_thread, initargs=(nice,)
                )
                _pools[name] = found
    return found


def _start_thread(nice: int) -> None:
    """A pool thread's start: its name given to the kernel, its priority lowered by ``nice``."""
    if not sys.platform.startswith("linux"):
        return
    _name_in_kernel(threading.current_thread().name)
    _lower_priority(nice)


def _name_in_kernel(name: str) -> None:
    """The calling thread's name as the kernel shows it (15 bytes at most; Linux only)."""
    path = f"/proc/self/task/{threading.get_native_id()}/comm"
    try:
        with open(path, "w", encoding="ascii", errors="replace") as comm:
            comm.write(name[:15])
    except OSError as exc:  # not allowed here: the thread keeps its process's name
        log.info("could not name thread %s: %r", name, exc)


def _lower_priority(nice: int) -> None:
    # Only on Linux is a thread's own id a ``who`` that setpriority() takes for that thread
    # alone; elsewhere the same number could name some other process.
    if nice <= 0:
        return
    tid = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + nice)
    except OSError as exc:  # refused: the thread runs at the process's priority
        log.warning("could not lower the priority of thread %s: %r", tid, exc)


def shutdown() -> None:
    """Stop this process's pools and their threads (made again on next use). A thread's
    database connection closes when the thread ends: tests call this so that no thread keeps
    one to a test database that is about to be dropped."""
    with _lock:
        stopping = list(_pools.values())
        _pools.clear()
    for executor in stopping:
        executor.shutdown(wait=True)


async def run_in(executor: ThreadPoolExecutor, fn, /, **kwargs):
    """``fn(**kwargs)`` in a thread of ``executor``, awaited: for the moves, the hottest calls
    of a web process. The call gets what Channels' ``database_sync_to_async`` gives one: this
    thread's stale database connections closed before and after, the caller's language
    active, and the calling loop where asgiref looks for it (``async_to_sync`` inside runs
    there: embedded mode's pushes; ``games.bot_turns`` schedules the bot after a move on it).
    It is not wrapped in asgiref's ``SyncToAsync``, whose per-call context work (every
    context variable copied into the thread and back, a shielded future) costs 40-70 us of
    CPU a call more: a few percent of a move's CPU under ``benchmarks/load.py``
    (docs/benchmarks.md, stop 44). So ``fn`` sees no other context variable of the caller,
    and any it sets stays in its thread: nothing on the move path reads or sets one. A
    caller cancelled while it waits stops waiting; the call itself runs to its end (its
    write is kept, as a move the socket closed on would be)."""
    loop = asyncio.get_running_loop()
    language = translation.get_language()
    call = functools.partial(_handed_call, loop, language, fn, kwargs)
    return await loop.run_in_executor(executor, call)


def _handed_call(loop, language, fn, kwargs):
    local = SyncToAsync.threadlocal  # what SyncToAsync tells a thread about its caller
    local.main_event_loop, local.main_event_loop_pid = loop, os.getpid()
    close_old_connections()
    try:
        with translation.override(language):
            return fn(**kwargs)
    finally:
        close_old_connections()
        local.main_event_loop = None
