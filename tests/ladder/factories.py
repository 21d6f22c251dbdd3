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
