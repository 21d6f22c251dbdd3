"""``/api/v1/tournaments/...``: list and create, detail, entrants, standings, rounds, results
export, the players' actions (register, withdraw, check in) and the organizer's.

A tournament of a private league is a 404 to anyone but its members and its organizer (as
on the pages). Standings, rounds and the export are read from the tournament's standings
snapshot (``services.snapshot_current``: one consistent moment, computed once per change).
"""

import csv
import io

import orjson
from django.db.models import Q
from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import generics, renderers, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.apis import parse
from ladder import services
from ladder import tournament_presenters as present
from ladder.errors import LadderError
from ladder.models import Entry, Pairing, Tournament, TournamentInvitation
from ladder.serializers import (
    EntryAddSerializer,
    EntrySerializer,
    InvitationSerializer,
    ResultSerializer,
    RoundSerializer,
    StandingSerializer,
    TournamentCreateSerializer,
    TournamentDetailSerializer,
    TournamentInviteSerializer,
    TournamentSerializer,
)
from ttr_site.accounts.models import User

TAG = "tournaments"


def visible_tournament(request, slug: str) -> Tournament:
    visible = Tournament.objects.visible_to(request.user).select_related("league", "organizer")
    tournament = visible.filter(slug=slug).first()
    if tournament is None:
        raise LadderError("tournament_not_found")
    return tournament


def detail_response(request, tournament_id: int, http=status.HTTP_200_OK) -> Response:
    t = Tournament.objects.select_related("league", "organizer").get(pk=tournament_id)
    entries = t.entries.select_related("user")
    mine = entries.filter(user=request.user).first() if request.user.is_authenticated else None
    invited = _pending_invitation(t, request.user)
    data = TournamentSerializer(t).data | {
        "registration_open": t.registration_open(),
        "checkin_open": t.checkin_open(),
        "is_organizer": t.is_organizer(request.user),
        "active_count": entries.filter(status="active").count(),
        "your_entry": EntrySerializer(mine).data if mine else None,
        "your_invitation": InvitationSerializer(invited).data if invited else None,
    }
    return Response(data, status=http)


def _pending_invitation(t: Tournament, user) -> TournamentInvitation | None:
    if not user.is_authenticated:
        return None
    pending = t.invitations.filter(user=user, status=TournamentInvitation.Status.PENDING)
    return pending.select_related("user", "invited_by").first()


class TournamentFilterSerializer(serializers.Serializer):
    status = serializers.ChoiceField(Tournament.Status.choices, required=False)


CREATE_EXAMPLES = [
    OpenApiExample(
        "Swiss",
        request_only=True,
        value={
            "name": "Sunday Swiss",
            "starts_at": "2030-06-02T18:00:00Z",
            "format": "swiss",
            "table_size": 4,
            "round_count": 4,
            "time_control": "realtime",
            "move_seconds": 90,
            "bank_seconds": 120,
        },
    ),
    OpenApiExample(
        "Arena",
        request_only=True,
        value={
            "name": "Hour Arena",
            "starts_at": "2030-06-02T18:00:00Z",
            "format": "arena",
            "table_size": 3,
            "duration_minutes": 60,
            "bot_fill_seconds": 120,
            "bot_fill_level": "medium",
        },
    ),
    OpenApiExample(
        "Knockout",
        request_only=True,
        value={
            "name": "Club Knockout",
            "starts_at": "2030-06-02T18:00:00Z",
            "format": "knockout",
            "table_size": 4,
            "advance_count": 2,
            "round_break_seconds": 120,
        },
    ),
]


@extend_schema(tags=[TAG])
class TournamentListApi(generics.GenericAPIView):
    serializer_class = TournamentSerializer

    @extend_schema(
        parameters=[TournamentFilterSerializer], responses=TournamentSerializer(many=True)
    )
    def get(self, request):
        """Tournaments the caller may see, latest start first."""
        query = parse(TournamentFilterSerializer, request.query_params)
        visible = Tournament.objects.visible_to(request.user)
        if "status" in query:
            visible = visible.filter(status=query["status"])
        visible = visible.select_related("league", "organizer").order_by("-starts_at", "-id")
        page = self.paginate_queryset(visible)
        return self.get_paginated_response(TournamentSerializer(page, many=True).data)

    @extend_schema(
        request=TournamentCreateSerializer,
        responses={201: TournamentDetailSerializer},
        examples=CREATE_EXAMPLES,
    )
    def post(self, request):
        """Announce a tournament that you organize (the settings of the page's form; only
        ``name`` and ``starts_at`` are required). Registration opens as its window says.
        Settings that could not run are refused (400 ``invalid_tournament`` with ``detail``),
        and so are unknown keys and those the site sets (400 ``invalid`` with ``fields``)."""
        serializer = TournamentCreateSerializer(data=request.data, context={"user": request.user})
        serializer.is_valid(raise_exception=True)
        t = services.tournament_create(by=request.user, **serializer.validated_data)
        response = detail_response(request, t.pk, http=status.HTTP_201_CREATED)
        response["Location"] = request.build_absolute_uri(
            reverse("api-tournament", kwargs={"slug": t.slug})
        )
        return response


@extend_schema(tags=[TAG], responses=TournamentDetailSerializer)
class TournamentDetailApi(APIView):
    def get(self, request, slug: str):
        """One tournament: its settings, status, and the caller's entry and rights."""
        return detail_response(request, visible_tournament(request, slug).pk)


def _player_action(service):
    @extend_schema(tags=[TAG], request=None, responses=EntrySerializer)
    class PlayerActionApi(APIView):
        def post(self, request, slug: str):
            t = visible_tournament(request, slug)
            entry = service(tournament_id=t.pk, user=request.user)
            return Response(EntrySerializer(entry).data)

    PlayerActionApi.post.__doc__ = service.__doc__
    PlayerActionApi.__name__ = PlayerActionApi.__qualname__ = service.__name__.title() + "Api"
    return PlayerActionApi


RegisterApi = _player_action(services.tournament_register)
WithdrawApi = _player_action(services.tournament_withdraw)
CheckInApi = _player_action(services.tournament_check_in)


def _organizer_action(service):
    @extend_schema(tags=[TAG], request=None, responses=TournamentDetailSerializer)
    class OrganizerActionApi(APIView):
        def post(self, request, slug: str):
            t = visible_tournament(request, slug)
            service(tournament_id=t.pk, by=request.user)
            return detail_response(request, t.pk)

    OrganizerActionApi.post.__doc__ = f"Organizer: {service.__doc__}"
    OrganizerActionApi.__name__ = service.__name__.title().replace("_", "") + "Api"
    OrganizerActionApi.__qualname__ = OrganizerActionApi.__name__
    return OrganizerActionApi


StartApi = _organizer_action(services.tournament_start_now)
PauseApi = _organizer_action(services.tournament_pause)
ResumeApi = _organizer_action(services.tournament_resume)
CancelApi = _organizer_action(services.tournament_cancel)


@extend_schema(tags=[TAG])
class EntriesApi(generics.GenericAPIView):
    serializer_class = EntrySerializer

    @extend_schema(responses=EntrySerializer(many=True))
    def get(self, request, slug: str):
        """Everyone entered, in order of entry (withdrawn and removed entrants included)."""
        t = visible_tournament(request, slug)
        page = self.paginate_queryset(t.entries.select_related("user").order_by("id"))
        Entry.bot_names(page)
        return self.get_paginated_response(EntrySerializer(page, many=True).data)

    @extend_schema(request=EntryAddSerializer, responses={201: EntrySerializer})
    def post(self, request, slug: str):
        """Organizer: enter a bot (``bot_level``, unrated tournaments only). Players are
        invited instead (``POST .../invitations/``) and enter by accepting."""
        level = parse(EntryAddSerializer, request.data)["bot_level"]
        t = visible_tournament(request, slug)
        entry = services.entry_add_bot(tournament_id=t.pk, by=request.user, level=level)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=[TAG])
class InvitationsApi(generics.GenericAPIView):
    serializer_class = InvitationSerializer

    @extend_schema(responses=InvitationSerializer(many=True))
    def get(self, request, slug: str):
        """Invitations to the tournament: every one for its organizer, your own for you."""
        t = visible_tournament(request, slug)
        invitations = t.invitations.select_related("user", "invited_by").order_by("id")
        if not t.is_organizer(request.user):
            invitations = invitations.filter(user_id=request.user.pk or 0)
        page = self.paginate_queryset(invitations)
        return self.get_paginated_response(InvitationSerializer(page, many=True).data)

    @extend_schema(request=TournamentInviteSerializer, responses={201: InvitationSerializer})
    def post(self, request, slug: str):
        """Organizer: invite a player (``username``); they are told, and entered only if
        they accept (``POST .../invitation/accept/``)."""
        name = parse(TournamentInviteSerializer, request.data)["username"]
        t = visible_tournament(request, slug)
        user = User.objects.filter(username__iexact=name, is_active=True).first()
        if user is None:
            raise serializers.ValidationError({"username": ["There is no such player."]})
        invitation = services.entry_invite(tournament_id=t.pk, by=request.user, user=user)
        return Response(InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=[TAG], request=None, responses=EntrySerializer)
class InvitationAcceptApi(APIView):
    def post(self, request, slug: str):
        """Accept the organizer's invitation: you are entered, with the same checks as
        registering (registration open, room left, league membership)."""
        t = visible_tournament(request, slug)
        entry = services.invitation_accept(tournament_id=t.pk, user=request.user)
        return Response(EntrySerializer(entry).data)


@extend_schema(tags=[TAG], request=None, responses=InvitationSerializer)
class InvitationDeclineApi(APIView):
    def post(self, request, slug: str):
        """Decline the organizer's invitation: you are not entered; the organizer is told."""
        t = visible_tournament(request, slug)
        invitation = services.invitation_decline(tournament_id=t.pk, user=request.user)
        return Response(InvitationSerializer(invitation).data)


# ``{200: ...}``: a DELETE is documented as a 204 otherwise, and this one answers the entry.
@extend_schema(tags=[TAG], request=None, responses={200: EntrySerializer})
class EntryApi(APIView):
    def delete(self, request, slug: str, entry_id: int):
        """Organizer: take an entrant out of the rest of the tournament."""
        t = visible_tournament(request, slug)
        entry = services.entry_remove(tournament_id=t.pk, by=request.user, entry_id=entry_id)
        return Response(EntrySerializer(entry).data)


@extend_schema(tags=[TAG], responses=StandingSerializer(many=True))
class StandingsApi(generics.GenericAPIView):
    serializer_class = StandingSerializer

    def get(self, request, slug: str):
        """The standings: rank, points and every tie-break value; an arena's rows add
        ``streak`` and ``paused``, a knockout's ``round_reached`` and ``eliminated_in``."""
        t = visible_tournament(request, slug)
        view = services.snapshot_current(t)
        page = self.paginate_queryset(present.export_standings(view, t.format))
        return self.get_paginated_response(StandingSerializer(page, many=True).data)


@extend_schema(tags=[TAG], responses=RoundSerializer(many=True))
class RoundsApi(generics.GenericAPIView):
    serializer_class = RoundSerializer

    def get(self, request, slug: str):
        """Every round in order, its tables (pairings) and their results."""
        view = services.snapshot_current(visible_tournament(request, slug))
        page = self.paginate_queryset(present.export_rounds(view))
        # The rounds are the serializer's shape already (``present.export_rounds``); a page of
        # 12 rounds of 500 tables is 24,000 seats, too many to pass through serializer fields
        # and the renderer on every read: orjson encodes the page as it is.
        data = self.get_paginated_response(page).data
        return HttpResponse(orjson.dumps(data), content_type="application/json")


class CSVRenderer(renderers.BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        out = io.StringIO()
        csv.writer(out).writerows(data)
        return out.getvalue().encode()


@extend_schema(
    tags=[TAG],
    parameters=[OpenApiParameter("format", str, enum=["json", "csv"], description="or Accept")],
    responses={
        (200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT, description="export"),
        (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="standings as CSV"),
    },
)
class ResultsApi(APIView):
    renderer_classes = [renderers.JSONRenderer, CSVRenderer]

    def get(self, request, slug: str):
        """The results export: the whole tournament as JSON (settings with the format's,
        standings with the format's fields, rounds), or the standings as CSV with the
        format's columns and one column per round, none in an arena (``?format=csv``)."""
        t = visible_tournament(request, slug)
        view = services.snapshot_current(t)
        # Encoded once per snapshot (``present.export_json``), not by the renderer each time.
        if request.accepted_renderer.format == "csv":
            body = present.export_csv(view, t.format)
            return HttpResponse(body, content_type="text/csv; charset=utf-8")
        return HttpResponse(present.export_json(view, t), content_type="application/json")

    def handle_exception(self, exc):
        # Errors are JSON in the one format, whatever format the export was asked in.
        self.request.accepted_renderer = renderers.JSONRenderer()
        self.request.accepted_media_type = "application/json"
        return super().handle_exception(exc)


@extend_schema(tags=[TAG], request=None, responses=RoundSerializer)
class RoundRepairApi(APIView):
    def post(self, request, slug: str, number: int):
        """Organizer: pair a round again before it starts (from the current standings)."""
        t = visible_tournament(request, slug)
        services.round_repair(tournament_id=t.pk, by=request.user, number=number)
        return Response(_round(t, number))


def _round(t: Tournament, number: int) -> dict:
    t.refresh_from_db(fields=["version"])  # the change just made
    view = services.snapshot_current(t)
    return next(r for r in present.export_rounds(view) if r["number"] == number)


def tournament_pairing(request, t: Tournament, pairing_id: int) -> int:
    """The id of one of ``t``'s tables (a table of another tournament is not found here)."""
    if not Pairing.objects.filter(Q(pk=pairing_id) & Q(round__tournament=t)).exists():
        raise LadderError("pairing_not_found")
    return pairing_id


@extend_schema(tags=[TAG], request=None, responses=RoundSerializer)
class PairingEndApi(APIView):
    def post(self, request, slug: str, pairing_id: int):
        """Organizer: end a stuck table now; places follow the public scores."""
        t = visible_tournament(request, slug)
        pairing = services.pairing_end(
            pairing_id=tournament_pairing(request, t, pairing_id), by=request.user
        )
        return Response(_round(t, pairing.round.number))


@extend_schema(tags=[TAG], request=ResultSerializer, responses=RoundSerializer)
class PairingResultApi(APIView):
    def put(self, request, slug: str, pairing_id: int):
        """Organizer: set or correct a table's result by entry id (a table in play is
        ended first)."""
        data = parse(ResultSerializer, request.data)
        t = visible_tournament(request, slug)
        pairing = services.pairing_set_result(
            pairing_id=tournament_pairing(request, t, pairing_id), by=request.user,
            places=data["places"], scores=data.get("scores"),
        )  # fmt: skip
        return Response(_round(t, pairing.round.number))


# An arena: an entrant pauses (no new table seats them) and plays on; the organizer ends it
# now (no new table; games in progress count). docs/tournaments.md "Arena".
ArenaPauseApi = _player_action(services.arena_pause)
ArenaResumeApi = _player_action(services.arena_resume)
EndNowApi = _organizer_action(services.tournament_end_now)
