from django.urls import path

from ladder import views

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
