"""Swiss pairing speed and repeats: a simulated tournament, round by round.

Run from the repository root::

    python benchmarks/pairing.py [--players 2000] [--size 4] [--rounds 7] [--seed 1]
    python benchmarks/pairing.py --no-smaller   # only full tables, byes for the leftover

Ratings are drawn at random (mean 1500, sd 200). Round 1 is paired by rating, every later
round from the current ``ladder.standings.standings``. Each table's finishing order is
drawn from the ratings (Plackett–Luce with Elo strengths ``10^(rating / 400)``: the winner
is drawn in proportion to strength, then second among the rest, and so on); places are
scored with the linear scheme and game points are made up from the place.

One row per round: players, tables, byes, the pairing time of ``pair_round`` (best and
median of ``--repeat`` runs), the search nodes it used, the repeats it left, the repeats of
``pair_naive`` (the standings cut into consecutive tables) on the same standings and
history, the repeats avoided, and the displacement paid for them (docs/tournaments.md,
"Pairing"). The last line says whether the slowest round paired in under one second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ladder.pairing import pair_naive, pair_round  # noqa: E402
from ladder.standings import (  # noqa: E402
    Bye,
    Entrant,
    Seat,
    coin,
    placement_points,
    standings,
)


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
    """The seats of one round's finished tables."""
    seats = []
    for t, table in enumerate(tables):
        finish = finishing_order(table, ratings, rng)
        places = [finish.index(p) + 1 for p in table]
        points = placement_points(places)
        for player, place, pts in zip(table, places, points, strict=True):
            score = 120 - 20 * place + rng.randint(-15, 15)
            seats.append(Seat(round_no, t, player, place, score, pts))
    return seats


def timed(args, order, history, seed) -> tuple[list[float], object]:
    """``--repeat`` pairing times in seconds and the pairing."""
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        pairing = pair_round(
            order, size=args.size, allow_smaller=args.smaller, history=history, seed=seed
        )
        times.append(time.perf_counter() - t0)
    return times, pairing


def simulate(args) -> list[dict]:
    """Play the tournament; one result row per round."""
    rng = random.Random(args.seed)
    entrants = [Entrant(i, rng.gauss(1500, 200)) for i in range(1, args.players + 1)]
    ratings = {e.id: e.rating for e in entrants}
    order = [e.id for e in sorted(entrants, key=lambda e: (-e.rating, -coin(args.seed, e.id)))]
    seats: list[Seat] = []
    byes: list[Bye] = []
    history: list[list[int]] = []
    rows = []
    for round_no in range(1, args.rounds + 1):
        times, pairing = timed(args, order, history, args.seed * 1000 + round_no)
        naive = pair_naive(order, size=args.size, allow_smaller=args.smaller, history=history)
        rows.append(
            {
                "round": f"{round_no}",
                "players": f"{len(order)}",
                "tables": f"{len(pairing.tables)}",
                "byes": f"{len(pairing.byes)}",
                "best ms": f"{min(times) * 1000:,.1f}",
                "p50 ms": f"{statistics.median(times) * 1000:,.1f}",
                "nodes": f"{pairing.nodes:,}",
                "repeats": f"{pairing.repeats}",
                "naive repeats": f"{naive.repeats}",
                "avoided": f"{naive.repeats - pairing.repeats}",
                "displacement": f"{pairing.displacement:,}",
                "_slowest": max(times),
            }
        )
        seats += play(round_no, pairing.tables, ratings, rng)
        byes += [Bye(round_no, p) for p in pairing.byes]
        history += pairing.tables + [[p] for p in pairing.byes]
        order = [row.player for row in standings(entrants, seats, byes, seed=args.seed)]
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
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per round")
    parser.add_argument("--no-smaller", dest="smaller", action="store_false")
    args = parser.parse_args(argv)
    rows = simulate(args)
    smaller = "smaller tables allowed" if args.smaller else "full tables only"
    print(f"{args.players} players, tables of {args.size} ({smaller}), seed {args.seed}")
    print_table(rows)
    slowest = max(rows, key=lambda r: r["_slowest"])
    verdict = "under" if slowest["_slowest"] < 1.0 else "NOT under"
    print(
        f"slowest round: {slowest['round']} at {slowest['_slowest'] * 1000:,.1f} ms, "
        f"{verdict} 1 second"
    )


if __name__ == "__main__":
    main()
