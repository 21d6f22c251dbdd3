"""The queue under concurrency: 50 players queueing at once are seated once each (issue 7)."""

import random
import threading
from collections import Counter

import pytest
from django.db import connection

from games.models import Seat
from ladder import services
from ladder.models import League, Membership, QueueEntry
from tests.factories import UserFactory
from tests.ladder.conftest import ensure_default_leagues

SIZES = [(2, 2), (3, 3), (4, 4), (5, 5), (3, 4), (2, 5)]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_fifty_players_queueing_at_once_are_seated_once_each(eager_tasks):
    league = (ensure_default_leagues(), League.objects.get(slug="europe"))[1]
    rng = random.Random(50)
    users = [UserFactory() for _ in range(50)]
    Membership.objects.bulk_create(Membership(league=league, user=u) for u in users)
    wanted = {u.pk: rng.choice(SIZES) for u in users}
    start, errors = threading.Barrier(len(users)), []

    def queue(user):
        try:
            start.wait()
            low, high = wanted[user.pk]
            # queue_join triggers the matchmaker on commit (eager here): 50 runs overlap
            services.queue_join(league_id=league.pk, user=user, time_control="realtime",
                                min_size=low, max_size=high)  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=queue, args=(u,)) for u in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    services.queue_match(league_id=league.pk)

    seats = list(Seat.objects.filter(table__league=league).select_related("table"))
    seated = Counter(s.user_id for s in seats)
    assert max(seated.values()) == 1  # never twice
    waiting = set(QueueEntry.objects.values_list("user_id", flat=True))
    assert not waiting & set(seated)  # seated players left the queue
    assert set(seated) | waiting == {u.pk for u in users}  # nobody lost
    for seat in seats:  # every table has a size its players asked for
        low, high = wanted[seat.user_id]
        assert low <= seat.table.seat_count <= high
        assert seat.table.rated and seat.table.status == "playing"
