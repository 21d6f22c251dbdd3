"""Demo rated history for ``manage.py seed_demo``: cheap, idempotent, clearly synthetic.

The demo players join the default Europe league and get a few dozen finished rated results
(no moves: these tables have no replay), so the ladder, the profile charts and the accuracy
page have something to show on a fresh install. Nothing is added once the league has matches.
"""

import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Seat, Table
from ladder import services, stock_texts
from ladder.models import League, Membership

GAMES = 48
# Hidden strengths, so the ladder has a shape: alice strongest, dave weakest.
STRENGTH = {"alice": 1650, "bob": 1550, "carol": 1480, "dave": 1400}


def seed_rated_history(users: dict, *, seed: int = 7) -> int:
    """Add demo results to the Europe league; returns how many were added (0 if any exist)."""
    league = League.objects.filter(slug="europe").first()
    if league is None or league.matches.exists():
        return 0
    rng = random.Random(seed)
    start = timezone.now() - timedelta(days=GAMES)
    with transaction.atomic():
        for user in users.values():
            Membership.objects.get_or_create(league=league, user=user)
        for n in range(GAMES):
            names = rng.sample(sorted(users), rng.choice((2, 3, 4, 4)))
            _record(league, [users[x] for x in names], _ranks(names, rng), start, n)
    return GAMES


def _ranks(names, rng) -> list[int]:
    perf = [STRENGTH[x] + rng.gauss(0, 200) for x in names]
    return [1 + sum(1 for q in perf if q > p) for p in perf]


def _record(league, seated, ranks, start, n) -> None:
    when = start + timedelta(days=n, hours=17 + n % 5)
    table = Table.objects.create(
        ruleset=league.ruleset, variant=league.variant, seat_count=len(seated),
        time_control="realtime", rated=True, league=league, owner=seated[0],
        status=Table.Status.FINISHED, started_at=when - timedelta(minutes=45), finished_at=when,
    )  # fmt: skip
    Seat.objects.bulk_create(Seat(table=table, position=i, user=u) for i, u in enumerate(seated))
    players = [{"seat": i, "rank": r, "score": 130 - 15 * r} for i, r in enumerate(ranks)]
    services.match_record(table_id=table.pk, result={"players": players})


def seed_demo_tournaments(users: dict, organizer, *, now=None, bots_play=True) -> list[str]:
    """An upcoming Swiss and an upcoming arena the demo players entered, and (unless one is
    waiting or running) a short bots' Swiss that starts two minutes from now, open to join,
    and a bots' knockout a minute later: a new install shows rounds pairing and starting by
    themselves, and a bracket filling (``bots_play`` False: not those two). Returns the names
    of what was added."""
    from ladder.models import Tournament

    now = now or timezone.now()
    added = []
    if not Tournament.objects.filter(slug="sunday-swiss").exists():
        sunday = _demo_tournament(organizer, "Sunday Swiss", now + timedelta(days=3),
                                  round_count=5, checkin_minutes=30)  # fmt: skip
        for name in ("alice", "bob", "carol"):
            services.tournament_register(tournament_id=sunday.pk, user=users[name])
        for level in ("hard", "medium", "medium", "easy", "easy"):
            services.entry_add_bot(tournament_id=sunday.pk, by=organizer, level=level)
        added.append(sunday.name)
    waiting = Tournament.objects.filter(
        name="Bot Blitz", status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING]
    )
    if bots_play and not waiting.exists():
        blitz = _demo_tournament(organizer, "Bot Blitz", now + timedelta(minutes=2),
                                 round_count=3, move_seconds=30, round_break_seconds=20,
                                 late_registration_rounds=2)  # fmt: skip
        for level in ("hard", "hard", "medium", "medium", "medium", "easy", "easy"):
            services.entry_add_bot(tournament_id=blitz.pk, by=organizer, level=level)
        added.append(blitz.name)
    cup = Tournament.objects.filter(
        name="Knockout Cup", status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING]
    )
    if bots_play and not cup.exists():
        cup = _demo_tournament(organizer, "Knockout Cup", now + timedelta(minutes=3),
                               format="knockout", table_size=3, advance_count=1,
                               move_seconds=30, round_break_seconds=20)  # fmt: skip
        for level in ("hard", "hard", "medium", "medium", "medium", "easy", "easy"):
            services.entry_add_bot(tournament_id=cup.pk, by=organizer, level=level)
        added.append(cup.name)
    if not Tournament.objects.filter(slug="friday-arena").exists():
        arena = _demo_tournament(organizer, "Friday Arena", now + timedelta(days=2),
                                 format="arena", duration_minutes=60,
                                 bot_fill_seconds=60)  # fmt: skip
        for name in ("alice", "bob"):
            services.tournament_register(tournament_id=arena.pk, user=users[name])
        added.append(arena.name)
    return added


def _demo_tournament(organizer, name, starts_at, **settings):
    settings = {"table_size": 4, "allow_smaller": True, **settings}
    return services.tournament_create(
        by=organizer, name=name, starts_at=starts_at, description=stock_texts.DEMO_TOURNAMENT,
        **settings,
    )  # fmt: skip
