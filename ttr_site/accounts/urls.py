from django.urls import path

from . import views

urlpatterns = [
    path("u/<str:username>/", views.profile, name="profile"),
    path("settings/", views.settings_view, name="account_settings"),
    path("settings/tokens/", views.api_token_new, name="api_token_new"),
    path(
        "settings/tokens/<int:token_id>/revoke/",
        views.api_token_revoke_view,
        name="api_token_revoke",
    ),
    path("notifications/", views.notifications_view, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
]
