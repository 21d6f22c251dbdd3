"""``/api/v1/`` routes of the live tables (mounted by ``ttr_site/api_urls.py``)."""

from django.urls import path

from games import apis

urlpatterns = [
    path("tables/", apis.TableListApi.as_view(), name="api-tables"),
    path("tables/<int:table_id>/", apis.TableDetailApi.as_view(), name="api-table"),
    path("tables/<int:table_id>/join/", apis.TableJoinApi.as_view(), name="api-table-join"),
    path("tables/<int:table_id>/invite/", apis.TableInviteApi.as_view(), name="api-table-invite"),
    path("tables/<int:table_id>/leave/", apis.TableLeaveApi.as_view(), name="api-table-leave"),
    path(
        "tables/<int:table_id>/take-back/",
        apis.TableTakeBackApi.as_view(),
        name="api-table-take-back",
    ),
    path("tables/<int:table_id>/bots/", apis.TableBotsApi.as_view(), name="api-table-bots"),
    path(
        "tables/<int:table_id>/seats/<int:position>/",
        apis.TableSeatApi.as_view(),
        name="api-table-seat",
    ),
    path("tables/<int:table_id>/start/", apis.TableStartApi.as_view(), name="api-table-start"),
    path("tables/<int:table_id>/game/", apis.GameApi.as_view(), name="api-game"),
    path(
        "tables/<int:table_id>/game/actions/",
        apis.GameActionApi.as_view(),
        name="api-game-actions",
    ),
    path(
        "tables/<int:table_id>/game/events/", apis.GameEventsApi.as_view(), name="api-game-events"
    ),
    path("tables/<int:table_id>/analysis/", apis.GameAnalysisApi.as_view(), name="api-analysis"),
    path("boards/<str:ruleset>/", apis.BoardApi.as_view(), name="api-board"),
]
