"""Read models for the league pages and the profile: ladders, form, charts, accuracy."""

from collections import defaultdict

from django.core.cache import cache
from django.db.models import Exists, F, OuterRef, Window
from django.db.models.functions import RowNumber

from games.models import Game, Seat, Table, TimeControl
from ladder import charts, rating
from ladder.models import League, Match, MatchPlayer, Rating, RatingChange

FORM_GAMES = 5
TREND_GAMES = 10


def ladder_rows(league: League, time_control: str, limit: int = 100) -> list[dict]:
    """Ranked current members of one ladder with their form and trend."""
    members = league.memberships.values("user_id")
    ratings = list(
        Rating.objects.filter(league=league, time_control=time_control, user_id__in=members)
        .select_related("user")
        .order_by("-rating", "user__username")[:limit]
    )
    recent = _recent_changes(league, time_control, [r.user_id for r in ratings])
    rows = []
    for rank, row in enumerate(ratings, 1):
        changes = recent.get(row.user_id, [])
        trend = [c["before"] for c in changes[:1]] + [c["after"] for c in changes]
        rows.append(
            {
                "rank": rank,
                "user": row.user,
                "rating": round(row.rating),
                "provisional": row.provisional,
                "games": row.games,
                "wins": row.wins,
                "form": [
                    {"place": c["place"], "size": c["size"], "win": c["place"] == 1}
                    for c in reversed(changes[-FORM_GAMES:])
                ],
                "trend": round(sum(c["delta"] for c in changes)),
                "sparkline": charts.sparkline(trend),
            }
        )
    return rows


def _recent_changes(league, time_control, user_ids) -> dict[int, list[dict]]:
    """The last ``TREND_GAMES`` rating changes of each user, oldest first."""
    if not user_ids:
        return {}
    numbered = (
        RatingChange.objects.filter(league=league, time_control=time_control, user_id__in=user_ids)
        .annotate(n=Window(RowNumber(), partition_by=F("user_id"), order_by=F("seq").desc()))
        .filter(n__lte=TREND_GAMES)
        .values("user_id", "seq", "before", "after", "delta", "place", "size")
    )
    by_user = defaultdict(list)
    for change in sorted(numbered, key=lambda c: c["seq"]):
        by_user[change["user_id"]].append(change)
    return by_user


def recent_matches(league: League, limit: int = 30) -> list[dict]:
    """The latest matches with their players by place and rating changes."""
    matches = list(
        Match.objects.filter(league=league)
        .select_related("table", "annulled_by")
        .annotate(has_game=Exists(Game.objects.filter(table=OuterRef("table"))))[:limit]
    )
    deltas = {
        (c.match_id, c.user_id): c.delta
        for c in RatingChange.objects.filter(match__in=matches).only("match_id", "user_id", "delta")
    }
    players = defaultdict(list)
    for p in MatchPlayer.objects.filter(match__in=matches).select_related("user"):
        players[p.match_id].append({"player": p, "delta": deltas.get((p.match_id, p.user_id))})
    return [{"match": m, "players": players[m.pk]} for m in matches]


def accuracy(league: League, time_control: str | None = None) -> dict:
    """How often the higher-rated player finished ahead, over the counted history (cached)."""
    changes = RatingChange.objects.filter(league=league)
    if time_control:
        changes = changes.filter(time_control=time_control)
    key = f"ladder:accuracy:{league.pk}:{time_control}:{league.next_seq}:{changes.count()}"
    found = cache.get(key)
    if found is None:
        found = _measure(changes)
        cache.set(key, found, 3600)
    return found


def _measure(changes) -> dict:
    everyone, established = rating.Accuracy(), rating.Accuracy()
    table: list = []
    current = None
    rows = changes.order_by("seq", "match_id").values_list(
        "match_id", "before", "place", "games_before"
    )
    for match_id, before, place, games in rows.iterator(chunk_size=10_000):
        if match_id != current:
            _add(everyone, established, table)
            table, current = [], match_id
        table.append((before, place, games))
    _add(everyone, established, table)
    return {"all": _summary(everyone), "established": _summary(established)}


def _add(everyone, established, table) -> None:
    if len(table) < 2:
        return
    everyone.add([t[0] for t in table], [t[1] for t in table])
    settled = [t for t in table if not rating.is_provisional(t[2])]
    if len(settled) >= 2:
        established.add([t[0] for t in settled], [t[1] for t in settled])


def _summary(acc: rating.Accuracy) -> dict:
    def pct(x):
        return None if x is None else round(100 * x, 1)

    bands = [
        b | {"observed_pct": pct(b["observed"]), "expected_pct": pct(b["expected"])}
        for b in acc.band_rows()
    ]
    return {
        "pairs": acc.pairs,
        "decided": acc.decided,
        "correct": acc.correct,
        "share_pct": pct(acc.share_correct),
        "brier": None if acc.brier is None else round(acc.brier, 4),
        "bands": bands,
    }


def profile_ratings(player, viewer) -> list[dict]:
    """The player's ladders (visible to the viewer), each with its rating history chart."""
    visible = League.objects.visible_to(viewer)
    rows = (
        Rating.objects.filter(user=player, league__in=visible)
        .select_related("league")
        .order_by("-games")[:6]
    )
    ladders = []
    for row in rows:
        history = list(
            RatingChange.objects.filter(
                user=player, league=row.league, time_control=row.time_control
            )
            .order_by("seq")
            .values_list("before", "after")
        )
        values = [history[0][0]] + [after for _, after in history] if history else []
        ladders.append(
            {
                "rating": row,
                "time_control": TimeControl(row.time_control).label,
                "chart": charts.rating_chart(values[-200:]),
            }
        )
    return ladders


def profile_games(player, viewer, limit: int = 10) -> list[dict]:
    """The player's latest finished games, rated or not, with replay links."""
    tables = list(
        Table.objects.visible_to(viewer)
        .filter(status=Table.Status.FINISHED, seats__user=player)
        .select_related("league")
        .annotate(has_game=Exists(Game.objects.filter(table=OuterRef("pk"))))
        .order_by("-finished_at", "-id")[:limit]
    )
    seats = {
        s.table_id: s
        for s in Seat.objects.filter(table__in=tables, user=player).only("table_id", "position")
    }
    changes = {
        c.match.table_id: c
        for c in RatingChange.objects.filter(user=player, match__table__in=tables).select_related(
            "match"
        )
    }
    return [{"table": t, "seat": seats.get(t.pk), "change": changes.get(t.pk)} for t in tables]
