"""Bot decision times: each level decides on the same sampled positions.

Run from the repository root::

    python benchmarks/bots.py [--games N] [--seed S] [--seats K] [--every K] [--expert-budget S]

Positions come from games played by a mix of levels (every ``every``-th decision is kept,
so set-up, card draws, tunnels, ticket choices and the last round are all represented);
then every level chooses on every position (``choose_action`` only: the view is built
beforehand). Prints the median, p90 and worst time per move of each level (the expert searches
for ``--expert-budget`` CPU seconds per decision, so its times show that budget is kept).
Then the expert's search speed, the currency of its strength: playouts per CPU second at 2
and 4 seats, each turn position of hard-bot games searched for a fixed number of playouts
(``expert.evaluate(..., playouts=N)``: the same work every run), the best of three rounds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games.engine as E  # noqa: E402
from games.engine.bots import LEVELS, choose_action, expert  # noqa: E402


def positions(games: int, seed: int, seats: int, every: int) -> list:
    """(view, legal) pairs sampled from bot games."""
    out = []
    mix = ("hard", "medium", "easy", "medium", "hard")[:seats]
    for g in range(games):
        state = E.new_game(seats=seats, seed=seed + g)
        step = 0
        while state.phase != "over":
            seat = E.current_seats(state)[0]
            view, legal = E.view_for(state, seat), E.legal_actions(state, seat)
            if step % every == 0:
                out.append((view, legal))
            E.apply_action(state, seat, choose_action(mix[seat], view, legal, seed=step))
            step += 1
    return out


def hard_game(seats: int, seed: int, bot_seed=lambda step, seat: step):
    """Each decision of a game of hard bots, before it is played: (step, state, view, legal),
    the state in its phase then. ``bot_seed(step, seat)`` seeds each bot's choice."""
    state, step = E.new_game(seats=seats, seed=seed), 0
    while state.phase != "over":
        for seat in E.current_seats(state):
            view, legal = E.view_for(state, seat), E.legal_actions(state, seat)
            yield step, state, view, legal
            E.apply_action(state, seat, choose_action("hard", view, legal, bot_seed(step, seat)))
            step += 1
            if state.phase != "setup":
                break


def turn_positions(seats: int, seed: int, every: int = 9, limit: int = 14) -> list:
    """(view, legal) of the turns of a hard-bot game (every ``every``-th decision)."""
    out = []
    for step, state, view, legal in hard_game(seats, seed):
        if len(out) == limit:
            break
        if state.phase in ("turn", "draw2") and step % every == 0:
            out.append((view, legal))
    return out


def search_speed(seats: int, seed: int, playouts: int = 120, rounds: int = 3) -> tuple:
    """(positions, playouts a round, CPU seconds of the best round) of the expert's search."""
    sample = turn_positions(seats, seed)
    best, count = float("inf"), 0
    for _ in range(rounds):
        start, count = time.process_time(), 0
        for view, legal in sample:
            rows = expert.evaluate(view, legal, budget=None, playouts=playouts, seed=1)
            count += sum(r.get("visits", 0) for r in rows)
        best = min(best, time.process_time() - start)
    return len(sample), count, best


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--expert-budget", type=float, default=0.1, help="CPU s per decision")
    args = parser.parse_args(argv)
    expert.set_budget(args.expert_budget)
    sample = positions(args.games, args.seed, args.seats, args.every)
    print(f"{len(sample)} positions from {args.games} games of {args.seats} seats")
    print(f"{'level':<8}{'median ms':>10}{'p90 ms':>10}{'worst ms':>10}")
    for level in LEVELS:
        times = []
        for i, (view, legal) in enumerate(sample):
            start = time.perf_counter()
            choose_action(level, view, legal, seed=i)
            times.append(1000 * (time.perf_counter() - start))
        times.sort()
        p90 = times[int(0.9 * (len(times) - 1))]
        print(f"{level:<8}{statistics.median(times):>10.2f}{p90:>10.2f}{times[-1]:>10.2f}")
    print("\nexpert search (fixed playouts per decision, best of 3 rounds)")
    print(f"{'seats':<8}{'positions':>10}{'playouts':>10}{'us each':>10}{'per CPU s':>11}")
    for seats in (2, 4):
        count, done, cpu = search_speed(seats, args.seed + 6)
        print(f"{seats:<8}{count:>10}{done:>10}{1e6 * cpu / done:>10,.0f}{done / cpu:>11,.0f}")


if __name__ == "__main__":
    main()
