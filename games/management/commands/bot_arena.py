"""``manage.py bot_arena``: bots play each other; prints win rates and decision times.

Django is only the command shell here: the games run on the pure engine
(``games.engine.bots.arena``), one process per worker. Seats rotate every game so each
level sits in every position equally; a tie for first (after docs/rules.md 1.5.5 tie-breaks)
counts as a win for each tied seat.
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
import sys
import time
import zlib
from multiprocessing import Pool

from django.core.management.base import BaseCommand, CommandError

from games.engine import VARIANTS
from games.engine.bots import expert
from games.engine.bots.arena import (
    format_table,
    head_to_head,
    mean_interval,
    paired,
    play_rotated,
    score_margins,
    split_level,
    summarize,
    wilson,
)


class Command(BaseCommand):
    help = "Play bot-against-bot games and print win rates (95% Wilson CIs) and move times."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument(
            "--players",
            default="hard,medium,medium,medium",
            help="a level per seat; expert@SECONDS: the expert with its own budget per decision",
        )
        parser.add_argument("--variant", default="classic")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--first",
            type=int,
            default=0,
            metavar="N",
            help="the first game's number (0): games N to N+games-1 are the same deals as in a "
            "run from 0, so a long run can be split between processes or machines and its "
            "--records files reported together",
        )
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
        parser.add_argument("--chart", default=None, help="write a PNG bar chart here")
        parser.add_argument(
            "--records",
            default=None,
            metavar="FILE",
            help="write each game's record to FILE as it ends (JSON lines): a long run "
            "interrupted keeps the games it played, and --report reads them back",
        )
        parser.add_argument(
            "--report",
            default=None,
            nargs="+",
            metavar="FILE",
            help="play nothing: print the report of the games in the FILEs (written by "
            "--records; one run, or the parts of one run played with --first)",
        )
        parser.add_argument(
            "--against",
            default=None,
            nargs="+",
            metavar="FILE",
            help="with --report: compare with the run in these FILEs game by game, on the "
            "deals both played (the same seed, variant and seat count): the line-up's first "
            "level's wins in each and its margin over the other seats, paired",
        )
        parser.add_argument(
            "--expert-budget",
            type=float,
            default=expert.DEFAULT_BUDGET,
            help="CPU seconds per decision of the expert bot",
        )

    def handle(self, *args, **opts):
        if opts["against"] and not opts["report"]:
            raise CommandError("--against goes with --report")
        if opts["report"]:
            levels, records, elapsed = _read_records(opts["report"], "--report")
            first = records[0]
            opts.update(seed=first["base_seed"], variant=first["variant"])
            opts["expert_budget"] = first["expert_budget"]
        else:
            levels = [p.strip() for p in opts["players"].split(",") if p.strip()]
            self._check(levels, opts)
            games = range(opts["first"], opts["first"] + opts["games"])
            jobs = [(levels, g, opts["seed"], opts["variant"]) for g in games]
            start = time.perf_counter()
            workers = max(1, opts["workers"])
            records = self._play(jobs, workers, opts["expert_budget"], opts["records"])
            elapsed = time.perf_counter() - start
        summary = summarize(records)
        summary = {lv: summary[lv] for lv in dict.fromkeys(levels)}
        self._report(levels, opts, records, summary, elapsed)
        if opts["against"]:
            self.stdout.write(_paired_line(records, opts["against"]))
        if opts["chart"]:
            self.stdout.write(write_chart(opts["chart"], summary, title=",".join(levels)))

    def _check(self, levels, opts) -> None:
        for level in levels:
            try:
                split_level(level)
            except ValueError as exc:
                raise CommandError(str(exc)) from None
        if not 2 <= len(levels) <= 5:
            raise CommandError("--players needs 2 to 5 levels")
        if opts["variant"] not in VARIANTS["europe"]:
            raise CommandError(f"unknown variant; choose from {VARIANTS['europe']}")
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        if opts["first"] < 0:
            raise CommandError("--first must be 0 or more")
        if not 0 < opts["expert_budget"] <= 10:
            raise CommandError("--expert-budget must be more than 0 and at most 10 seconds")

    def _play(self, jobs, workers: int, budget: float, records_path: str | None) -> list:
        records: list[dict] = []
        total = len(jobs)
        with contextlib.ExitStack() as stack:
            out = None
            if records_path:
                try:
                    out = stack.enter_context(open(records_path, "w", encoding="utf-8"))
                except OSError as exc:
                    raise CommandError(f"--records: {exc}") from None
            start = time.perf_counter()

            def keep(rec: dict) -> None:
                records.append(rec)
                if out:
                    line = {**rec, "elapsed": round(time.perf_counter() - start, 1)}
                    out.write(json.dumps(line, separators=(",", ":")) + "\n")
                    out.flush()
                _progress(len(records), total)

            if workers == 1:
                expert.set_budget(budget)
                for rec in map(play_rotated, jobs):
                    keep(rec)
            else:
                with Pool(workers, initializer=expert.set_budget, initargs=(budget,)) as pool:
                    for rec in pool.imap_unordered(play_rotated, jobs, chunksize=1):
                        keep(rec)
        sys.stderr.write("\n")
        records.sort(key=lambda r: r["game"])
        return records

    def _report(self, levels, opts, records, summary, elapsed) -> None:
        shared = sum(1 for r in records if len(r["winners"]) > 1)
        turns = sum(r["turns"] for r in records) / len(records)
        self.stdout.write(
            f"{len(records)} games of {','.join(levels)} ({opts['variant']}, seed {opts['seed']},"
            f" seats rotated every game) in {elapsed:.0f} s; {turns:.0f} turns per game"
            + (f"; expert budget {opts['expert_budget']:g} s" if "expert" in levels else "")
        )
        self.stdout.write(format_table(summary))
        for line in _head_to_head_lines(levels, records):
            self.stdout.write(line)
        self.stdout.write(
            f"Wins: rank 1 after the tie-breaks of docs/rules.md 1.5.5; a shared first place counts"
            f" as a win for each tied seat ({shared} game(s) had one). 'games' counts seats, so"
            f" a level on several seats plays several seat-games per game. Times: per decision"
            f" of choose_action."
        )


def _head_to_head_lines(levels: list, records: list) -> list[str]:
    """Each pair of levels that hold one seat each: in how many games each finished above
    the other (the same deals at the same table: a paired comparison)."""
    single = [lv for lv in dict.fromkeys(levels) if levels.count(lv) == 1]
    lines = []
    for i, first in enumerate(single):
        for second in single[i + 1 :]:
            above, below, level = head_to_head(records, first, second)
            decided = above + below
            if not decided:
                continue
            lo, hi = wilson(above, decided)
            margin, m_lo, m_hi = mean_interval(score_margins(records, first, second))
            lines.append(
                f"head to head: {first} above {second} in {above} of {decided} games"
                f" ({above / decided:.1%}, 95% CI [{lo:.1%}, {hi:.1%}]), below in {below},"
                f" level in {level}; score {first} minus {second} {margin:+.1f} a game"
                f" (95% CI [{m_lo:+.1f}, {m_hi:+.1f}])"
            )
    return lines


def _paired_line(records: list, paths) -> str:
    """``--against``: this run and the one in ``paths``, game by game (``arena.paired``)."""
    _levels, before, _elapsed = _read_records(paths, "--against")
    shape = ("base_seed", "variant")
    if any(records[0][k] != before[0][k] for k in shape) or len(records[0]["seats"]) != len(
        before[0]["seats"]
    ):
        raise CommandError("--against: that run played other deals (seed, variant or seats)")
    p = paired(records, before)
    if not p["games"]:
        raise CommandError("--against: the two runs have no game number in common")
    level = records[0]["lineup"][0]
    (now, then), (margin, margin_before) = p["wins"], p["margins"]
    mean, low, high = p["difference"]
    return (
        f"against {' '.join(_as_list(paths))}, on the {p['games']} deals both played:"
        f" {level} won {now} in this run and {then} in that one ({p['only_now']} only in this,"
        f" {p['only_before']} only in that); its score minus the others' mean {margin:+.1f}"
        f" against {margin_before:+.1f}, a difference of {mean:+.1f} a game"
        f" (95% CI [{low:+.1f}, {high:+.1f}])"
    )


def _as_list(paths) -> list[str]:
    return [paths] if isinstance(paths, str) else list(paths)  # call_command passes a str


def _read_records(paths, option: str) -> tuple[list, list, float]:
    """The line-up, the records and the elapsed seconds of one run's ``--records`` files
    (the parts of a run split with ``--first``: the same line-up, deals and budget, each game
    once)."""
    records = []
    for path in _as_list(paths):
        try:
            with open(path, encoding="utf-8") as f:
                found = [json.loads(line) for line in f if line.strip()]
        except (OSError, ValueError) as exc:
            raise CommandError(f"{option}: cannot read {path}: {exc}") from None
        keys = ("lineup", "game", "base_seed", "variant", "expert_budget", "seats")
        if not found or any(
            not isinstance(r, dict) or not all(k in r for k in keys) for r in found
        ):
            raise CommandError(f"{option}: {path} holds no game records written by --records")
        records += found
    for key, what in (("lineup", "line-ups"), ("base_seed", "seeds"), ("variant", "variants")):
        values = {json.dumps(r[key]) for r in records}
        if len(values) != 1:
            raise CommandError(f"{option}: the records mix {what}: {', '.join(sorted(values))}")
    if len({r["expert_budget"] for r in records}) != 1:
        raise CommandError(f"{option}: the records mix expert budgets")
    records.sort(key=lambda r: r["game"])
    numbers = [r["game"] for r in records]
    twice = sorted({g for g, after in zip(numbers, numbers[1:], strict=False) if g == after})
    if twice:
        raise CommandError(f"{option}: game(s) {twice} recorded more than once")
    return list(records[0]["lineup"]), records, max(r.get("elapsed", 0.0) for r in records)


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    bar = "#" * filled + "." * (width - filled)
    sys.stderr.write(f"\r[{bar}] {done}/{total} games")
    sys.stderr.flush()


def write_chart(path: str, summary: dict, title: str) -> str:
    """A PNG bar chart of win rates with 95% CI bars; returns a line to print."""
    try:
        import matplotlib
    except ImportError:
        _plain_png(path, summary)
        order = ", ".join(summary)
        return (
            f"Chart written to {path} without labels (matplotlib is not installed): bars left"
            f" to right are {order}; whiskers are the 95% CIs; the grid is every 10%."
        )
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    levels = list(summary)
    rates = [summary[lv]["win_rate"] for lv in levels]
    errors = [
        [r - summary[lv]["ci"][0] for lv, r in zip(levels, rates, strict=True)],
        [summary[lv]["ci"][1] - r for lv, r in zip(levels, rates, strict=True)],
    ]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.bar(levels, rates, yerr=errors, capsize=6, color="#4c78a8")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    return f"Chart written to {path}"


def _plain_png(path: str, summary: dict, width: int = 360, height: int = 240) -> None:
    """Bars, CI whiskers and a 10% grid drawn pixel by pixel (no dependency)."""
    white, grid, bar, ink = (255, 255, 255), (220, 220, 220), (76, 120, 168), (0, 0, 0)
    px = [[white] * width for _ in range(height)]

    def y_of(rate: float) -> int:
        return height - 1 - int(rate * (height - 11))

    for k in range(11):
        for x in range(width):
            px[y_of(k / 10)][x] = grid
    slot = width // max(1, len(summary))
    for i, row in enumerate(summary.values()):
        left, right = i * slot + slot // 4, (i + 1) * slot - slot // 4
        for y in range(y_of(row["win_rate"]), height):
            for x in range(left, right):
                px[y][x] = bar
        mid = (left + right) // 2
        lo, hi = (y_of(v) for v in row["ci"])
        for y in range(hi, lo + 1):
            px[y][mid] = ink
        for y in (lo, hi):
            for x in range(mid - 6, mid + 7):
                px[y][x] = ink
    raw = b"".join(b"\x00" + bytes(c for p in line for c in p) for line in px)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
    with open(path, "wb") as f:
        f.write(png + chunk(b"IEND", b""))
