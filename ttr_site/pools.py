"""Thread pools of a web process, for the synchronous work its sockets start (moves).

Each is made on first use in the process that uses it (uvicorn's workers are processes). Few
threads per process, and more processes, is the shape that kept latency down under
``benchmarks/load.py``: a process's event loop gives up the GIL at every socket write, and
each thread busy with a move can then keep it for a switch interval (5 ms) before the loop gets
it back, so every busy thread in a process lengthens every push of that process.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

_lock = threading.Lock()
_pools: dict[str, ThreadPoolExecutor] = {}


def pool(name: str, threads: int) -> ThreadPoolExecutor:
    """This process's pool ``name`` (``threads`` threads, fixed by the first call)."""
    found = _pools.get(name)
    if found is None:
        with _lock:
            found = _pools.get(name)
            if found is None:
                found = ThreadPoolExecutor(threads, thread_name_prefix=name)
                _pools[name] = found
    return found


def shutdown() -> None:
    """Stop this process's pools and their threads (made again on next use). A thread's
    database connection closes when the thread ends: tests call this so that no thread keeps
    one to a test database that is about to be dropped."""
    with _lock:
        stopping = list(_pools.values())
        _pools.clear()
    for executor in stopping:
        executor.shutdown(wait=True)
