"""One writer per tournament: triggers that race (the last game's result, the beat tick, an
organizer's click) pair and start the next round exactly once (issue 8)."""

import threading

import pytest
from django.db import connection

from ladder import services
from ladder.models import Pairing, PairingSeat, Round, Tournament
from tests.factories import UserFactory
from tests.ladder.factories import finish_table, playing_tables, register, tournament


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_triggers_pair_and_start_the_next_round_once():
    organizer = UserFactory(username="organizer")
    t = tournament(organizer, table_size=4, round_count=3)
    register(t, [UserFactory() for _ in range(16)])
    services.tournament_start_now(tournament_id=t.pk, by=organizer)
    *others, last = playing_tables(t)
    for pairing in others:
        finish_table(pairing)
    start, errors = threading.Barrier(9), []

    def trigger(call):
        try:
            start.wait()
            call()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    calls = [lambda: finish_table(last)]
    calls += [lambda: services.tournament_advance(tournament_id=t.pk) for _ in range(8)]
    threads = [threading.Thread(target=trigger, args=(c,)) for c in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert errors == []
    assert list(Round.objects.filter(tournament=t).values_list("number", "status")) == [
        (1, "finished"), (2, "playing")
    ]  # fmt: skip
    second = Pairing.objects.filter(round__tournament=t, round__number=2)
    assert second.count() == 4 and all(p.table_id for p in second)
    seated = PairingSeat.objects.filter(pairing__in=second).values_list("entry_id", flat=True)
    assert len(seated) == len(set(seated)) == 16
    assert Tournament.objects.get(pk=t.pk).status == "running"
