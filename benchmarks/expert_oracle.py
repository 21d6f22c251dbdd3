"""The expert's choices at each budget, graded by hard bots playing the real game on.

Run from the repository root::

    .venv/bin/python benchmarks/expert_oracle.py [--players 2] [--positions 24] \\
        [--budgets 0.25 0.5 1 2] [--seeds 11 12] [--games 64]

``expert_settle`` shows which decisions a larger budget changes, not whether the changes
are better. This grades them. The positions and searches are ``expert_settle``'s (turn
decisions of hard-bot games, each searched at every budget with every seed). Then every
candidate the searches looked at is played by the *oracle*: in the game's true state, which
the searches never see, the candidate is played and the game goes on to its final scoring
with the hard bot in every seat (the arena's opponents, and the expert's own seat as the
hard bot would play it), ``--games`` times. Each time the deck and the ticket deck are
shuffled again (nobody has seen their order) and the engine's rng is drawn anew, the same
for every candidate of the position (common random numbers). A candidate's oracle value is
its mean *reward* (``expert_world.reward`` of the final scores: the margin over the best
other seat, squashed into 0..1, what the search maximizes) and its *win share* (1 for a
win, 1/k for a k-way tie for first).

Printed per budget, over the searches (positions x seeds):

- *gain*: the oracle's reward of the choice minus that of the hard bot's move, the mean
  with a 95% interval (positions are the independent units); and the same in wins;
- *departures rated better*: of the searches that left the hard bot's move, those whose
  choice the oracle values above it.

And per position set, the *oracle's best*: the mean gain of the candidate the oracle rates
highest (biased upwards by its own noise: an upper bound of what better choices could win).

The oracle has its own bias (the seat plays on as the hard bot, not as the expert), but not
the search's: where the search's rollouts misjudge a move, hard bots playing it out do not
share the misjudgement. If the choices gain more with each budget, the budget buys
strength the arena's 50-game points are too coarse to show; if the gain is flat, the budget
settles decisions the oracle cannot tell apart. Pure engine. A game played on costs about
50 ms of CPU from a 2-player turn, 60 from a 4-player one, 75 and 125 from a set-up; a
position has 5-12 candidates, so ``--positions 24 --games 64`` plays about 12,000 games after
the searches (10-25 minutes).

Two codes' choices, side by side: run this with ``--json new.json`` in one, then with
``--grades new.json --json old.json`` in the other (only the candidates it adds are played
on), and ``--report new.json --before old.json`` prints, per budget, the oracle's reward of
one's choices minus the other's, paired by position.

Another rule for leaving the hard bot's move, without searching again: ``--report run.json
--rules 2:0 1:0.01`` makes each kept search's choice again from its estimates (the expert's
``ranked`` with ``CONFIDENCE`` 2, ``PRIOR_EDGE`` 0, and so on) and grades those choices.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import expert_settle  # noqa: E402
from games.engine import phases  # noqa: E402
from games.engine.actions import apply_action, current_seats, legal_actions  # noqa: E402
from games.engine.bots import choose_action, expert, rollout  # noqa: E402
from games.engine.bots import expert_world as world  # noqa: E402
from games.engine.views import view_for  # noqa: E402


def play_to_end(state, seat: int, action: dict, seed: int, policy: str = "hard"):
    """``action`` played by ``seat`` in a copy of ``state`` (its decks shuffled again and
    its rng drawn anew from ``seed``), then the game to its end: by hard bots in every seat,
    or (``policy`` "rollout") by the expert's rollout policy, as its search plays a world on
    (a set-up's ticket choices still open kept as the hard bot would, as the search's worlds
    keep them). The final state."""
    rng = random.Random(seed)
    s = world.clone(state)
    rng.shuffle(s.deck)
    rng.shuffle(s.ticket_deck)
    s.rng = rng.getrandbits(64)
    apply_action(s, seat, action)
    step = 0
    while s.phase != phases.OVER:
        if policy == "rollout" and s.phase != phases.SETUP:
            rollout.play_out(s, rollout.plans_for(s), rng)
            break
        who = current_seats(s)[0]
        legal = legal_actions(s, who)
        action = legal[0]
        if len(legal) > 1:
            view = view_for(s, who, log_since=s.log_base + len(s.log))
            # each step's bot seed depends on the game and the step alone: candidates that
            # reach the same situations meet the same choices
            action = choose_action("hard", view, legal, seed * 7919 + step)
        apply_action(s, who, action)
        step += 1
    return s


def play_on(state, seat: int, action: dict, seed: int) -> tuple[float, float]:
    """``action`` played by ``seat`` in a copy of ``state``, then the game to its end by hard
    bots (``play_to_end``): (reward, win share) of ``seat``."""
    s = play_to_end(state, seat, action, seed)
    scores = [float(p["score"]) for p in s.final["players"]]
    best = max(scores)
    win = 1 / scores.count(best) if scores[seat] == best else 0.0
    return world.reward(scores, seat)[0], win


def grade(state, seat: int, actions: dict, games: int, seed: int) -> dict:
    """key -> (mean reward, mean win share, each game's reward) of each action of ``actions``
    (key -> action) over ``games`` games played on (``play_on``; game k seeded the same for
    every action, so two actions' rewards pair game by game)."""
    out = {}
    for key, action in actions.items():
        rewards, wins = [], []
        for k in range(games):
            r, w = play_on(state, seat, action, seed * 100_003 + k)
            rewards.append(r)
            wins.append(w)
        out[key] = (statistics.fmean(rewards), statistics.fmean(wins), rewards)
    return out


def summary(rows: list[dict], grades: list[dict], budgets: list[float]) -> list[dict]:
    """Per budget: the mean gain of the choices over the hard bot's move (reward and wins,
    each with a 95% interval over positions), departures and those rated better; and a
    last line (budget None) for the oracle's best candidate."""
    out = []
    for budget in [*budgets, None]:
        per_reward, per_win = [], []  # per position: mean over its seeds
        left = better = 0
        for row, marks in zip(rows, grades, strict=True):
            base = marks[row["prior"]]
            if budget is None:
                choices = [max(marks, key=lambda k: marks[k][0])]
            else:
                choices = row["chosen"][budget]
            per_reward.append(statistics.fmean(marks[c][0] - base[0] for c in choices))
            per_win.append(statistics.fmean(marks[c][1] - base[1] for c in choices))
            for c in choices:
                if c != row["prior"]:
                    left += 1
                    better += marks[c][0] > base[0]
        out.append({"budget": budget, "positions": len(rows), "gain": _interval(per_reward),
                    "win_gain": _interval(per_win), "left": left, "better": better})  # fmt: skip
    return out


def _interval(values: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): a normal 95% interval of the mean."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def paired(rows: list[dict], before: list[dict], grades: list[dict]) -> list[dict]:
    """Per budget both runs searched at: the oracle's reward of this run's choices minus that
    of ``before``'s (the rows of another code's run of the same positions), each position's
    difference the mean over its seeds, with a 95% interval over positions (``grades``: both
    runs' candidates, played on in the same games)."""
    out = []
    for budget in [b for b in rows[0]["chosen"] if b in before[0]["chosen"]]:
        diffs, changed = [], 0
        for row, old, marks in zip(rows, before, grades, strict=True):
            now = statistics.fmean(marks[c][0] for c in row["chosen"][budget])
            was = statistics.fmean(marks[c][0] for c in old["chosen"][budget])
            diffs.append(now - was)
            changed += row["chosen"][budget] != old["chosen"][budget]
        out.append({"budget": budget, "diff": _interval(diffs), "changed": changed})
    return out


def paired_table(lines: list[dict], positions: int) -> str:
    out = [
        "| budget | this run's choices minus the earlier run's: reward | positions chosen "
        "otherwise |",
        "| --- | --- | --- |",
    ]
    for line in lines:
        d = line["diff"]
        out.append(
            f"| {float(line['budget']):g} s | {d[0]:+.4f} [{d[1]:+.4f}, {d[2]:+.4f}] "
            f"| {line['changed']} of {positions} |"
        )
    return "\n".join(out)


def rechosen(rows: list[dict], confidence: float, prior_edge: float) -> list[dict]:
    """``rows`` with each search's choice made again from its kept estimates by
    ``expert.ranked`` under another rule for leaving the hard bot's move (``confidence``
    standard errors above ``prior_edge``): what the same searches would have chosen."""
    out = []
    for row in rows:
        chosen = {}
        for budget, searches in row["estimates"].items():
            chosen[budget] = []
            for estimates in searches:
                if any(len(e) < 4 for e in estimates.values()):
                    raise SystemExit("this run kept no edges: run it again to choose anew")
                found = [
                    {"key": k, "value": v, "visits": n, "edge": e, "edge_se": se,
                     "prior": k == row["prior"]}
                    for k, (v, n, e, se) in estimates.items()
                ]  # fmt: skip
                chosen[budget].append(expert.ranked(found, confidence, prior_edge)[0]["key"])
        out.append({**row, "chosen": chosen})
    return out


def report(path: Path, before: Path | None, rules: list[tuple[float, float]] = ()) -> str:
    """The tables of a kept ``--json`` file; with ``before`` (a file of the same positions
    and games, from other code) the paired difference of the two runs' choices; with
    ``rules`` ((confidence, prior edge) pairs) the table again for the choices each rule
    makes from the same searches (``rechosen``)."""
    run = json.loads(path.read_text())
    budgets = [float(b) for b in run["rows"][0]["chosen"]]

    def floats(rows: list[dict]) -> list[dict]:
        return [{**r, "chosen": {float(b): c for b, c in r["chosen"].items()}} for r in rows]

    out = [table(summary(floats(run["rows"]), run["grades"], budgets))]
    for confidence, prior_edge in rules:
        rows = floats(rechosen(run["rows"], confidence, prior_edge))
        out.append(f"\nchosen again: CONFIDENCE={confidence:g}, PRIOR_EDGE={prior_edge:g}")
        out.append(table(summary(rows, run["grades"], budgets)[:-1]))
    if before is not None:
        earlier = json.loads(before.read_text())
        if earlier["positions"] != run["positions"] or earlier["games"] != run["games"]:
            raise SystemExit(f"{before} is about other positions, or over another --games")
        grades = [{**a, **b} for a, b in zip(earlier["grades"], run["grades"], strict=True)]
        missing = [
            c for r, marks in zip(earlier["rows"], grades, strict=True)
            for chosen in r["chosen"].values() for c in chosen if c not in marks
        ]  # fmt: skip
        if missing:
            raise SystemExit(f"no grade for {len(missing)} choices of {before}")
        out.append(f"\n{path} minus {before}, paired by position:")
        out.append(paired_table(paired(run["rows"], earlier["rows"], grades), len(grades)))
    return "\n".join(out)


def table(lines: list[dict]) -> str:
    out = [
        "| choice | gain over hard's move: reward | in wins, points | departures rated better |",
        "| --- | --- | --- | --- |",
    ]
    for line in lines:
        name = "the oracle's best" if line["budget"] is None else f"{line['budget']:g} s"
        g, w = line["gain"], line["win_gain"]
        out.append(
            f"| {name} | {g[0]:+.4f} [{g[1]:+.4f}, {g[2]:+.4f}] "
            f"| {100 * w[0]:+.1f} [{100 * w[1]:+.1f}, {100 * w[2]:+.1f}] "
            f"| {line['better']} of {line['left']} |"
        )
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    expert_settle.position_arguments(parser, 24)
    parser.add_argument("--games", type=int, default=64, help="games played on per candidate")
    parser.add_argument("--json", type=Path, help="also write the searches and grades here")
    parser.add_argument(
        "--grades",
        type=Path,
        help="a --json file of the same positions and --games: its grades are used, and only "
        "the candidates it lacks are played on",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a constant of the expert for the searches (a variant, probed; e.g. CONFIDENCE=2)",
    )
    parser.add_argument(
        "--report",
        type=Path,
        metavar="FILE",
        help="search and play nothing: print the tables of a --json FILE",
    )
    parser.add_argument(
        "--before",
        type=Path,
        metavar="FILE",
        help="with --report: also the paired difference of FILE's choices (a --json file of "
        "the same positions from other code, graded with --grades of the reported one) and "
        "the reported run's",
    )
    parser.add_argument(
        "--rules",
        nargs="+",
        default=[],
        type=_rule,
        metavar="C:E",
        help="with --report: also the choices the same searches make when a candidate leaves "
        "the hard bot's move only with an edge over C standard errors above E (the expert's "
        "CONFIDENCE and PRIOR_EDGE), e.g. 1:0.01 2:0",
    )
    args = parser.parse_args()
    if args.report:
        print(report(args.report, args.before, args.rules))
        return 0
    if args.before or args.rules:
        parser.error("--before and --rules go with --report")
    for item in args.set:
        name, _, value = item.partition("=")
        if not hasattr(expert, name):
            parser.error(f"the expert has no constant {name}")
        setattr(expert, name, type(getattr(expert, name))(value))
    every = expert_settle.every_of(args)
    start = time.process_time()
    found = expert_settle.positions(
        args.players, args.positions, every, args.game_seed, states=True, setup=args.setup
    )
    known = [{} for _ in found]
    if args.grades:  # checked before the searches, which take minutes
        earlier = json.loads(args.grades.read_text())
        if earlier["positions"] != where(found) or earlier.get("games") != args.games:
            parser.error(f"{args.grades} grades other positions, or over another --games")
        known = earlier["grades"]
    rows = expert_settle.settle(found, args.budgets, args.seeds)
    searched = time.process_time() - start
    grades = []
    for i, ((view, _legal, state), row) in enumerate(zip(found, rows, strict=True)):
        todo = {k: a for k, a in row["searched"].items() if k not in known[i]}
        marks = grade(state, view["you"]["seat"], todo, args.games, i + 1)
        grades.append({**known[i], **marks})
    graded = time.process_time() - start - searched
    print(
        f"{args.players} players, {len(found)} {expert_settle.which(args.setup, every)} of "
        f"hard-bot games from seed {args.game_seed + 1}, seeds {args.seeds}, {args.games} games "
        f"played on per candidate; CPU: searches {searched:.0f} s, oracle {graded:.0f} s"
        + "".join(f"; the expert's {item}" for item in args.set)
    )
    print(table(summary(rows, grades, args.budgets)))
    if args.json:
        out = {"positions": where(found), "games": args.games, "rows": rows, "grades": grades}
        args.json.write_text(json.dumps(out))
    return 0


def _rule(text: str) -> tuple[float, float]:
    """A ``--rules`` item: ``CONFIDENCE:PRIOR_EDGE``."""
    confidence, sep, edge = text.partition(":")
    try:
        if sep:
            return float(confidence), float(edge)
    except ValueError:
        pass
    raise argparse.ArgumentTypeError("takes CONFIDENCE:PRIOR_EDGE pairs, e.g. 1:0.01")


def where(found: list) -> list:
    return [{"seat": v["you"]["seat"], "turn": v["turn"]} for v, _, _ in found]


if __name__ == "__main__":
    raise SystemExit(main())
