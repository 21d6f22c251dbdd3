"""Engine speed: full games with uniformly random legal decisions.

Run from the repository root::

    python benchmarks/engine.py [--games N] [--seed S] [--profile] [--sampled]
    python benchmarks/engine.py --only "4-player classic + warehouses"

Prints one row per configuration (``CONFIGS``: 4-player Classic, 4-player Classic with
Warehouses & Depots, 4-player New York). Every decision picks uniformly at random among the
legal actions (a seeded ``random.Random`` here, outside the engine), two ways that play the
very same games:

- *list*: ``rng.choice(legal_actions(state, seat))`` then ``apply_action`` (the public API
  as a host or a simple bot uses it);
- *sampled*: ``sample_action(state, seat, rng)`` then ``apply_action``: the same action from
  the same rng state (``games.engine.search``), without building the list;
- *playout*: ``sample_action`` then ``apply_trusted``, which applies an action the engine
  itself listed without checking it again (the way a search plays out);
- *playout loop*: ``search.playout(state, rng)``, the playout way's loop in one call (its
  commonest decisions counted and applied with ints, no action dicts).

The benchmark checks that the four ways end every game in the same state, its own games and
``--check-games`` (5) more in every rule set (each Europe variant with and without Warehouses
& Depots, New York at 2 and 4 players).

Columns: games per second on one core (the decision loop, ``new_game`` and the final scoring
included) by this process's CPU time, which is steadier on a shared machine than the wall
clock (also shown, for the list way); the mean decisions per game; the median time of
``legal_actions``, ``sample_action``, ``apply_action`` and ``apply_trusted``; the worst
final-scoring time (re-running ``final_scores`` on each finished game). ``--profile`` runs
cProfile over the list way (``--sampled``: the sampled way, ``--fast``: the playout way,
``--loop``: the playout loop).

``TTR_NATIVE_ENGINE=1`` (after ``make engine-native``) measures the optional compiled engine
(``games/engine/native.py``); the first line says which engine ran. ``make bench`` runs both.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games.engine as E  # noqa: E402
from games.engine.scoring import final_scores  # noqa: E402
from games.engine.search import apply_trusted, playout, sample_action  # noqa: E402

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


def play_sampled(seed: int, params: dict, apply=E.apply_action):
    """The same game as ``play`` (same seed), each decision by ``sample_action``, applied by
    ``apply``."""
    rng = random.Random(seed)
    state = E.new_game(seed=seed, **params)
    steps = 0
    while state.phase != "over":
        current = E.current_seats(state)
        seat = current[0] if len(current) == 1 else rng.choice(current)
        apply(state, seat, sample_action(state, seat, rng))
        steps += 1
    return state, steps


def play_fast(seed: int, params: dict):
    """The same game again, the playout way: ``sample_action`` then ``apply_trusted``."""
    return play_sampled(seed, params, apply_trusted)


def play_loop(seed: int, params: dict):
    """The same game again, by ``search.playout``."""
    state = E.new_game(seed=seed, **params)
    steps = playout(state, random.Random(seed))
    return state, steps


def timed_play(seed: int, params: dict, legal_times: list, sample_times: list, apply_times: list):
    """One game timing every legal_actions, sample_action and apply_action call."""
    rng = random.Random(seed)
    state = E.new_game(seed=seed, **params)
    other = random.Random(seed + 1)  # sample_action's own draws: the game follows rng
    clock = time.perf_counter_ns
    while state.phase != "over":
        current = E.current_seats(state)
        seat = current[0] if len(current) == 1 else rng.choice(current)
        t0 = clock()
        actions = E.legal_actions(state, seat)
        t1 = clock()
        action = sample_action(state, seat, other)
        t2 = clock()
        E.apply_action(state, seat, rng.choice(actions))
        t3 = clock()
        legal_times.append(t1 - t0)
        sample_times.append(t2 - t1)
        apply_times.append(t3 - t2)
        assert action in actions
    return state


def timed_fast(seed: int, params: dict, trusted_times: list) -> None:
    """One game the playout way, timing every ``apply_trusted`` call."""
    rng = random.Random(seed)
    state = E.new_game(seed=seed, **params)
    clock = time.perf_counter_ns
    while state.phase != "over":
        current = E.current_seats(state)
        seat = current[0] if len(current) == 1 else rng.choice(current)
        action = sample_action(state, seat, rng)
        t0 = clock()
        apply_trusted(state, seat, action)
        trusted_times.append(clock() - t0)


# every rule set the exactness check covers (``check_every_rule_set``), beyond ``CONFIGS``
EVERY_RULE_SET = [
    {"ruleset": "europe", "variant": variant, "seats": seats, "options": options}
    for variant in E.VARIANTS["europe"]
    for seats, options in ((4, {}), (3, {"warehouses": True}))
] + [{"ruleset": "new_york", "variant": "standard", "seats": n} for n in (2, 4)]


def check_every_rule_set(games: int, seed: int) -> str:
    """The three ways play the same games in every rule set: the final states are equal."""
    for params in EVERY_RULE_SET:
        for s in range(seed, seed + games):
            final = E.to_json(play(s, params)[0])
            assert E.to_json(play_sampled(s, params)[0]) == final, f"sampled: {params} {s}"
            assert E.to_json(play_fast(s, params)[0]) == final, f"playout: {params} {s}"
            assert E.to_json(play_loop(s, params)[0]) == final, f"playout loop: {params} {s}"
    return f"checked: {games} games in each of {len(EVERY_RULE_SET)} rule sets, the same games"


def run_way(way, params: dict, seeds: range) -> tuple[float, float, int, list]:
    """Play ``seeds`` one way: (CPU seconds, wall seconds, decisions, final states as JSON).

    Each game is timed on its own, from ``new_game`` to its final scoring, and turned into
    JSON text once its clock has stopped, so no finished state is alive while the next game
    plays: a search drops each playout's state, and a few hundred live states with their logs
    make every garbage collection slower (holding them through the run cost the Classic
    playout loop about a tenth of its speed, 2026-11-25)."""
    gc.collect()
    cpu = elapsed = 0.0
    steps = 0
    texts = []
    process_time = time.process_time
    perf_counter = time.perf_counter
    for seed in seeds:
        start = perf_counter()
        cpu_start = process_time()
        state, n = way(seed, params)
        cpu += process_time() - cpu_start
        elapsed += perf_counter() - start
        steps += n
        texts.append(E.to_json(state))
        del state
    return cpu, elapsed, steps, texts


def measure(name: str, params: dict, seeds: range) -> dict:
    """The benchmark row of one configuration."""
    cpu, elapsed, total_steps, finished = run_way(play, params, seeds)
    cpu_sampled, _, _, sampled = run_way(play_sampled, params, seeds)
    cpu_fast, _, _, fast = run_way(play_fast, params, seeds)
    cpu_loop, _, _, looped = run_way(play_loop, params, seeds)
    for a, b, c, d in zip(finished, sampled, fast, looped, strict=True):  # the same games
        assert a == b, "sample_action played another game"
        assert a == c, "apply_trusted played another game"
        assert a == d, "playout played another game"

    legal_times: list = []
    sample_times: list = []
    apply_times: list = []
    trusted_times: list = []
    for seed in seeds[: max(1, len(seeds) // 3)]:
        timed_play(seed, params, legal_times, sample_times, apply_times)
        timed_fast(seed, params, trusted_times)

    worst = 0.0
    for text in finished:
        state = E.from_json(text)
        t0 = time.perf_counter()
        final_scores(state, "benchmark")
        worst = max(worst, time.perf_counter() - t0)
    games = len(seeds)
    return {
        "configuration": name,
        "games": f"{games}",
        "games/s CPU list": f"{games / cpu:,.1f}",
        "games/s CPU sampled": f"{games / cpu_sampled:,.1f}",
        "games/s CPU playout": f"{games / cpu_fast:,.1f}",
        "games/s CPU playout loop": f"{games / cpu_loop:,.1f}",
        "games/s wall list": f"{games / elapsed:,.1f}",
        "decisions/game": f"{total_steps / games:,.0f}",
        "legal_actions median": f"{statistics.median(legal_times) / 1000:,.1f} µs",
        "sample_action median": f"{statistics.median(sample_times) / 1000:,.1f} µs",
        "apply_action median": f"{statistics.median(apply_times) / 1000:,.1f} µs",
        "apply_trusted median": f"{statistics.median(trusted_times) / 1000:,.1f} µs",
        "final scoring worst": f"{worst * 1000:,.2f} ms",
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(CONFIGS), help="one configuration")
    parser.add_argument("--profile", action="store_true", help="cProfile the untimed run")
    parser.add_argument("--sampled", action="store_true", help="profile the sampled way")
    parser.add_argument("--fast", action="store_true", help="profile the playout way")
    parser.add_argument("--loop", action="store_true", help="profile the playout loop")
    parser.add_argument(
        "--check-games", type=int, default=5, help="games per rule set of the exactness check"
    )
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    names = [args.only] if args.only else list(CONFIGS)

    if args.profile:
        import cProfile
        import pstats

        params = CONFIGS[names[0]]
        run = (
            play_loop
            if args.loop
            else play_fast
            if args.fast
            else play_sampled
            if args.sampled
            else play
        )
        cProfile.runctx("for s in seeds: run(s, params)", globals(), locals(), "/tmp/e.prof")
        pstats.Stats("/tmp/e.prof").sort_stats("tottime").print_stats(20)
        return

    if E.native.KIND == "native":
        print("engine: native (compiled by mypyc: games/engine/native.py)")
    else:
        print("engine: pure Python")
    rows = [measure(name, CONFIGS[name], seeds) for name in names]
    columns = list(rows[0])
    widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in columns}
    print(" | ".join(c.ljust(widths[c]) for c in columns))
    print("-|-".join("-" * widths[c] for c in columns))
    for row in rows:
        print(" | ".join(row[c].ljust(widths[c]) for c in columns))
    if args.check_games > 0:
        print(check_every_rule_set(args.check_games, args.seed))


if __name__ == "__main__":
    main()
