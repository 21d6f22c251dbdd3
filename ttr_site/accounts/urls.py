from django.urls import path

from . import views

urlpatterns = [
    path("u/<str:username>/", views.profile, name="profile"),
    path("settings/", views.settings_view, name="account_settings"),
    path("notifications/", views.notifications_view, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
]
