"""Swiss pairing fairness and speed against naive slicing: simulated tournaments.

Run from the repository root::

    python benchmarks/pairing.py                      # the fairness table, every field
    python benchmarks/pairing.py --players 64 --size 4 --sims 20
    python benchmarks/pairing.py --speed --players 2000 --size 4   # one event, per round

**The workload.** ``--sims`` seeded tournaments per field (seeds 1, 2, ...; fields of
2,000 players play ``--big-sims``) of ``--rounds`` rounds (7) at tables of ``--size`` with
smaller tables allowed (``--no-smaller``: full tables and byes). Ratings are drawn at random
(mean 1500, sd 200). Round 1 is paired by rating, every later round from the current
``ladder.standings.standings``. Each table's finishing order is random, drawn from the
ratings (Plackett–Luce with Elo strengths ``10^(rating / 400)``: the winner in proportion
to strength, then second among the rest, and so on), and scored with the linear scheme.
Each engine plays its own tournament from the same seed (the same ratings; its pairings
make its own standings and history):

- ``naive``: the standings sliced into consecutive tables (``pair_naive``), seats in
  standings order: no repeat avoidance, no seat rotation.
- ``swiss``: ``pair_round`` as the site pairs: with the players' current points (round 1:
  all 0) and ratings.

**The metrics**, each worked out per tournament, then the mean over the simulations (and,
after ±, their standard deviation over the simulations):

- ``repeats``: over all rounds, for each pair of players at one table, the times they had
  met before (a pair that met twice counts 2).
- ``never first``: players who played at least one table and never sat in seat 0 (seat 0
  moves first).
- ``most first``: the most times any one player sat in seat 0 (the maximum over players).
- ``spread``: over every table of rounds 2 and later, the most minus the fewest current
  points (before the round) of its players, on the 12-point scale of the linear scheme
  (a win is 12); the mean over those tables. Round 1 is left out: everyone has 0.
- ``slowest ms``: the slowest single round's pairing, in CPU milliseconds
  (``time.process_time``), over all the field's simulations.

The last line says whether the slowest 2,000-player round paired in under one second.
``--speed`` prints one tournament round by round instead: pairing CPU time (best and
median of ``--repeat`` runs), search nodes, repeats (ours and naive) and spread.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ladder.pairing import Pairing, pair_naive, pair_round  # noqa: E402
from ladder.pairing.history import SeatRecord  # noqa: E402
from ladder.standings import (  # noqa: E402
    BYE_POINTS,
    Bye,
    Entrant,
    Seat,
    coin,
    placement_points,
    standings,
)

FIELDS = (16, 64, 256, 2000)
SIZES = (3, 4, 5)


def finishing_order(table: list[int], ratings: dict[int, float], rng: random.Random):
    """The table's players, winner first, drawn by Plackett–Luce from Elo strengths."""
    left = list(table)
    order = []
    while left:
        weights = [10 ** (ratings[p] / 400) for p in left]
        pick = rng.choices(range(len(left)), weights)[0]
        order.append(left.pop(pick))
    return order


def play(round_no: int, tables, ratings, rng: random.Random) -> list[Seat]:
    """The seats of one round's finished tables (seat order kept)."""
    seats = []
    for t, table in enumerate(tables):
        finish = finishing_order(table, ratings, rng)
        places = [finish.index(p) + 1 for p in table]
        points = placement_points(places)
        for seat, (player, place, pts) in enumerate(zip(table, places, points, strict=True)):
            score = 120 - 20 * place + rng.randint(-15, 15)
            seats.append(Seat(round_no, t, player, place, score, pts, seat))
    return seats


def naive(order, size, smaller, history, seed, points, ratings) -> Pairing:
    """The baseline: consecutive tables, seats in standings order."""
    pairing = pair_naive(order, size=size, allow_smaller=smaller, history=history)
    rank = {p: i for i, p in enumerate(order)}
    pairing.tables = [sorted(t, key=rank.__getitem__) for t in pairing.tables]
    return pairing


def swiss(order, size, smaller, history, seed, points, ratings) -> Pairing:
    """As the site pairs: with the current points (round 1: all 0) and the ratings."""
    return pair_round(
        order, size=size, allow_smaller=smaller, history=history, seed=seed,
        points=points, ratings=ratings,
    )  # fmt: skip


ENGINES = {"naive": naive, "swiss": swiss}


def tournament(engine, players: int, size: int, smaller: bool, rounds: int, seed: int):
    """Play one tournament; yield (round, pairing, CPU seconds, points before the round,
    history before it, order, ratings)."""
    rng = random.Random(seed)
    entrants = [Entrant(i, rng.gauss(1500, 200)) for i in range(1, players + 1)]
    ratings = {e.id: e.rating for e in entrants}
    order = [e.id for e in sorted(entrants, key=lambda e: (-e.rating, -coin(seed, e.id)))]
    points = dict.fromkeys(ratings, 0.0)
    seats: list[Seat] = []
    byes: list[Bye] = []
    history: list[list[int]] = []
    for round_no in range(1, rounds + 1):
        before = dict(points)
        t0 = time.process_time()
        pairing = engine(order, size, smaller, history, seed * 1000 + round_no, before, ratings)
        cpu = time.process_time() - t0
        yield round_no, pairing, cpu, before, history, order, ratings
        played = play(round_no, pairing.tables, ratings, rng)
        for seat in played:
            points[seat.player] += seat.points
        for p in pairing.byes:
            points[p] += BYE_POINTS
        seats += played
        byes += [Bye(round_no, p) for p in pairing.byes]
        history = history + pairing.tables + [[p] for p in pairing.byes]
        order = [row.player for row in standings(entrants, seats, byes, seed=seed)]


def measure(engine, players: int, size: int, smaller: bool, rounds: int, seed: int) -> dict:
    """The metrics of one simulated tournament (see the module's docstring)."""
    repeats, gaps, slowest, history = 0, [], 0.0, []
    for round_no, pairing, cpu, before, history, _order, _ratings in tournament(
        engine, players, size, smaller, rounds, seed
    ):
        repeats += pairing.repeats
        slowest = max(slowest, cpu)
        if round_no > 1:
            gaps += [max(before[p] for p in t) - min(before[p] for p in t) for t in pairing.tables]
        history = history + pairing.tables
    record = SeatRecord(history)
    seated = {p for t in history if len(t) > 1 for p in t}
    return {
        "repeats": repeats,
        "never first": sum(1 for p in seated if record.firsts[p] == 0),
        "most first": max(record.firsts.values(), default=0),
        "spread": statistics.mean(gaps) if gaps else 0.0,
        "slowest": slowest,
    }


def summary(results: list[dict]) -> dict:
    """Mean ± standard deviation over the simulations; the slowest round overall."""
    out = {}
    for name in ("repeats", "never first", "most first", "spread"):
        values = [r[name] for r in results]
        digits = 2 if name in ("spread", "most first") else 1
        sd = statistics.pstdev(values) if len(values) > 1 else 0.0
        out[name] = f"{statistics.mean(values):.{digits}f} ± {sd:.{digits}f}"
    out["slowest ms"] = f"{max(r['slowest'] for r in results) * 1000:,.0f}"
    out["_slowest"] = max(r["slowest"] for r in results)
    return out


def fairness(args) -> list[dict]:
    rows = []
    fields = [args.players] if args.players else FIELDS
    sizes = [args.size] if args.size else SIZES
    for players in fields:
        sims = args.big_sims if players >= 1000 else args.sims
        for size in sizes:
            for name, engine in ENGINES.items():
                results = [
                    measure(engine, players, size, args.smaller, args.rounds, seed)
                    for seed in range(1, sims + 1)
                ]
                row = {"players": f"{players}", "size": f"{size}", "engine": name}
                row["sims"] = f"{sims}"
                rows.append(row | summary(results))
                print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return rows


def speed(args) -> list[dict]:
    """One tournament, round by round."""
    rows = []
    players, size = args.players or 2000, args.size or 4
    for round_no, pairing, _cpu, before, history, order, ratings in tournament(
        swiss, players, size, args.smaller, args.rounds, args.seed
    ):
        times = []
        for _ in range(args.repeat):
            t0 = time.process_time()
            swiss(order, size, args.smaller, history, 0, before, ratings)
            times.append(time.process_time() - t0)
        base = pair_naive(order, size=size, allow_smaller=args.smaller, history=history)
        rows.append(
            {
                "round": f"{round_no}",
                "tables": f"{len(pairing.tables)}",
                "byes": f"{len(pairing.byes)}",
                "best ms": f"{min(times) * 1000:,.1f}",
                "p50 ms": f"{statistics.median(times) * 1000:,.1f}",
                "nodes": f"{pairing.nodes:,}",
                "repeats": f"{pairing.repeats}",
                "naive repeats": f"{base.repeats}",
                "spread": f"{pairing.spread:.2f}",
                "_slowest": max(times),
            }
        )
    return rows


def print_table(rows: list[dict]) -> None:
    columns = [c for c in rows[0] if not c.startswith("_")]
    widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in columns}
    print("  ".join(c.rjust(widths[c]) for c in columns))
    print("  ".join("-" * widths[c] for c in columns))
    for row in rows:
        print("  ".join(row[c].rjust(widths[c]) for c in columns))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, help="one field (default: 16, 64, 256, 2000)")
    parser.add_argument("--size", type=int, help="one table size (default: 3, 4, 5)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--sims", type=int, default=10, help="tournaments per field")
    parser.add_argument("--big-sims", type=int, default=2, help="for 2,000 players")
    parser.add_argument("--no-smaller", dest="smaller", action="store_false")
    parser.add_argument("--speed", action="store_true", help="one event, round by round")
    parser.add_argument("--seed", type=int, default=1, help="with --speed")
    parser.add_argument("--repeat", type=int, default=3, help="with --speed: timed runs")
    args = parser.parse_args(argv)
    smaller = "smaller tables allowed" if args.smaller else "full tables only"
    rows = speed(args) if args.speed else fairness(args)
    print(f"{args.rounds} rounds, {smaller}; CPU time, {time.strftime('%Y-%m-%d %H:%M')}")
    print_table(rows)
    big = [r for r in rows if r.get("players", "2000") == "2000" and r.get("engine") != "naive"]
    if big:
        slowest = max(r["_slowest"] for r in big)
        verdict = "under" if slowest < 1.0 else "NOT under"
        print(f"slowest 2,000-player round: {slowest * 1000:,.0f} ms, {verdict} 1 second")


if __name__ == "__main__":
    main()
