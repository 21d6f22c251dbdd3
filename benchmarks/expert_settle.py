"""How the expert's decisions settle as its budget grows: issue 26's curve, decision by decision.

Run from the repository root::

    .venv/bin/python benchmarks/expert_settle.py [--players 2] [--positions 16] \\
        [--budgets 0.25 0.5 1 2] [--seeds 11 12] [--setup]

An arena point costs 50 games and still has a 95% interval about 27 points wide; this asks
the search directly. The positions are turn decisions the expert searches (more than one
legal action, not one of its quick decisions), one decision in ``--every`` of games played
by four hard bots (or two), dealt from ``--game-seed`` on (``--setup``: each seat's set-up
ticket choice instead). Each position is searched at each budget (CPU seconds, as in play)
with each search seed. Printed per budget:

- *left hard's move*: searches whose choice is not the hard bot's (the search's default,
  which another candidate must beat clearly: ``expert.evaluate``);
- *seeds agree*: positions where every seed chose the same;
- *as at the top*: searches that chose what the same seed chose at the largest budget.

A larger budget can only make the bot stronger through the decisions it changes: where the
choices at a budget are already those of the largest one, the larger budget plays the same
moves. Seeds that still disagree at the largest budget mark decisions between
candidates the search cannot tell apart (docs/benchmarks.md, stop 43: a few hundredths of a
reward apart). Pure engine: no database, no Django. About 7.5 CPU seconds a position at the
default budgets.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bots import hard_game  # noqa: E402
from games.engine import phases  # noqa: E402
from games.engine.bots import expert  # noqa: E402
from games.engine.search import clone  # noqa: E402


def positions(
    players: int,
    count: int,
    every: int,
    game_seed: int = 500,
    states: bool = False,
    setup: bool = False,
) -> list[tuple]:
    """``count`` (view, legal) pairs: one decision in ``every`` of hard-bot games that is a
    turn the expert searches, the games dealt from ``game_seed + 1`` on. ``states``: (view,
    legal, a copy of the whole game state then) triples (``expert_oracle`` plays on from it).
    ``setup``: each seat's set-up ticket choice instead (``every`` unused; seat by seat, each
    before the seats after it have chosen)."""
    out: list[tuple] = []
    game = 0
    while len(out) < count:
        game += 1
        decisions = hard_game(players, game_seed + game, lambda step, seat: step * 31 + seat)
        for step, state, view, legal in decisions:
            if len(out) == count or (setup and state.phase != phases.SETUP):
                break
            if (
                state.phase == (phases.SETUP if setup else phases.TURN)
                and (setup or step % every == every - 1)
                and len(legal) > 1
                and expert._quick(view, legal, random.Random(0)) is None
            ):
                out.append((view, legal, clone(state)) if states else (view, legal))
    return out


def key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def settle(found: list[tuple], budgets: list[float], seeds: list[int], playouts=None) -> list[dict]:
    """Per position and budget, one search per seed: the actions chosen (as keys) and whether
    each left the hard bot's move (``evaluate``'s first row is not its prior); per position
    also the hard bot's move (``prior``), every candidate searched (``searched``: key ->
    action) and each search's estimates (``estimates``: per budget, per seed, key -> [mean
    reward, visits, edge, its standard error]: ``evaluate``'s rows, from which its choice
    can be made again under another rule). ``playouts``: a playout count per budget instead
    of the budgets' CPU time (reproducible: the tests use it)."""
    rows = []
    for view, legal, *_ in found:
        chosen, left, searched, prior, estimates = {}, {}, {}, None, {}
        for i, budget in enumerate(budgets):
            kwargs = {"budget": budget}
            if playouts is not None:
                kwargs = {"budget": None, "playouts": playouts[i]}
            firsts, estimates[budget] = [], []
            for seed in seeds:
                result = expert.evaluate(view, legal, seed=seed, **kwargs)
                estimates[budget].append({
                    key(r["action"]): [r["value"], r["visits"], r["edge"], r["edge_se"]]
                    for r in result
                })  # fmt: skip
                for r in result:
                    searched[key(r["action"])] = r["action"]
                    if r["prior"]:
                        prior = key(r["action"])
                firsts.append(result[0])
            chosen[budget] = [key(first["action"]) for first in firsts]
            left[budget] = [not first["prior"] for first in firsts]
        rows.append({"chosen": chosen, "left": left, "prior": prior, "searched": searched,
                     "estimates": estimates})  # fmt: skip
    return rows


def summary(rows: list[dict], budgets: list[float]) -> list[dict]:
    """Per budget: searches, those that left the hard bot's move, positions where the seeds
    agree, and searches that chose what the same seed chose at the largest budget."""
    top = max(budgets)
    out = []
    for budget in budgets:
        searches = left = agree = as_top = 0
        for row in rows:
            choices, at_top = row["chosen"][budget], row["chosen"][top]
            searches += len(choices)
            left += sum(row["left"][budget])
            agree += len(set(choices)) == 1
            as_top += sum(c == t for c, t in zip(choices, at_top, strict=True))
        out.append({"budget": budget, "positions": len(rows), "searches": searches,
                    "left": left, "agree": agree, "as_top": as_top})  # fmt: skip
    return out


def table(lines: list[dict]) -> str:
    top = max(line["budget"] for line in lines)
    out = [
        f"| budget, s | left hard's move | seeds agree (positions) | as at {top:g} s (same seed) |",
        "| --- | --- | --- | --- |",
    ]
    for line in lines:
        n, p = line["searches"], line["positions"]
        out.append(
            f"| {line['budget']:g} | {line['left']} of {n} | {line['agree']} of {p} "
            f"| {line['as_top']} of {n} |"
        )
    return "\n".join(out)


def which(setup: bool, every: int) -> str:
    """The positions, in words (for the scripts' first line)."""
    return "set-up ticket choices" if setup else f"positions (one decision in {every})"


def position_arguments(parser: argparse.ArgumentParser, count: int) -> None:
    """The options that choose the positions and searches (this script's and
    ``expert_oracle``'s); ``count``: the default number of positions."""
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=count)
    parser.add_argument("--budgets", type=float, nargs="+", default=[0.25, 0.5, 1.0, 2.0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12])
    parser.add_argument(
        "--every", type=int, default=None, help="every n-th decision (default 23, 37 at 3-5)"
    )
    parser.add_argument("--game-seed", type=int, default=500)
    parser.add_argument("--setup", action="store_true", help="the set-up ticket choices")


def every_of(args: argparse.Namespace) -> int:
    """``--every``, or its default for the table size."""
    return args.every or (23 if args.players == 2 else 37)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    position_arguments(parser, 16)
    args = parser.parse_args()
    if len(args.seeds) < 2 or len(args.budgets) < 2:
        parser.error("give at least two seeds and two budgets")
    every = every_of(args)
    start = time.process_time()
    found = positions(args.players, args.positions, every, args.game_seed, setup=args.setup)
    rows = settle(found, args.budgets, args.seeds)
    cpu = time.process_time() - start
    print(
        f"{args.players} players, {len(found)} {which(args.setup, every)} of hard-bot "
        f"games from seed {args.game_seed + 1}, seeds {args.seeds}, {cpu:.0f} s of CPU"
    )
    print(table(summary(rows, args.budgets)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
