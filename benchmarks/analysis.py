"""Post-game analysis cost and stability (games/engine/bots/grading.py).

Run from the repository root::

    python benchmarks/analysis.py [--games N] [--seats K] [--budget S ...] [--evaluator NAME]

Games are played by medium bots; every seat is graded as if people had played it. Each game
is analysed twice per budget with different sampling seeds. Prints, per budget: CPU seconds
per game and per step (this process's CPU time, so other work on the machine matters less),
graded decisions, marks per run, and the *agreement*: the share of graded decisions given the
same verdict (none / inaccuracy / mistake) by both runs, i.e. how much of a mark is noise;
and two figures of the win-chance graph: *jump*, the mean change of a seat's chance from one
step to the next (the last step, where the game's result replaces the estimate, left out),
and *runs differ*, the mean difference between the two runs' chances at a step (both noise:
a graph that jumped 0.18 a step, as one step's playouts alone did at 0.2 s, reads as noise).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games.engine as E  # noqa: E402
from games.engine.bots import choose_action, grading  # noqa: E402


def record(seed: int, seats: int) -> list:
    state, out = E.new_game(seats=seats, seed=seed), []
    while not E.is_terminal(state):
        for seat in E.current_seats(state):
            legal = E.legal_actions(state, seat)
            action = choose_action("medium", E.view_for(state, seat), legal, seed=len(out))
            E.apply_action(state, seat, action)
            out.append([seat, action])
            if state.phase != "setup":
                break
    return out


def run(seed: int, seats: int, records: list, budget: float, evaluator: str, sampling: int):
    start = time.process_time()
    result = grading.analyse(
        {"seats": seats, "seed": seed}, records, set(range(seats)),
        evaluator=grading.EVALUATORS[evaluator], budget=grading.Budget(budget, None),
        seed=sampling,
    )  # fmt: skip
    return time.process_time() - start, result


def _changes(rows: list, others: list) -> list[float]:
    """Every seat's change of chance between ``rows`` and ``others``, row by row."""
    return [abs(b - a) for row, other in zip(rows, others, strict=True)
            for a, b in zip(row, other, strict=True)]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--budget", type=float, nargs="+", default=[0.05, 0.2])
    parser.add_argument("--evaluator", default="expert", choices=sorted(grading.EVALUATORS))
    args = parser.parse_args()
    print(f"{args.games} game(s) of {args.seats} medium bots, evaluator {args.evaluator}")
    print(f"{'budget s':>8} {'CPU s/game':>10} {'CPU ms/step':>11} {'graded':>6} "
          f"{'?! run1/2':>9} {'? run1/2':>9} {'agreement':>9} {'jump':>6} "
          f"{'runs differ':>11}")  # fmt: skip
    games = [(args.seed + g, record(args.seed + g, args.seats)) for g in range(args.games)]
    for budget in args.budget:
        cpu = steps = graded = same = 0.0
        jumps, gaps = [], []
        inacc, mist = [0, 0], [0, 0]
        for seed, records in games:
            runs = [run(seed, args.seats, records, budget, args.evaluator, s) for s in (1, 2)]
            cpu += sum(c for c, _ in runs) / 2
            steps += len(records)
            verdicts = [{d["step"]: d["kind"] for d in r["decisions"]} for _, r in runs]
            graphs = [r["chances"][:-1] for _, r in runs]  # the result itself left out
            for graph in graphs:
                jumps += _changes(graph[:-1], graph[1:])
            gaps += _changes(*graphs)
            graded += len(verdicts[0])
            same += sum(1 for k, v in verdicts[0].items() if verdicts[1].get(k) == v)
            for i, v in enumerate(verdicts):
                inacc[i] += sum(1 for x in v.values() if x == "inaccuracy")
                mist[i] += sum(1 for x in v.values() if x == "mistake")
        print(f"{budget:>8} {cpu / len(games):>10.1f} {1000 * cpu / steps:>11.0f} "
              f"{graded:>6.0f} {f'{inacc[0]}/{inacc[1]}':>9} {f'{mist[0]}/{mist[1]}':>9} "
              f"{same / max(1, graded):>9.0%} {sum(jumps) / max(1, len(jumps)):>6.3f} "
              f"{sum(gaps) / max(1, len(gaps)):>11.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
