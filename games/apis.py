"""REST adapters of the live tables (``/api/v1/tables/...``, ``/api/v1/boards/...``).

Thin: parse with a serializer, call one service, answer with the same plain data the pages
and sockets use. Game reads go through the one redaction (``game_view_for_user``,
``GameEvent.entries_for``); a private table is a 404 to anyone not seated at it.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from games import engine, services
from games.errors import GameError
from games.models import Game, GameEvent, Table
from games.presenters import table_summary
from games.serializers import (
    RULESETS,
    ActionSerializer,
    AddBotSerializer,
    AnalysisSerializer,
    GameEventSerializer,
    GameFrameSerializer,
    JoinSerializer,
    TableCreateSerializer,
    TableSerializer,
)
from games.services import analysis as analysis_services
from ttr_site.api.throttling import ActionThrottle, AnonThrottle, UserThrottle

TAG = "tables and games"


def parse(serializer_class, data):
    """Validated data of a request body or query (``invalid`` with ``fields`` otherwise)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def visible_table(request, table_id: int) -> Table:
    """The table if the caller may see it (``Table.visible_to``), else ``not_found``."""
    table = Table.objects.prefetch_related("seats__user").filter(pk=table_id).first()
    if table is None or not table.visible_to(request.user):
        raise GameError("not_found")
    return table


def summary_response(request, table_id: int, http=status.HTTP_200_OK) -> Response:
    table = Table.objects.prefetch_related("seats__user").get(pk=table_id)
    return Response(TableSerializer(table_summary(table, request.user)).data, status=http)


class TableFilterSerializer(serializers.Serializer):
    status = serializers.ChoiceField(Table.Status.choices, required=False)
    mine = serializers.BooleanField(required=False, help_text="only tables where I hold a seat")


@extend_schema(tags=[TAG])
class TableListApi(generics.GenericAPIView):
    """Tables the caller may see, newest first; open a new one."""

    serializer_class = TableSerializer

    @extend_schema(parameters=[TableFilterSerializer], responses=TableSerializer(many=True))
    def get(self, request):
        query = parse(TableFilterSerializer, request.query_params)
        tables = Table.objects.visible_to(request.user).prefetch_related("seats__user")
        if "status" in query:
            tables = tables.filter(status=query["status"])
        if query.get("mine") and request.user.is_authenticated:
            tables = tables.filter(seats__user=request.user)
        page = self.paginate_queryset(tables.order_by("-created_at", "-id"))
        data = [table_summary(t, request.user) for t in page]
        return self.get_paginated_response(TableSerializer(data, many=True).data)

    @extend_schema(request=TableCreateSerializer, responses={201: TableSerializer})
    def post(self, request):
        data = parse(TableCreateSerializer, request.data)
        table = services.table_create(owner=request.user, **data)
        return summary_response(request, table.pk, status.HTTP_201_CREATED)


@extend_schema(tags=[TAG], responses=TableSerializer)
class TableDetailApi(APIView):
    def get(self, request, table_id: int):
        """One table: rules, clock, status and seats."""
        table = visible_table(request, table_id)
        return Response(TableSerializer(table_summary(table, request.user)).data)


@extend_schema(tags=[TAG], request=JoinSerializer, responses=TableSerializer)
class TableJoinApi(APIView):
    def post(self, request, table_id: int):
        """Take a free seat (a private table needs its ``invite_token``); the game starts by
        itself when the last seat is filled."""
        token = parse(JoinSerializer, request.data).get("invite_token")
        table = Table.objects.prefetch_related("seats").filter(pk=table_id).first()
        invited = table is not None and (not table.is_private or token == table.invite_token)
        if not invited and (table is None or table.seat_of(request.user) is None):
            raise GameError("not_found")  # a private table stays invisible without its link
        services.table_join(table_id=table_id, user=request.user, invite_token=token)
        return summary_response(request, table_id)


@extend_schema(tags=[TAG], request=None, responses=TableSerializer)
class TableInviteApi(APIView):
    def post(self, request, table_id: int):
        """The owner replaces the table's invite link (``invite_url``, ``invite_token``): the
        old one stops working at once."""
        visible_table(request, table_id)
        services.table_invite_rotate(table_id=table_id, by=request.user)
        return summary_response(request, table_id)


@extend_schema(tags=[TAG], request=None, responses=TableSerializer)
class TableLeaveApi(APIView):
    def post(self, request, table_id: int):
        """Give up your seat: before the start it is freed (the owner closes the table);
        during the game a bot plays it on, it counts as abandoned (placed last) and it cannot
        be taken back."""
        visible_table(request, table_id)
        services.table_leave(table_id=table_id, user=request.user)
        return summary_response(request, table_id)


@extend_schema(tags=[TAG], request=None, responses=TableSerializer)
class TableTakeBackApi(APIView):
    def post(self, request, table_id: int):
        """Take back your seat a bot took over after timeouts (``can_take_back``): you play
        it again from its next decision. A seat you gave up (``leave/``) cannot be taken back
        (409 ``seat_conceded``)."""
        visible_table(request, table_id)
        services.table_take_back(table_id=table_id, user=request.user)
        return summary_response(request, table_id)


@extend_schema(tags=[TAG], request=AddBotSerializer, responses={201: TableSerializer})
class TableBotsApi(APIView):
    def post(self, request, table_id: int):
        """The owner fills a free seat with a bot (not at rated tables)."""
        level = parse(AddBotSerializer, request.data)["level"]
        visible_table(request, table_id)
        services.table_add_bot(table_id=table_id, by=request.user, level=level)
        return summary_response(request, table_id, status.HTTP_201_CREATED)


@extend_schema(tags=[TAG], request=None, responses={200: TableSerializer})
class TableSeatApi(APIView):
    def delete(self, request, table_id: int, position: int):
        """The owner removes a bot or a player (not themself) before the start."""
        visible_table(request, table_id)
        services.table_remove_seat(table_id=table_id, by=request.user, position=position)
        return summary_response(request, table_id)


@extend_schema(tags=[TAG], request=None, responses=TableSerializer)
class TableStartApi(APIView):
    def post(self, request, table_id: int):
        """The owner starts the game with the seats filled so far (at least two)."""
        visible_table(request, table_id)
        services.table_start(table_id=table_id, by=request.user)
        return summary_response(request, table_id)


def table_game(request, table_id: int) -> Game:
    table = visible_table(request, table_id)
    game = Game.objects.select_related("table").filter(table=table).first()
    if game is None:
        raise GameError("game_not_running")
    return game


def viewer_seat(game: Game, user) -> int | None:
    """The seat whose secrets the caller may see: their own, unless they abandoned it."""
    return game.table.held_position(user)


@extend_schema(tags=[TAG], responses=GameFrameSerializer)
class GameApi(APIView):
    def get(self, request, table_id: int):
        """Your view of the game (a spectator's if you hold no seat), its version and your
        legal actions: the table socket's ``view`` frame with the whole log."""
        game = table_game(request, table_id)
        return Response(services.game_view_for_user(game=game, user=request.user))


@extend_schema(tags=[TAG], request=ActionSerializer, responses=GameFrameSerializer)
class GameActionApi(APIView):
    throttle_classes = [AnonThrottle, UserThrottle, ActionThrottle]

    def post(self, request, table_id: int):
        """Play one of your legal actions, based on the view of ``version``. A stale version
        is a 409 ``stale_version`` (fetch the game again); an illegal action is a 422 with
        the engine's reason code; either way nothing changes. Answers your new view."""
        data = parse(ActionSerializer, request.data)
        game = table_game(request, table_id)
        game = services.game_submit_action(
            game_id=game.pk, user=request.user, action=data["action"],
            expected_version=data["version"],
        )  # fmt: skip
        return Response(services.game_view_for_user(game=game, user=request.user))


@extend_schema(tags=[TAG], responses=GameEventSerializer(many=True))
class GameEventsApi(generics.GenericAPIView):
    serializer_class = GameEventSerializer

    def get(self, request, table_id: int):
        """The game's steps in order: its set-up (``seq`` 0: the deal) and then each
        accepted action (``seq`` = the version it produced), each with its log entries as you
        may see them (your own secrets, nobody else's)."""
        game = table_game(request, table_id)
        seat = viewer_seat(game, request.user)
        events = GameEvent.objects.filter(game=game).select_related("user").order_by("seq")
        page = self.paginate_queryset(events)
        return self.get_paginated_response([_event(e, seat) for e in page])


def _event(event: GameEvent, seat: int | None) -> dict:
    return {
        "seq": event.seq,
        "seat": event.seat,
        "username": event.user.username if event.user_id else None,
        "by_bot": event.by_bot,
        "by_timeout": event.by_timeout,
        "created_at": event.created_at.isoformat(),
        "entries": event.entries_for(seat),
    }


@extend_schema(
    tags=[TAG],
    parameters=[OpenApiParameter("ruleset", str, OpenApiParameter.PATH, enum=RULESETS)],
    responses=OpenApiTypes.OBJECT,
)
class BoardApi(APIView):
    permission_classes = []

    def get(self, request, ruleset: str):
        """The map of a rule set: cities, routes (id, ends, length, colour, tunnel, ferry
        locomotives), tickets, route scoring and card names."""
        if ruleset not in RULESETS:
            raise NotFound()
        return Response(engine.board(ruleset))


@extend_schema(tags=[TAG], responses=AnalysisSerializer)
class GameAnalysisApi(APIView):
    def get(self, request, table_id: int):
        """The finished game's post-game analysis and its progress (``status`` ``none`` until
        someone asks for it). Who may see the replay may see it; others get a 404."""
        analysis = analysis_services.analysis_get(table_id=table_id, user=request.user)
        return Response(analysis_services.analysis_payload(analysis))

    @extend_schema(request=None, responses={200: AnalysisSerializer, 202: AnalysisSerializer})
    def post(self, request, table_id: int):
        """Ask for the analysis: a background job grades every decision of the human seats
        and each seat's chance to win after every move (202). If one is queued, running or
        done, that one is answered (200) and no new job starts; a failed one is queued again.
        New analyses are rate limited per user (429 ``rate_limited``)."""
        analysis, created = analysis_services.analysis_request(table_id=table_id, user=request.user)
        http = status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK
        return Response(analysis_services.analysis_payload(analysis), status=http)
