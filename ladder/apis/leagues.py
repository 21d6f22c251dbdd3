"""``/api/v1/leagues/...``, ``/api/v1/queue/`` and a player's ladders.

A private league is a 404 to anyone but its members and staff (as on the pages); joining one
needs its invite token.
"""

from collections import defaultdict

from django.db.models import Count
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.apis import parse
from games.models import TimeControl
from ladder import services
from ladder.errors import LadderError
from ladder.models import League, Match, MatchPlayer, QueueEntry, Rating, RatingChange
from ladder.serializers import (
    InviteSerializer,
    LadderRowSerializer,
    LeagueSerializer,
    MatchSerializer,
    MemberSerializer,
    QueueJoinSerializer,
    QueueSerializer,
    RatingChangeSerializer,
    RatingSerializer,
)
from ttr_site.accounts.models import User

TAG = "leagues and ladders"
TC_PARAM = OpenApiParameter("time_control", str, OpenApiParameter.PATH, enum=TimeControl.values)


def visible_league(request, slug: str) -> League:
    """The league if the caller may see it (a private one: members and staff only)."""
    league = League.objects.filter(slug=slug).first()
    if league is None or not league.visible_to(request.user):
        raise LadderError("not_found")
    return league


def league_data(leagues, user) -> list[dict]:
    mine = set()
    if user.is_authenticated:
        mine = set(user.league_memberships.values_list("league_id", flat=True))
    for league in leagues:
        league.is_member = league.pk in mine
    return LeagueSerializer(leagues, many=True).data


def ladder_time_control(league: League, time_control: str) -> str:
    if time_control not in league.time_controls:
        raise LadderError("not_found")
    return time_control


@extend_schema(tags=[TAG], responses=LeagueSerializer(many=True))
class LeagueListApi(generics.GenericAPIView):
    serializer_class = LeagueSerializer

    def get(self, request):
        """Leagues the caller may see: public ones, and private ones they belong to."""
        leagues = League.objects.visible_to(request.user).annotate(
            member_count=Count("memberships", distinct=True)
        )
        page = self.paginate_queryset(leagues.order_by("-is_default", "name", "id"))
        return self.get_paginated_response(league_data(page, request.user))


@extend_schema(tags=[TAG], responses=LeagueSerializer)
class LeagueDetailApi(APIView):
    def get(self, request, slug: str):
        """One league: its rule set, time controls (each a ladder) and members' count."""
        league = visible_league(request, slug)
        league.member_count = league.memberships.count()
        return Response(league_data([league], request.user)[0])


def league_response(request, league_id: int) -> Response:
    league = League.objects.annotate(member_count=Count("memberships")).get(pk=league_id)
    return Response(league_data([league], request.user)[0])


@extend_schema(tags=[TAG], request=InviteSerializer, responses=LeagueSerializer)
class LeagueJoinApi(APIView):
    def post(self, request, slug: str):
        """Become a member (a private league needs its ``invite_token``)."""
        token = parse(InviteSerializer, request.data).get("invite_token")
        league = League.objects.filter(slug=slug).first()
        if league is None or (league.is_private and token != league.invite_token):
            visible_league(request, slug)  # members see it; anyone else gets a 404
        services.league_join(league_id=league.pk, user=request.user, invite_token=token)
        return league_response(request, league.pk)


@extend_schema(tags=[TAG], request=None, responses=LeagueSerializer)
class LeagueLeaveApi(APIView):
    def post(self, request, slug: str):
        """Stop being a member: out of the queue, open challenges withdrawn; ratings stay."""
        league = visible_league(request, slug)
        services.league_leave(league_id=league.pk, user=request.user)
        return league_response(request, league.pk)


@extend_schema(tags=[TAG], responses=MemberSerializer(many=True))
class LeagueMembersApi(generics.GenericAPIView):
    serializer_class = MemberSerializer

    def get(self, request, slug: str):
        """The league's members, admins first."""
        league = visible_league(request, slug)
        members = league.memberships.select_related("user").order_by("role", "user__username")
        page = self.paginate_queryset(members)
        return self.get_paginated_response(MemberSerializer(page, many=True).data)


@extend_schema(tags=[TAG], parameters=[TC_PARAM], responses=LadderRowSerializer(many=True))
class LadderApi(generics.GenericAPIView):
    serializer_class = LadderRowSerializer

    def get(self, request, slug: str, time_control: str):
        """One ladder: the league's current members by rating in one time control."""
        league = visible_league(request, slug)
        tc = ladder_time_control(league, time_control)
        ratings = (
            Rating.objects.filter(league=league, time_control=tc)
            .filter(user_id__in=league.memberships.values("user_id"))
            .select_related("user")
            .order_by("-rating", "user__username")
        )
        page = self.paginate_queryset(ratings)
        first = self.paginator.page.start_index()
        rows = [_ladder_row(first + i, r) for i, r in enumerate(page)]
        return self.get_paginated_response(LadderRowSerializer(rows, many=True).data)


def _ladder_row(rank: int, row: Rating) -> dict:
    return {"rank": rank, "username": row.user.username, "public_name": row.user.public_name,
            "rating": round(row.rating, 1), "provisional": row.provisional, "games": row.games,
            "wins": row.wins}  # fmt: skip


@extend_schema(tags=[TAG], parameters=[TC_PARAM], responses=RatingChangeSerializer(many=True))
class RatingHistoryApi(generics.GenericAPIView):
    serializer_class = RatingChangeSerializer

    def get(self, request, slug: str, time_control: str, username: str):
        """A player's rating history on one ladder, oldest match first."""
        league = visible_league(request, slug)
        tc = ladder_time_control(league, time_control)
        player = User.objects.filter(username=username, is_active=True).first()
        if player is None:
            raise LadderError("not_found")
        changes = RatingChange.objects.filter(
            league=league, time_control=tc, user=player
        ).select_related("match")
        page = self.paginate_queryset(changes.order_by("seq"))
        return self.get_paginated_response([_change(c) for c in page])


def _change(c: RatingChange) -> dict:
    return {"seq": c.seq, "match": c.match_id, "table_id": c.match.table_id,
            "finished_at": c.match.finished_at, "before": round(c.before, 1),
            "after": round(c.after, 1), "delta": round(c.delta, 1), "place": c.place,
            "size": c.size}  # fmt: skip


@extend_schema(tags=[TAG], responses=MatchSerializer(many=True))
class LeagueMatchesApi(generics.GenericAPIView):
    serializer_class = MatchSerializer

    def get(self, request, slug: str):
        """The league's rated results, latest first, with places and rating changes."""
        league = visible_league(request, slug)
        page = self.paginate_queryset(Match.objects.filter(league=league).order_by("-seq"))
        return self.get_paginated_response(MatchSerializer(_matches(page), many=True).data)


def _matches(matches: list[Match]) -> list[dict]:
    deltas = {
        (c.match_id, c.user_id): round(c.delta, 1)
        for c in RatingChange.objects.filter(match__in=matches).only("match_id", "user_id", "delta")
    }
    players = defaultdict(list)
    for p in MatchPlayer.objects.filter(match__in=matches).select_related("user"):
        players[p.match_id].append(
            {
                "username": p.user.username,
                "seat": p.seat,
                "score": p.score,
                "rank": p.rank,
                "place": p.place,
                "abandoned": p.abandoned,
                "delta": deltas.get((p.match_id, p.user_id)),
            }  # fmt: skip
        )
    return [
        {
            "id": m.pk,
            "seq": m.seq,
            "table_id": m.table_id,
            "time_control": m.time_control,
            "size": m.size,
            "finished_at": m.finished_at,
            "annulled": m.annulled,
            "players": players[m.pk],
        }  # fmt: skip
        for m in matches
    ]


@extend_schema(tags=[TAG], responses=RatingSerializer(many=True))
class PlayerRatingsApi(generics.GenericAPIView):
    serializer_class = RatingSerializer
    permission_classes = [AllowAny]

    def get(self, request, username: str):
        """A player's ladders in leagues the caller may see, most played first."""
        player = User.objects.filter(username=username, is_active=True).first()
        if player is None:
            raise LadderError("not_found")
        visible = League.objects.visible_to(request.user)
        ratings = Rating.objects.filter(user=player, league__in=visible).select_related("league")
        page = self.paginate_queryset(ratings.order_by("-games", "league__name", "time_control"))
        return self.get_paginated_response([_rating(r) for r in page])


def _rating(r: Rating) -> dict:
    return {"league": r.league.slug, "league_name": r.league.name,
            "time_control": r.time_control, "rating": round(r.rating, 1),
            "provisional": r.provisional, "games": r.games, "wins": r.wins}  # fmt: skip


@extend_schema(tags=[TAG])
class QueueApi(APIView):
    """The caller's wait for a ranked table (one queue at a time)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=QueueSerializer)
    def get(self, request):
        """Whether (and where) the caller is waiting for a ranked table."""
        entry = QueueEntry.objects.filter(user=request.user).select_related("league").first()
        return Response(QueueSerializer(_queue(entry)).data)

    @extend_schema(request=QueueJoinSerializer, responses={201: QueueSerializer})
    def post(self, request):
        """Wait for a ranked table of ``min_size``..``max_size`` members of a league; the
        matchmaker seats you and the notification socket tells you where."""
        data = parse(QueueJoinSerializer, request.data)
        league = visible_league(request, data.pop("league"))
        entry = services.queue_join(league_id=league.pk, user=request.user, **data)
        return Response(QueueSerializer(_queue(entry)).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request):
        """Stop waiting (refused if the matchmaker has just seated you)."""
        services.queue_leave(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _queue(entry: QueueEntry | None) -> dict:
    if entry is None:
        return {"queued": False}
    return {"queued": True, "league": entry.league.slug, "time_control": entry.time_control,
            "min_size": entry.min_size, "max_size": entry.max_size,
            "rating": round(entry.rating, 1), "joined_at": entry.joined_at}  # fmt: skip
