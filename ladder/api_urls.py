"""``/api/v1/`` routes of leagues, ladders, the queue and tournaments."""

from django.urls import path

from ladder.apis import leagues as L
from ladder.apis import tournaments as T

LEAGUE = "leagues/<slug:slug>/"
LADDER = LEAGUE + "ladders/<str:time_control>/"
TOURNAMENT = "tournaments/<slug:slug>/"

urlpatterns = [
    path("leagues/", L.LeagueListApi.as_view(), name="api-leagues"),
    path(LEAGUE, L.LeagueDetailApi.as_view(), name="api-league"),
    path(LEAGUE + "join/", L.LeagueJoinApi.as_view(), name="api-league-join"),
    path(LEAGUE + "leave/", L.LeagueLeaveApi.as_view(), name="api-league-leave"),
    path(LEAGUE + "members/", L.LeagueMembersApi.as_view(), name="api-league-members"),
    path(LEAGUE + "matches/", L.LeagueMatchesApi.as_view(), name="api-league-matches"),
    path(LADDER, L.LadderApi.as_view(), name="api-ladder"),
    path(LADDER + "players/<str:username>/", L.RatingHistoryApi.as_view(), name="api-history"),
    path("users/<str:username>/ratings/", L.PlayerRatingsApi.as_view(), name="api-ratings"),
    path("queue/", L.QueueApi.as_view(), name="api-queue"),
    path("tournaments/", T.TournamentListApi.as_view(), name="api-tournaments"),
    path(TOURNAMENT, T.TournamentDetailApi.as_view(), name="api-tournament"),
    path(TOURNAMENT + "register/", T.RegisterApi.as_view(), name="api-tournament-register"),
    path(TOURNAMENT + "withdraw/", T.WithdrawApi.as_view(), name="api-tournament-withdraw"),
    path(TOURNAMENT + "check-in/", T.CheckInApi.as_view(), name="api-tournament-check-in"),
    path(TOURNAMENT + "start/", T.StartApi.as_view(), name="api-tournament-start"),
    path(TOURNAMENT + "pause/", T.PauseApi.as_view(), name="api-tournament-pause"),
    path(TOURNAMENT + "resume/", T.ResumeApi.as_view(), name="api-tournament-resume"),
    path(TOURNAMENT + "cancel/", T.CancelApi.as_view(), name="api-tournament-cancel"),
    path(TOURNAMENT + "entries/", T.EntriesApi.as_view(), name="api-tournament-entries"),
    path(TOURNAMENT + "entries/<int:entry_id>/", T.EntryApi.as_view(), name="api-tournament-entry"),
    path(
        TOURNAMENT + "invitations/", T.InvitationsApi.as_view(), name="api-tournament-invitations"
    ),
    path(
        TOURNAMENT + "invitation/accept/",
        T.InvitationAcceptApi.as_view(),
        name="api-tournament-invitation-accept",
    ),
    path(
        TOURNAMENT + "invitation/decline/",
        T.InvitationDeclineApi.as_view(),
        name="api-tournament-invitation-decline",
    ),
    path(TOURNAMENT + "standings/", T.StandingsApi.as_view(), name="api-tournament-standings"),
    path(TOURNAMENT + "rounds/", T.RoundsApi.as_view(), name="api-tournament-rounds"),
    path(
        TOURNAMENT + "rounds/<int:number>/repair/",
        T.RoundRepairApi.as_view(),
        name="api-tournament-repair",
    ),
    path(
        TOURNAMENT + "tables/<int:pairing_id>/end/",
        T.PairingEndApi.as_view(),
        name="api-tournament-table-end",
    ),
    path(
        TOURNAMENT + "tables/<int:pairing_id>/result/",
        T.PairingResultApi.as_view(),
        name="api-tournament-table-result",
    ),
    path(TOURNAMENT + "results/", T.ResultsApi.as_view(), name="api-tournament-results"),
    path(TOURNAMENT + "arena/pause/", T.ArenaPauseApi.as_view(), name="api-tournament-arena-pause"),
    path(
        TOURNAMENT + "arena/resume/", T.ArenaResumeApi.as_view(), name="api-tournament-arena-resume"
    ),
    path(TOURNAMENT + "end/", T.EndNowApi.as_view(), name="api-tournament-end"),
]
