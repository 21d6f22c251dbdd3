"""Recording rated results and annulling them.

A finished rated table of a league becomes one ``Match`` (idempotent: the table is unique),
numbered in recording order under the league's lock, and moves the ratings of its ladder
with ``rating.Ladder.play``: the same function, fed the same order, that a recalculation
replays, so both give the same numbers to the last bit.
"""

from django.db import transaction
from django.utils import timezone

from games.models import Table
from ladder import rating
from ladder.errors import LadderError
from ladder.models import Match, MatchPlayer, Rating, RatingChange
from ladder.services.leagues import locked_league
from ttr_site.jobs import enqueue


def match_record(*, table_id: int, result: dict, abandoned=()) -> Match | None:
    """Record the final ``result`` of a rated league table (engine ``final_result``).

    ``abandoned``: seat positions handed to a bot, placed last. Seats without a player are
    not rated. Returns the match (the existing one when called again), or None if the table
    is not a rated league table.
    """
    table = Table.objects.filter(pk=table_id, rated=True, league__isnull=False).first()
    if table is None:
        return None
    with transaction.atomic():
        league = locked_league(table.league_id)
        existing = Match.objects.filter(table_id=table_id).first()
        if existing is not None:
            return existing
        players = _players(table, result, set(abandoned))
        if len(players) < 2:
            return None
        match = Match.objects.create(
            league=league,
            table=table,
            time_control=table.time_control,
            seq=league.next_seq,
            size=len(players),
            finished_at=table.finished_at or timezone.now(),
        )
        league.next_seq += 1
        league.save(update_fields=["next_seq"])
        MatchPlayer.objects.bulk_create(MatchPlayer(match=match, **p) for p in players)
        _rate(match, players)
    return match


def _players(table: Table, result: dict, abandoned: set) -> list[dict]:
    """The rated seats in seat order (the order a recalculation reads them in)."""
    users = {s.position: s.user_id for s in table.seats.all() if s.user_id is not None}
    rows = sorted((p for p in result["players"] if p["seat"] in users), key=lambda p: p["seat"])
    flags = [p["seat"] in abandoned for p in rows]
    places = rating.effective_places([p["rank"] for p in rows], flags)
    return [
        {
            "user_id": users[p["seat"]],
            "seat": p["seat"],
            "score": p["score"],
            "rank": p["rank"],
            "place": place,
            "abandoned": flag,
        }
        for p, place, flag in zip(rows, places, flags, strict=True)
    ]


def _rate(match: Match, players: list[dict]) -> None:
    """Apply one match to its ladder. Caller holds the league lock."""
    user_ids = [p["user_id"] for p in players]
    ladder_rows = Rating.objects.filter(
        league_id=match.league_id, time_control=match.time_control, user_id__in=user_ids
    )
    current = {r.user_id: r for r in ladder_rows}
    ladder = rating.Ladder({u: [r.rating, r.games, r.wins] for u, r in current.items()})
    places = [p["place"] for p in players]
    changes = ladder.play(user_ids, places)
    RatingChange.objects.bulk_create(
        _change_row(match, user, before, after, games, place)
        for (user, before, after, games), place in zip(changes, places, strict=True)
    )
    for user in user_ids:
        value, games, wins = ladder.players[user]
        row = current.get(user) or Rating(
            league_id=match.league_id, user_id=user, time_control=match.time_control
        )
        row.rating, row.games, row.wins, row.last_seq = value, games, wins, match.seq
        row.save()


def _change_row(match, user, before, after, games, place) -> RatingChange:
    return RatingChange(
        match=match,
        user_id=user,
        league_id=match.league_id,
        time_control=match.time_control,
        seq=match.seq,
        before=before,
        after=after,
        delta=after - before,
        games_before=games,
        place=place,
        size=match.size,
    )


def match_annul(*, match_id: int, by) -> Match:
    """A league admin annuls a match; the ladder is rebuilt without it (after commit)."""
    with transaction.atomic():
        league_id = Match.objects.filter(pk=match_id).values_list("league_id", flat=True).first()
        if league_id is None:
            raise LadderError("match_not_found")
        league = locked_league(league_id)
        if not league.is_admin(by):
            raise LadderError("not_admin")
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise LadderError("match_not_found")
        if match.annulled:
            raise LadderError("already_annulled")
        match.annulled, match.annulled_by, match.annulled_at = True, by, timezone.now()
        match.save(update_fields=["annulled", "annulled_by", "annulled_at"])
        transaction.on_commit(lambda: _schedule_recalculation(league.pk))
    return match


def _schedule_recalculation(league_id: int) -> None:
    enqueue("ladder.tasks.recalculate", league_id)
