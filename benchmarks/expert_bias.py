"""Where the expert's rollouts misjudge: its playouts against hard bots playing the same moves on.

Run from the repository root::

    .venv/bin/python benchmarks/expert_bias.py --setup [--players 2] [--positions 12] \\
        [--worlds 8] [--oracle FILE]

The expert's search values a move by playing it on with its cheap rollout policy
(``bots.rollout``); ``expert_oracle`` grades the same moves by hard bots playing on, the
arena's opponents. Where the two disagree about a kind of move, the search chooses it too
often or too seldom. This prints, per kind of move (at set-up: how many tickets kept, and
whether the long one is among them; in a turn: the action's type):

- with ``--worlds N``: every candidate of ``expert_settle``'s positions played on ``N`` times
  from the true state, by the rollout policy and by hard bots, on the same deck orders: the
  moving seat's mean reward, route points, ticket points and tickets failed, the best other
  seat's score, the game's length in turns and the seat's longest-path bonus points
  (``expert_oracle.play_to_end``);
- with ``--oracle FILE`` (an ``expert_oracle --json`` file of the same positions): each
  candidate's value, as the search estimated it at ``--budget`` and as the oracle graded it,
  less the mean of its position's candidates; their mean per kind, the gap between them (the
  search's bias), and the Pearson correlation of the two over all candidates.

Pure engine. ``--setup --positions 12 --worlds 8`` plays about 2,000 games a policy: about 2
minutes of CPU at 2 players.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import expert_oracle, expert_settle  # noqa: E402
from games.engine.bots import expert  # noqa: E402
from games.engine.bots import expert_world as world  # noqa: E402
from games.engine.bots.hard import Hard  # noqa: E402

POLICIES = ("rollout", "hard")


def kind(action: dict, long_tickets: set) -> str:
    """The kind of move a row of the tables is about (see module docstring)."""
    if action["type"] == "keep_tickets":
        kept = action["tickets"]
        longs = "with the long" if any(t in long_tickets for t in kept) else "no long"
        return f"{len(kept)} kept, {longs}"
    return action["type"]


def outcome(final, seat: int) -> tuple[float, ...]:
    """(reward, route points, ticket points, tickets failed, best other seat's score, turns,
    longest-path bonus points) of ``seat``."""
    players = final.final["players"]
    scores = [float(p["score"]) for p in players]
    best_other = max(v for s, v in enumerate(scores) if s != seat)
    mine = players[seat]
    failed = sum(not t["completed"] for t in mine["tickets"])
    return (world.reward(scores, seat)[0], mine["route_points"], mine["ticket_points"],
            failed, best_other, final.turn, mine["longest_path_bonus"])  # fmt: skip


def policies(found: list, searched: list[dict], worlds: int) -> dict:
    """(kind, policy) -> outcomes of every candidate of ``searched`` (per position: key ->
    action) played on ``worlds`` times by each policy, world k the same for both."""
    out: dict[tuple[str, str], list] = {}
    for i, ((view, _legal, state), actions) in enumerate(zip(found, searched, strict=True)):
        seat = view["you"]["seat"]
        longs = {t.id for t in state.board.tickets if t.kind == "long"}
        for action in actions.values():
            for policy in POLICIES:
                for k in range(worlds):
                    final = expert_oracle.play_to_end(
                        state, seat, action, (i + 1) * 100_003 + k, policy
                    )
                    out.setdefault((kind(action, longs), policy), []).append(outcome(final, seat))
    return out


def policy_table(results: dict) -> str:
    lines = [
        "| move | games | reward: rollout / hard | route points | ticket points "
        "| tickets failed | best other seat | turns | longest-path bonus |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name in sorted({k for k, _ in results}):
        roll, hard = results[(name, "rollout")], results[(name, "hard")]
        cells = []
        formats = ("{:.3f}", "{:.1f}", "{:.1f}", "{:.2f}", "{:.1f}", "{:.1f}", "{:.2f}")
        for col, fmt in enumerate(formats):
            a = statistics.fmean(r[col] for r in roll)
            b = statistics.fmean(r[col] for r in hard)
            cells.append(f"{fmt.format(a)} / {fmt.format(b)}")
        lines.append(f"| {name} | {len(roll)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def deviations(found: list, rows: list, grades: list, budget: str, least: int) -> list:
    """Per candidate the search estimated on at least ``least`` worlds (its seeds' worlds
    pooled) at ``budget`` and the oracle graded: (kind, search's value less its position's
    mean, oracle's value less its position's mean)."""
    out = []
    for (_view, _legal, state), row, marks in zip(found, rows, grades, strict=True):
        longs = {t.id for t in state.board.tickets if t.kind == "long"}
        pooled: dict[str, list] = {}
        for estimates in row["estimates"][budget]:
            for key, (value, visits, *_) in estimates.items():
                total = pooled.setdefault(key, [0.0, 0])
                total[0] += value * visits
                total[1] += visits
        keys = [k for k, (_, n) in pooled.items() if n >= least and k in marks]
        if len(keys) < 2:
            continue
        search = {k: pooled[k][0] / pooled[k][1] for k in keys}
        oracle = {k: marks[k][0] for k in keys}
        mean_s, mean_o = statistics.fmean(search.values()), statistics.fmean(oracle.values())
        for k in keys:
            action = row["searched"][k]
            out.append((kind(action, longs), search[k] - mean_s, oracle[k] - mean_o))
    return out


def pearson(a: list[float], b: list[float]) -> float:
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    num = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True))
    den = math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))
    return num / den if den else 0.0


def deviation_table(devs: list) -> str:
    lines = [
        "| move | candidates | search, about its position's mean | oracle | search's bias |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name in sorted({d[0] for d in devs}):
        sel = [d for d in devs if d[0] == name]
        s = statistics.fmean(d[1] for d in sel)
        o = statistics.fmean(d[2] for d in sel)
        lines.append(f"| {name} | {len(sel)} | {s:+.4f} | {o:+.4f} | {s - o:+.4f} |")
    r = pearson([d[1] for d in devs], [d[2] for d in devs])
    lines.append(f"\nsearch against oracle over {len(devs)} candidates: Pearson {r:.3f}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    expert_settle.position_arguments(parser, 12)
    parser.add_argument("--worlds", type=int, default=0, help="games per candidate and policy")
    parser.add_argument("--oracle", type=Path, help="an expert_oracle --json file")
    parser.add_argument("--budget", default="2.0", help="the --oracle file's budget to read")
    parser.add_argument("--least", type=int, default=20, help="worlds a search estimate needs")
    args = parser.parse_args()
    if not args.worlds and not args.oracle:
        parser.error("give --worlds, --oracle or both")
    every = expert_settle.every_of(args)
    found = expert_settle.positions(
        args.players, args.positions, every, args.game_seed, states=True, setup=args.setup
    )
    what = expert_settle.which(args.setup, every)
    oracle = None
    if args.oracle:
        oracle = json.loads(args.oracle.read_text())
        if oracle["positions"] != expert_oracle.where(found):
            parser.error(f"{args.oracle} is about other positions (--positions, --game-seed)")
    if args.worlds:
        if oracle is not None:
            searched = [row["searched"] for row in oracle["rows"]]
        else:
            searched = [
                {
                    expert_settle.key(a): a
                    for a in expert.searched(Hard(view, legal, random.Random(0)), view, legal)
                }
                for view, legal, _ in found
            ]
        print(f"{args.players} players, {len(found)} {what}, {args.worlds} games a candidate")
        print(policy_table(policies(found, searched, args.worlds)))
    if oracle is not None:
        print(f"\n{args.oracle}: the searches at {args.budget} s against the oracle")
        devs = deviations(found, oracle["rows"], oracle["grades"], args.budget, args.least)
        print(deviation_table(devs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
