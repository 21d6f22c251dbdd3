"""factory-boy factories and tiny builders for ladder tests."""

import factory
from django.utils import timezone

from games.models import Seat, Table
from ladder.models import League, Membership
from tests.factories import UserFactory


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")
    ruleset = "europe"
    variant = "classic"


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    league = factory.SubFactory(LeagueFactory)
    user = factory.SubFactory(UserFactory)


def finished_table(league, users, *, time_control="realtime") -> Table:
    """A finished rated table of ``league`` with ``users`` in seats 0..n-1 (no game rows)."""
    table = Table.objects.create(
        ruleset=league.ruleset,
        variant=league.variant,
        seat_count=len(users),
        time_control=time_control,
        rated=True,
        league=league,
        owner=users[0],
        status=Table.Status.FINISHED,
        started_at=timezone.now(),
        finished_at=timezone.now(),
    )
    Seat.objects.bulk_create(Seat(table=table, position=i, user=u) for i, u in enumerate(users))
    return table


def result(*ranks, scores=None) -> dict:
    """An engine-shaped final result: seat i has rank ``ranks[i]``."""
    scores = scores or [100 - 10 * r for r in ranks]
    return {
        "reason": "last_round",
        "players": [
            {"seat": i, "rank": r, "score": s}
            for i, (r, s) in enumerate(zip(ranks, scores, strict=True))
        ],
    }


# --- tournaments ------------------------------------------------------------------------------


def tournament(organizer, **settings):
    """A tournament announced by ``organizer``, starting in an hour (no break between rounds)."""
    from datetime import timedelta

    from ladder import services

    settings.setdefault("name", "Spring Cup")
    settings.setdefault("round_break_seconds", 0)
    starts = settings.pop("starts_at", timezone.now() + timedelta(hours=1))
    return services.tournament_create(by=organizer, starts_at=starts, **settings)


def register(t, users) -> list:
    """Register each user (their entries, in order)."""
    from ladder import services

    return [services.tournament_register(tournament_id=t.pk, user=u) for u in users]


def playing_tables(t):
    """The current round's tables still being played, by table number."""
    from ladder.models import Pairing

    return list(
        Pairing.objects.filter(round__tournament=t, status=Pairing.Status.PLAYING)
        .select_related("table")
        .order_by("round__number", "number")
    )


def finish_table(pairing, ranks=None, *, scores=None, abandoned=()) -> None:
    """End ``pairing``'s live game as the engine would: ``ranks[i]`` is seat i's rank
    (default: seat order), then report it the way the game_finished task does."""
    from ladder import services

    size = pairing.seats.count()
    ranks = ranks or list(range(1, size + 1))
    scores = scores or [100 - 10 * r for r in ranks]
    Table.objects.filter(pk=pairing.table_id).update(
        status=Table.Status.FINISHED, finished_at=timezone.now()
    )
    players = [
        {"seat": i, "rank": r, "score": s}
        for i, (r, s) in enumerate(zip(ranks, scores, strict=True))
    ]
    services.tournament_game_finished(
        table_id=pairing.table_id,
        result={"reason": "last_round", "players": players},
        abandoned=list(abandoned),
    )


def finish_round(t, ranking=None) -> None:
    """Finish every table in play; ``ranking(pairing)`` gives its ranks (default seat order)."""
    for pairing in playing_tables(t):
        finish_table(pairing, ranking(pairing) if ranking else None)
