"""Queueing a job by name (ttr_site/jobs.py) in a process that has not loaded the tasks."""

import subprocess
import sys
import textwrap

# A fresh process (nothing imported but Django and the Celery app), where 8 threads look up
# tasks at the same moment: as a new web process does when several tables start at once.
SCRIPT = textwrap.dedent(
    """
    import os, sys, threading
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_site.settings")
    import django
    django.setup()
    from ttr_site import jobs
    assert "games.tasks" not in sys.modules
    names = ["games.tasks.notify_turn", "games.tasks.bot_move", "ladder.tasks.matchmake"]
    barrier = threading.Barrier(8)
    found, failed = [], []

    def look(i):
        barrier.wait()
        try:
            found.append(jobs._task(names[i % len(names)]).name)
        except Exception as exc:
            failed.append(repr(exc))

    threads = [threading.Thread(target=look, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(len(found), sorted(set(found)), failed)
    """
)


def test_threads_of_a_fresh_process_all_find_their_task():
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=True
    ).stdout.strip()
    expected = ["games.tasks.bot_move", "games.tasks.notify_turn", "ladder.tasks.matchmake"]
    assert out == f"8 {expected} []"
