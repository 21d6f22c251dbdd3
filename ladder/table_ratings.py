"""What a rated league table shows of its ladder: each player's current rating on the ladder
the table counts for (its league, its time control), and once the table's match is recorded
(``services.match_record``, after the game, by a worker), each player's rating change.

Terms: *pending*, the game is not recorded yet (still playing, being recorded, or a
tournament table, recorded when its tournament ends); *recorded*, its match holds each
player's ``RatingChange``; *annulled*, a league admin annulled the match (no change counts).
The facts are public, like the ladder itself. The table page hears of a recorded or annulled
match through ``match_saved``: every socket at the table is sent the summary again.
"""

from django.db import transaction

from games import broadcast
from ladder import rating
from ladder.models import Match, Pairing, Rating, RatingChange


def table_ratings(table) -> dict:
    """The ``ladder`` facts of a rated league table's summary, with ``seats``: per seat
    position, its ``rating`` (and ``rating_change`` once recorded); the caller spreads them."""
    users = {s.position: s.user_id for s in table.seats.all() if s.user_id is not None}
    rows = Rating.objects.filter(
        league_id=table.league_id, time_control=table.time_control, user_id__in=users.values()
    )
    current = {r.user_id: r for r in rows}
    match = Match.objects.filter(table_id=table.pk).first()
    changes = {}
    if match is not None and not match.annulled:
        changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    seats = {}
    for position, user in users.items():
        row = current.get(user)
        seats[position] = {"rating": _rating(row.rating, row.games) if row else _unrated()}
        if user in changes:
            seats[position]["rating_change"] = _change(changes[user])
    return {
        "league": {"name": table.league.name, "url": table.league.get_absolute_url()},
        "time_control": table.time_control,
        "status": _status(match),
        "by_tournament": Pairing.objects.filter(table_id=table.pk).exists(),
        "seats": seats,
    }


def _status(match) -> str:
    if match is None:
        return "pending"
    return "annulled" if match.annulled else "recorded"


def _rating(value: float, games: int) -> dict:
    provisional = rating.is_provisional(games)
    shown = round(value)
    return {"value": shown, "provisional": provisional, "display": f"{shown}{'?' * provisional}"}


def _unrated() -> dict:
    """A player with no game on this ladder yet: the start rating, provisional."""
    return _rating(rating.START, 0)


def _change(c: RatingChange) -> dict:
    """``delta`` rounded the way the two ratings are, so the page's arithmetic adds up."""
    after = _rating(c.after, c.games_before + 1)
    return {"before": round(c.before), "after": after["value"],
            "delta": after["value"] - round(c.before), "display": after["display"]}  # fmt: skip


def match_saved(sender, instance: Match, **kwargs) -> None:
    """A match was recorded or annulled: the sockets at its table get the summary again
    (after commit: its rating changes are written in the same transaction)."""
    table_id = instance.table_id
    transaction.on_commit(lambda: broadcast.table_changed(table_id))
