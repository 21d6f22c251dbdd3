"""``benchmarks/load.py`` judges issue 24's live-play line on one run: every part of it, the
bare part of the same run included."""

from collections import Counter

from benchmarks import load


def game(moves=380.0, p99=200.0, errors=None, lost=0):
    return {
        "moves_per_s": moves,
        "p99": p99,
        "errors": Counter(errors or {}),
        "lost": {"lost": lost},
    }


def test_a_run_meeting_every_part_passes():
    assert load.scale_verdict(game(), {"moves_per_s": 700.0}).endswith(": PASS")


def test_each_part_missed_is_named():
    verdict = load.scale_verdict(game(moves=340.0, p99=252.6), {"moves_per_s": 600.0})
    assert verdict.endswith("FAIL (340.0 moves/s, p99 252.6 ms)")
    verdict = load.scale_verdict(game(), {"moves_per_s": 800.0})
    assert verdict.endswith("FAIL (game/bare 0.475)")
    verdict = load.scale_verdict(game(errors={"gap": 1}), {"moves_per_s": 700.0})
    assert verdict.endswith("FAIL (errors or lost moves)")
    assert load.scale_verdict(game(lost=1), {"moves_per_s": 700.0}).endswith(
        "FAIL (errors or lost moves)"
    )


def test_without_the_bare_part_the_line_is_not_judged():
    assert "not judged" in load.scale_verdict(game(), None)


def test_the_load_generator_samples_its_own_loop_lag_inside_the_window_only():
    import asyncio
    import time

    from benchmarks import load_clients

    now = time.time()
    tally = load_clients.Tally()
    window = load_clients.Window([now + 0.05, now + 0.35])

    async def busy_then_watch():
        watcher = asyncio.create_task(load_clients.watch_lag(tally, window))
        await asyncio.sleep(0.08)
        time.sleep(0.03)  # the loop held: the next wake-up is about 30 ms late
        await watcher

    asyncio.run(busy_then_watch())
    assert time.time() >= now + 0.35  # it ran to the window's end
    assert 3 <= len(tally.lags) <= 30  # 300 ms of 10 ms ticks at most, fewer on a busy machine
    assert max(tally.lags) >= 0.02
    assert load.summarize(tally, 0.3)["lag_p99"] >= 20


def test_a_lagged_tick_keeps_the_loop_s_own_work_as_its_cause():
    import asyncio
    import math
    import time

    from benchmarks import load_clients

    tally = load_clients.Tally()
    window = load_clients.Window([time.time(), math.inf])  # open until the spin is over

    async def spin_then_watch():
        watcher = asyncio.create_task(load_clients.watch_lag(tally, window))
        await asyncio.sleep(0.05)
        started = time.thread_time()
        while time.thread_time() - started < 0.05:  # 50 ms of the loop's own CPU
            pass
        # however long a busy machine made that in wall time, the late tick wakes inside
        window.shared[1] = time.time() + 0.05
        await watcher

    asyncio.run(spin_then_watch())
    spun = [tick for tick in tally.lagged if tick[1] >= 0.045]
    assert spun, tally.lagged  # the tick the loop spun through counts its running time
    causes = load.lag_causes(tally.lagged)
    assert causes["ticks"] == len(tally.lagged)
    shares = causes["shares"]
    assert shares["loop running"] > 0
    assert abs(sum(shares.values()) - 100) < 1e-6 or shares["the rest"] == 0


def test_lag_causes_are_shares_of_the_lagged_time():
    causes = load.lag_causes([[0.1, 0.02, 0.05, 0.01], [0.1, 0.08, 0.0, 0.0]])
    assert (causes["ticks"], causes["seconds"]) == (2, 0.2)
    shares = {name: round(share) for name, share in causes["shares"].items()}
    assert shares == {
        "loop running": 50,
        "waiting for a CPU": 25,
        "other threads": 5,
        "the rest": 20,
    }
    assert load.lag_causes([]) == {"ticks": 0, "seconds": 0.0, "shares": {}}


def test_latencies_are_also_kept_by_the_type_of_action():
    from benchmarks import load_clients

    tally = load_clients.Tally()
    tally.latencies = [0.01, 0.02, 0.3]
    tally.by_kind = {"claim_route": [0.3], "draw_card": [0.01, 0.02]}
    kinds = load.summarize(tally, 1.0)["by_kind"]
    assert list(kinds) == ["draw_card", "claim_route"]  # the most frequent first
    assert kinds["claim_route"] == (1, 300.0, 300.0)
    assert kinds["draw_card"][0] == 2 and kinds["draw_card"][2] == 20.0


def test_the_load_generator_times_its_own_collections_inside_the_window():
    import gc
    import time

    from benchmarks import load_clients

    tally = load_clients.Tally()
    now = time.time()
    watch = load_clients.GcWatch(tally, load_clients.Window([now - 1, now + 60]))
    gc.callbacks.append(watch)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(watch)
    ((generation, seconds),) = tally.gc_pauses
    assert generation == 2 and seconds >= 0
    # outside the window nothing is kept
    late = load_clients.GcWatch(tally, load_clients.Window([now + 60, now + 120]))
    gc.callbacks.append(late)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(late)
    assert len(tally.gc_pauses) == 1
    assert load.summarize(tally, 1.0)["gc"] == {2: (1, 1000 * seconds, 1000 * seconds)}


def test_a_load_process_is_its_own_scheduling_group_at_the_client_nice():
    """With the kernel's autogroups, a nice set on a process ranks it only inside its
    session: the load process starts its own, and gives that group the nice as well."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    probe = (
        "import json, os; from pathlib import Path; from benchmarks import load\n"
        "load.CLIENT_NICE[0] = 5\n"
        "async def look():\n"
        "    group = Path('/proc/self/autogroup')\n"
        "    return os.getsid(0) == os.getpid(), os.nice(0), "
        "group.read_text().strip() if group.exists() else ''\n"
        "print(json.dumps(load._run_loop(look())))\n"
    )
    root = Path(load.__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True
    )
    leader, nice, group = json.loads(result.stdout)
    assert leader  # a session of its own: an autogroup of its own
    assert nice == 5
    if group:  # the kernel has autogroups: that group runs at the nice too
        assert group.endswith("nice 5"), group
