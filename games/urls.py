from django.urls import path
from drf_spectacular.utils import extend_schema

from games import views
from games.apis import GameApi


@extend_schema(exclude=True)  # an alias: documented once, at /api/v1/tables/{id}/game/
class GameAliasApi(GameApi):
    pass


urlpatterns = [
    path("play/", views.lobby, name="play"),
    path("play/new/", views.table_create, name="table_create"),
    path("table/<int:table_id>/", views.table_page, name="table"),
    path("table/<int:table_id>/join/", views.table_join, name="table_join"),
    path("table/<int:table_id>/leave/", views.table_leave, name="table_leave"),
    path("table/<int:table_id>/take-back/", views.table_take_back, name="table_take_back"),
    path("table/<int:table_id>/bot/", views.table_add_bot, name="table_add_bot"),
    path("table/<int:table_id>/remove/", views.table_remove_seat, name="table_remove_seat"),
    path("table/<int:table_id>/start/", views.table_start, name="table_start"),
    path("table/<int:table_id>/replay/", views.table_replay, name="table_replay"),
    path("table/<int:table_id>/analysis/", views.table_analysis, name="table_analysis"),
    path("table/<int:table_id>/invite/<str:token>/", views.table_invite, name="table_invite"),
    path("table/<int:table_id>/new-invite/", views.table_invite_rotate, name="table_invite_rotate"),
    # The first game endpoint, kept as an alias of /api/v1/tables/<id>/game/ (same frame).
    path("api/tables/<int:table_id>/game/", GameAliasApi.as_view(), name="api_game"),
]
