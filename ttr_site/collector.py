"""CPython's cyclic garbage collector, set for the site's long-running processes.

A web process under load tracks about 200,000 objects, half of them (106,000) loaded at
start-up: Django, the apps, the URL patterns, the maps. It frees nearly all it allocates by
reference counting. With CPython's defaults (a young collection every 700 net allocations) each web
process under ``benchmarks/load.py`` ran about 550 young, 50 middle and 3-4 full collections
in 2.5 minutes; a full one walked every tracked object while holding the GIL, 0.6-1.4 s of
wall time on the busy machine, and every socket of that process waited for it.

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
