"""Knockouts: rounds in which the top ``advance_count`` of each table go through, seeded by
rating, with byes to the highest seeds, until a final table (docs/tournaments.md
"Knockout"). Called by ``tournament_rounds`` under the tournament lock."""

from django.utils.translation import gettext_lazy

from ladder import standings
from ladder.models import Entry, Pairing, PairingSeat, Round, Tournament
from ladder.pairing import knockout as bracket
from ladder.services.tournaments import notify_entrants


def seeds(t: Tournament, active: dict) -> list[int]:
    """The entrants still in, best seed first: the seeding rating taken at the start, the
    coin for equal ratings (as a Swiss round 1 orders them)."""
    key = lambda e: (-e.rating, -standings.coin(t.seed, e.pk), e.pk)  # noqa: E731
    return [e.pk for e in sorted(active.values(), key=key)]


def seat_round(t: Tournament, round_: Round, active: dict) -> None:
    """Seat the entrants still in (``active``: entry id -> entry) at the round's tables."""
    order = seeds(t, active)
    size, k = t.table_size, t.advance_count
    # The plan from this round on, for the players really here (a withdrawal may shorten it).
    left = len(bracket.plan(len(order), size, k)) if len(order) >= 2 else 1
    if t.round_count != round_.number - 1 + left:
        t.round_count = round_.number - 1 + left
        t.save(update_fields=["round_count"])
    byes, tables = bracket.seat(order, size, k)
    seats = []
    for number, players in enumerate(tables, 1):
        table = Pairing.objects.create(round=round_, number=number)
        seats += [PairingSeat(pairing=table, entry_id=e, seat=i) for i, e in enumerate(players)]
    for number, entry_id in enumerate(byes, len(tables) + 1):
        bye = Pairing.objects.create(
            round=round_, number=number, is_bye=True, status=Pairing.Status.BYE
        )
        seats.append(PairingSeat(pairing=bye, entry_id=entry_id, seat=0, place=1, score=0,
                                 points=standings.BYE_POINTS))  # fmt: skip
    PairingSeat.objects.bulk_create(seats)


def eliminate(t: Tournament, round_: Round) -> bool:
    """The finished ``round_``: mark who went out; whether another round follows.

    The top ``advance_count`` of each table go through (ties at the cut: the standings
    order, i.e. the tie-breaks, then the coin), and every bye; the others are out in this
    round. An entrant who withdrew or was removed is out. After the final nobody is marked:
    its places are the top of the final standings."""
    tables = list(round_.pairings.prefetch_related("seats__entry__user"))
    players = [s.entry for table in tables for s in table.seats.all()]
    final = len(players) <= t.table_size
    order = [row.player for row in t.standings()]
    through, out = [], []
    for table in tables:
        seats = list(table.seats.all())
        active = {s.entry_id: s.place for s in seats if s.entry.is_active}
        if final:
            continue
        if table.is_bye:
            going = set(active)
        else:
            going = set(bracket.advancing(active, order, t.advance_count))
        for s in seats:
            (through if s.entry_id in going else out).append(s.entry)
    if out:
        Entry.objects.filter(pk__in=[e.pk for e in out]).update(eliminated_in=round_.number)
    _mark_leavers(t)
    remaining = t.entries.filter(status=Entry.Status.ACTIVE, eliminated_in__isnull=True).count()
    more = not final and remaining >= 2
    _tell(t, round_, through if more else [], out)
    return more


def _mark_leavers(t: Tournament) -> None:
    """An entrant who withdrew or was removed after playing is out in the last round they
    sat in."""
    left = t.entries.exclude(status=Entry.Status.ACTIVE).filter(eliminated_in__isnull=True)
    rounds = dict(
        PairingSeat.objects.filter(entry__in=left)
        .order_by("entry_id", "pairing__round__number")
        .values_list("entry_id", "pairing__round__number")
    )  # the last round of each: later rows overwrite earlier ones
    for entry_id, number in rounds.items():
        Entry.objects.filter(pk=entry_id).update(eliminated_in=number)


def _tell(t: Tournament, round_: Round, through: list, out: list) -> None:
    nxt = round_.number + 1
    text = gettext_lazy("{name}: you go through to round {round}.")
    notify_entrants(t, text, entries=through, params={"name": t.name, "round": nxt})
    if not out:
        return
    rows = t.standings()
    rank = {row.player: row.rank for row in rows}
    text = gettext_lazy("{name}: you are out in round {round}; you finish {place} of {count}.")
    for entry in out:
        params = {"name": t.name, "round": round_.number, "place": rank.get(entry.pk),
                  "count": len(rows)}  # fmt: skip
        notify_entrants(t, text, entries=[entry], params=params)
