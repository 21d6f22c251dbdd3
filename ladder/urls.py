from django.urls import path

from ladder import live_standings, tournament_views, views

urlpatterns = [
    path("leagues/", views.league_list, name="leagues"),
    path("leagues/new/", views.league_create, name="league_create"),
    path("leagues/<slug:slug>/", views.league_detail, name="league"),
    path("leagues/<slug:slug>/members/", views.league_members, name="league_members"),
    path("leagues/<slug:slug>/matches/", views.league_matches, name="league_matches"),
    path("leagues/<slug:slug>/accuracy/", views.league_accuracy, name="league_accuracy"),
    path("leagues/<slug:slug>/join/", views.league_join, name="league_join"),
    path("leagues/<slug:slug>/leave/", views.league_leave, name="league_leave"),
    path("leagues/<slug:slug>/invite/<str:token>/", views.league_invite, name="league_invite"),
    path(
        "leagues/<slug:slug>/new-invite/", views.league_invite_rotate, name="league_invite_rotate"
    ),
    path("leagues/<slug:slug>/queue/", views.queue_join, name="league_queue_join"),
    path("leagues/<slug:slug>/queue/leave/", views.queue_leave, name="league_queue_leave"),
    path("leagues/<slug:slug>/challenge/", views.challenge_create, name="league_challenge"),
    path(
        "leagues/<slug:slug>/challenge/<int:challenge_id>/",
        views.challenge_answer,
        name="league_challenge_answer",
    ),
    path(
        "leagues/<slug:slug>/members/<int:user_id>/remove/",
        views.member_remove,
        name="league_member_remove",
    ),
    path(
        "leagues/<slug:slug>/members/<int:user_id>/role/",
        views.member_role,
        name="league_member_role",
    ),
    path(
        "leagues/<slug:slug>/matches/<int:match_id>/annul/",
        views.match_annul,
        name="league_match_annul",
    ),
]

urlpatterns += [
    path("tournaments/", tournament_views.tournament_list, name="tournaments"),
    path("tournaments/new/", tournament_views.tournament_create, name="tournament_create"),
    path("tournaments/<slug:slug>/", tournament_views.tournament_detail, name="tournament"),
    path(
        "tournaments/<slug:slug>/<str:tab>/",
        tournament_views.tournament_detail,
        name="tournament_tab",
    ),
    path(
        "tournaments/<slug:slug>/standings.json",
        live_standings.standings_json,
        name="tournament_standings_json",
    ),
    path(
        "tournaments/<slug:slug>/results.<str:fmt>",
        tournament_views.tournament_export,
        name="tournament_export",
    ),
    path(
        "tournaments/<slug:slug>/do/register/",
        tournament_views.tournament_register,
        name="tournament_register",
    ),
    path(
        "tournaments/<slug:slug>/do/withdraw/",
        tournament_views.tournament_withdraw,
        name="tournament_withdraw",
    ),
    path(
        "tournaments/<slug:slug>/do/check-in/",
        tournament_views.tournament_check_in,
        name="tournament_check_in",
    ),
    path(
        "tournaments/<slug:slug>/do/accept-invitation/",
        tournament_views.invitation_accept,
        name="tournament_invitation_accept",
    ),
    path(
        "tournaments/<slug:slug>/do/decline-invitation/",
        tournament_views.invitation_decline,
        name="tournament_invitation_decline",
    ),
    path(
        "tournaments/<slug:slug>/arena/pause/",
        tournament_views.arena_pause,
        name="tournament_arena_pause",
    ),
    path(
        "tournaments/<slug:slug>/arena/resume/",
        tournament_views.arena_resume,
        name="tournament_arena_resume",
    ),
    path(
        "tournaments/<slug:slug>/do/<str:action>/",
        tournament_views.tournament_control,
        name="tournament_control",
    ),
    path(
        "tournaments/<slug:slug>/players/invite/",
        tournament_views.entry_invite,
        name="tournament_entry_invite",
    ),
    path(
        "tournaments/<slug:slug>/players/bot/",
        tournament_views.entry_add_bot,
        name="tournament_entry_bot",
    ),
    path(
        "tournaments/<slug:slug>/players/<int:entry_id>/remove/",
        tournament_views.entry_remove,
        name="tournament_entry_remove",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/repair/",
        tournament_views.round_repair,
        name="tournament_round_repair",
    ),
    path(
        "tournaments/<slug:slug>/tables/<int:pairing_id>/end/",
        tournament_views.pairing_end,
        name="tournament_pairing_end",
    ),
    path(
        "tournaments/<slug:slug>/tables/<int:pairing_id>/result/",
        tournament_views.pairing_result,
        name="tournament_pairing_result",
    ),
]
