"""Engine speed: full games with uniformly random legal decisions.

Run from the repository root::

    python benchmarks/engine.py [--games N] [--seed S] [--profile]
    python benchmarks/engine.py --only "4-player classic + warehouses"

Prints one row per configuration (``CONFIGS``: 4-player Classic, 4-player Classic with
Warehouses & Depots, 4-player New York): games per second on one core (the decision loop
included; by wall clock and by this process's CPU time, which is steadier on a shared
machine), the mean decisions per game, the median time of ``legal_actions`` and of
``apply_action``, and the worst final-scoring time (measured by re-running ``final_scores`` on
each finished game). The random choices use a seeded ``random.Random`` here, outside the
engine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games.engine as E  # noqa: E402
from games.engine.scoring import final_scores  # noqa: E402

# name -> new_game keyword arguments (seed aside)
CONFIGS = {
    "4-player classic": {"ruleset": "europe", "variant": "classic", "seats": 4},
    "4-player classic + warehouses": {
        "ruleset": "europe",
        "variant": "classic",
        "seats": 4,
        "options": {"warehouses": True},
    },
    "4-player new_york": {"ruleset": "new_york", "variant": "standard", "seats": 4},
}


def play(seed: int, params: dict):
    """One game; return (state, steps)."""
    rng = random.Random(seed)
    state = E.new_game(seed=seed, **params)
    steps = 0
    while state.phase != "over":
        current = E.current_seats(state)
        seat = current[0] if len(current) == 1 else rng.choice(current)
        actions = E.legal_actions(state, seat)
        E.apply_action(state, seat, rng.choice(actions))
        steps += 1
    return state, steps


def timed_play(seed: int, params: dict, legal_times: list, apply_times: list):
    """One game timing every legal_actions and apply_action call."""
    rng = random.Random(seed)
    state = E.new_game(seed=seed, **params)
    clock = time.perf_counter_ns
    while state.phase != "over":
        current = E.current_seats(state)
        seat = current[0] if len(current) == 1 else rng.choice(current)
        t0 = clock()
        actions = E.legal_actions(state, seat)
        t1 = clock()
        E.apply_action(state, seat, rng.choice(actions))
        t2 = clock()
        legal_times.append(t1 - t0)
        apply_times.append(t2 - t1)
    return state


def measure(name: str, params: dict, seeds: range) -> dict:
    """The benchmark row of one configuration."""
    start = time.perf_counter()
    cpu_start = time.process_time()
    total_steps = 0
    finished = []
    for seed in seeds:
        state, steps = play(seed, params)
        total_steps += steps
        finished.append(state)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start

    legal_times: list = []
    apply_times: list = []
    for seed in seeds[: max(1, len(seeds) // 3)]:
        timed_play(seed, params, legal_times, apply_times)

    worst = 0.0
    for state in finished:
        t0 = time.perf_counter()
        final_scores(state, "benchmark")
        worst = max(worst, time.perf_counter() - t0)
    games = len(seeds)
    return {
        "configuration": name,
        "games": f"{games}",
        "games/s wall": f"{games / elapsed:,.1f}",
        "games/s CPU": f"{games / cpu:,.1f}",
        "decisions/game": f"{total_steps / games:,.0f}",
        "legal_actions median": f"{statistics.median(legal_times) / 1000:,.1f} µs",
        "apply_action median": f"{statistics.median(apply_times) / 1000:,.1f} µs",
        "final scoring worst": f"{worst * 1000:,.2f} ms",
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(CONFIGS), help="one configuration")
    parser.add_argument("--profile", action="store_true", help="cProfile the untimed run")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    names = [args.only] if args.only else list(CONFIGS)

    if args.profile:
        import cProfile
        import pstats

        params = CONFIGS[names[0]]
        cProfile.runctx("for s in seeds: play(s, params)", globals(), locals(), "/tmp/e.prof")
        pstats.Stats("/tmp/e.prof").sort_stats("tottime").print_stats(20)
        return

    rows = [measure(name, CONFIGS[name], seeds) for name in names]
    columns = list(rows[0])
    widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in columns}
    print(" | ".join(c.ljust(widths[c]) for c in columns))
    print("-|-".join("-" * widths[c] for c in columns))
    for row in rows:
        print(" | ".join(row[c].ljust(widths[c]) for c in columns))


if __name__ == "__main__":
    main()
