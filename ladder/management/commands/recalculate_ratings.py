"""``manage.py recalculate_ratings [--league SLUG]``: rebuild ladders from the match history."""

import sys
import time

from django.core.management.base import BaseCommand, CommandError

from ladder.models import League
from ladder.services import ladder_recalculate

PHASES = {"read": "reading", "compute": "computing", "write": "writing"}


class ProgressBar:
    """A one-line text progress bar on stderr (redrawn at most ten times a second)."""

    def __init__(self, stream, width: int = 30):
        self.stream, self.width, self.drawn_at = stream, width, 0.0

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.drawn_at < 0.1 and done != total:
            return
        self.drawn_at = now
        if total:
            filled = int(self.width * done / total)
            bar = "#" * filled + "-" * (self.width - filled)
            text = f"\r  {PHASES[phase]:<10} [{bar}] {done:>10,}/{total:,}"
        else:
            text = f"\r  {PHASES[phase]:<10} {done:>10,} matches"
        self.stream.write(text.ljust(70))
        self.stream.flush()

    def finish(self) -> None:
        self.stream.write("\n")


class Command(BaseCommand):
    help = "Rebuild the rating ladders of one league (or all) from their matches, in order."

    def add_arguments(self, parser):
        parser.add_argument("--league", help="the league's slug (default: every league)")

    def handle(self, *args, league=None, **options):
        leagues = League.objects.order_by("pk")
        if league:
            leagues = leagues.filter(slug=league)
            if not leagues:
                raise CommandError(f"No league with the slug {league!r}.")
        for item in leagues:
            self.stdout.write(f"{item.name} ({item.slug})")
            bar = ProgressBar(sys.stderr)
            report = ladder_recalculate(league_id=item.pk, progress=bar)
            bar.finish()
            self.stdout.write(
                self.style.SUCCESS(
                    f"  {report.matches:,} matches, {report.players:,} ratings, "
                    f"{report.rows:,} rating changes in {report.total_seconds:.1f} s"
                )
            )
