"""Bot-against-bot games and their statistics (pure: used by ``manage.py bot_arena``,
``benchmarks/bots.py`` and the tests).

Terms:
- *line-up*: the level of each seat, e.g. ``("hard", "medium", "medium", "medium")``.
- *rotation*: game ``g`` seats the line-up shifted by ``g % seats``, so each level sits in
  every position equally often; the ``seats`` games of one rotation share one deal seed
  (``seed + g // seats``), which makes the comparison paired and lowers the variance.
- *win*: finishing with rank 1 (docs/rules.md 1.5.5, tie-breaks included). When seats still share
  rank 1 after every tie-break, each of them is counted as a winner (``shared_wins`` says how
  often that happened).
- *Wilson interval*: the 95% score interval of a binomial proportion (Wilson 1927), which
  behaves well near 0 and 1 and for small samples.
- *budgeted level*: ``expert@0.5`` is the expert with 0.5 CPU seconds a decision, whatever
  the process's budget; two of them in one line-up (``expert@1,expert@0.25``) play the same
  deals at the same table, so the budgets are compared game by game (*head to head*: in how
  many games one finished above the other) without the ceiling a fixed weaker opponent sets.
"""

from __future__ import annotations

import math
import random
import statistics
import time

from .. import apply_action, current_seats, final_result, legal_actions, new_game, phases, view_for
from . import LEVELS, choose_action, expert

MAX_DECISIONS = 5000  # a safety net: real games take a few hundred decisions


def split_level(level: str) -> tuple[str, float | None]:
    """``"expert@0.5"`` -> ``("expert", 0.5)``; a plain level has no budget of its own.
    ``ValueError`` for an unknown level, a budget on another level than the expert, or a
    budget outside (0, 10] seconds."""
    name, at, budget = level.partition("@")
    if name not in LEVELS:
        raise ValueError(f"unknown level {name!r}; choose from {sorted(LEVELS)}")
    if not at:
        return name, None
    if name != "expert":
        raise ValueError(f"only the expert takes a budget per decision, not {name!r}")
    try:
        seconds = float(budget)
    except ValueError:
        raise ValueError(f"{level!r}: the budget after '@' must be a number of seconds") from None
    if not 0 < seconds <= 10:
        raise ValueError(f"{level!r}: the budget must be more than 0 and at most 10 seconds")
    return name, seconds


def _choose(level: str, view: dict, legal: list, seed: int) -> dict:
    name, budget = split_level(level)
    if budget is None:
        return choose_action(name, view, legal, seed=seed)
    return expert.choose(view, legal, random.Random(seed), budget=budget)


def lineup_for(levels, game: int) -> list:
    k = game % len(levels)
    return list(levels[-k:] + levels[:-k]) if k else list(levels)


def play_game(levels, seed: int, variant: str = "classic", ruleset: str = "europe") -> dict:
    """Play one game; the seats' levels are ``levels``; return its record."""
    state = new_game(ruleset=ruleset, variant=variant, seats=len(levels), seed=seed)
    times: list[list[float]] = [[] for _ in levels]
    decisions = 0
    while state.phase != phases.OVER and decisions < MAX_DECISIONS:
        for seat in current_seats(state):
            legal = legal_actions(state, seat)
            view = view_for(state, seat)
            bot_seed = (seed * 1_000_003 + decisions * 31 + seat) & 0xFFFFFFFF
            start = time.perf_counter()
            action = _choose(levels[seat], view, legal, bot_seed)
            times[seat].append(time.perf_counter() - start)
            apply_action(state, seat, action)
            decisions += 1
            if state.phase != phases.SETUP:
                break
    if state.phase != phases.OVER:
        raise RuntimeError(f"game {seed} did not finish in {MAX_DECISIONS} decisions")
    return _record(levels, seed, final_result(state), times, state.turn, list(state.trains))


def _record(levels, seed, result, times, turns, trains) -> dict:
    players = result["players"]
    winners = [p["seat"] for p in players if p["rank"] == 1]
    return {
        "seed": seed,
        "levels": list(levels),
        "turns": turns,
        "reason": result["reason"],
        "winners": winners,
        "seats": [
            {
                "level": levels[p["seat"]],
                "score": p["score"],
                "rank": p["rank"],
                "completed": p["completed_tickets"],
                "held": len(p["tickets"]),
                "longest_bonus": p["longest_path_bonus"] > 0,
                "stations": p["stations_built"],
                "trains_left": trains[p["seat"]],
                "times": times[p["seat"]],
            }
            for p in players
        ],
    }


def play_rotated(args) -> dict:
    """One game of a rotated series: ``args = (levels, game, seed, variant)``. Its record
    also names the series (line-up, the game's number, base seed, variant and this process's
    expert budget), so that ``bot_arena --report`` can print a kept run again."""
    levels, game, seed, variant = args
    record = play_game(lineup_for(tuple(levels), game), seed + game // len(levels), variant)
    return {
        "lineup": list(levels),
        "game": game,
        "base_seed": seed,
        "variant": variant,
        "expert_budget": expert.process_budget(),
        **record,
    }


def head_to_head(records: list, first: str, second: str) -> tuple[int, int, int]:
    """Games in which the seat of level ``first`` finished above the seat of ``second``,
    below it, and level with it (the same rank); games without exactly one seat of each are
    left out."""
    above = below = level = 0
    for a, b in _one_seat_each(records, first, second):
        above += a["rank"] < b["rank"]
        below += a["rank"] > b["rank"]
        level += a["rank"] == b["rank"]
    return above, below, level


def score_margins(records: list, first: str, second: str) -> list[int]:
    """Per game with exactly one seat of each level: the ``first`` seat's final score minus
    the ``second`` seat's (the same deal at the same table: a paired difference)."""
    return [a["score"] - b["score"] for a, b in _one_seat_each(records, first, second)]


def _one_seat_each(records: list, first: str, second: str):
    """For each game with exactly one seat of each of the two levels: those two seats."""
    for rec in records:
        seats: dict[str, list[dict]] = {}
        for seat in rec["seats"]:
            seats.setdefault(seat["level"], []).append(seat)
        a, b = seats.get(first, ()), seats.get(second, ())
        if len(a) == 1 and len(b) == 1:
            yield a[0], b[0]


def first_level_results(records: list) -> dict[int, tuple[bool, float]]:
    """Per game number: whether the line-up's first level won it, and that seat's score
    minus the mean of the other seats' scores. The first level sits at seat ``game % seats``
    (``lineup_for``), so it is that seat even when another seat has the same level."""
    out = {}
    for rec in records:
        seats = rec["seats"]
        mine = seats[rec["game"] % len(seats)]
        others = [s["score"] for s in seats if s is not mine]
        out[rec["game"]] = (mine["rank"] == 1, mine["score"] - statistics.fmean(others))
    return out


def paired(records: list, before: list) -> dict:
    """Two runs on the same deals (the same seed, variant and seat count), compared game by
    game for the line-up's first level (``first_level_results``), over the games both hold:
    ``games``; its ``wins`` in each run (``now``, ``before``) and the games it won in one
    only (``only_now``, ``only_before``); its mean margin over the other seats in each run,
    and the mean difference of the two margins, game by game, with its 95% interval
    (``difference``: mean, low, high)."""
    now, then = first_level_results(records), first_level_results(before)
    common = sorted(now.keys() & then.keys())
    return {
        "games": len(common),
        "wins": (sum(now[g][0] for g in common), sum(then[g][0] for g in common)),
        "only_now": sum(now[g][0] and not then[g][0] for g in common),
        "only_before": sum(then[g][0] and not now[g][0] for g in common),
        "margins": tuple(
            statistics.fmean(run[g][1] for g in common) if common else 0.0 for run in (now, then)
        ),
        "difference": mean_interval([now[g][1] - then[g][1] for g in common]),
    }


def mean_interval(values: list) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval by Student's t. The t quantile comes from
    the normal one by its Cornish-Fisher expansion: 0.3% below the table at 5 values, within
    0.01% from 10 on."""
    n = len(values)
    if n == 0:
        return 0.0, -math.inf, math.inf
    mean = statistics.fmean(values)
    if n == 1:
        return mean, -math.inf, math.inf
    df = n - 1
    z = statistics.NormalDist().inv_cdf(0.975)
    t = (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )
    half = t * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``wins`` out of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def summarize(records: list) -> dict:
    """Per level: seat-games, wins, win rate and CI, scores, tickets, decision times."""
    out: dict[str, dict] = {}
    for rec in records:
        shared = len(rec["winners"]) > 1
        for seat in rec["seats"]:
            row = out.setdefault(seat["level"], _empty_row())
            row["games"] += 1
            row["wins"] += seat["rank"] == 1
            row["shared_wins"] += seat["rank"] == 1 and shared
            row["scores"].append(seat["score"])
            row["completed"] += seat["completed"]
            row["held"] += seat["held"]
            row["longest"] += seat["longest_bonus"]
            row["stations"] += seat["stations"]
            row["trains_left"] += seat["trains_left"]
            row["times"].extend(seat["times"])
    for row in out.values():
        _finish_row(row)
    return out


def _empty_row() -> dict:
    keys: tuple[str, ...] = ("games", "wins", "shared_wins", "completed", "held", "longest")
    keys += ("stations", "trains_left")
    return {**dict.fromkeys(keys, 0), "scores": [], "times": []}


def _finish_row(row: dict) -> None:
    n = row["games"]
    times = sorted(row.pop("times"))
    scores = row.pop("scores")
    row["win_rate"] = row["wins"] / n if n else 0.0
    row["ci"] = wilson(row["wins"], n)
    row["avg_score"] = statistics.fmean(scores) if scores else 0.0
    row["avg_completed"] = row["completed"] / n if n else 0.0
    row["avg_held"] = row["held"] / n if n else 0.0
    row["completion"] = row["completed"] / row["held"] if row["held"] else 0.0
    row["moves"] = len(times)
    row["median_ms"] = 1000 * statistics.median(times) if times else 0.0
    row["p90_ms"] = 1000 * times[int(0.9 * (len(times) - 1))] if times else 0.0
    row["p99_ms"] = 1000 * times[int(0.99 * (len(times) - 1))] if times else 0.0
    row["worst_ms"] = 1000 * times[-1] if times else 0.0


def format_table(summary: dict) -> str:
    """The per-level table printed by ``bot_arena``."""
    head = (
        f"{'level':<12}{'games':>6}{'wins':>6}{'win rate':>9}  {'95% CI':<15}{'avg score':>10}"
        f"{'tickets done/held':>19}{'compl.':>8}{'moves':>8}{'median ms':>10}{'p99 ms':>8}"
        f"{'worst ms':>9}"
    )
    lines = [head, "-" * len(head)]
    for level, row in summary.items():
        lo, hi = row["ci"]
        lines.append(
            f"{level:<12}{row['games']:>6}{row['wins']:>6}{row['win_rate']:>9.1%}  "
            f"{f'[{lo:.1%}, {hi:.1%}]':<15}{row['avg_score']:>10.1f}"
            f"{row['avg_completed']:>10.2f} / {row['avg_held']:<6.2f}{row['completion']:>8.1%}"
            f"{row['moves']:>8}{row['median_ms']:>10.2f}{row['p99_ms']:>8.1f}{row['worst_ms']:>9.1f}"
        )
    return "\n".join(lines)
