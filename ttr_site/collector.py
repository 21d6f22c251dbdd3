"""CPython's cyclic garbage collector, set for the site's long-running processes.

A web process holds ~200,000 long-lived objects (Django, the URL patterns, the maps, the
bots' tables) and allocates hundreds of thousands more a second under load, nearly all
freed by reference counting. With CPython's defaults (a young collection every 700 net
allocations, a full one every ~20 s) the full collections walked every long-lived object
while holding the GIL: under ``benchmarks/load.py`` one took 0.6-1.4 s of wall time in each
web process, and every socket of that process waited for it.

``settle()`` moves what exists after start-up into the permanent generation, which no
collection walks, and collects the young generation less often, so that more of what it
holds has already been freed by reference counting when it runs. Call it once a process has
loaded what it keeps: the ASGI application (``ttr_site/asgi.py``) and each Celery worker
process (``ttr_site/celery.py``).
"""

import gc

#: Net allocations between two young collections (CPython: 700). The middle and old
#: generations keep CPython's ratios.
YOUNG_THRESHOLD = 20_000


def settle() -> None:
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
