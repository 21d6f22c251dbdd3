"""``/api/v1/`` routes of accounts (mounted by ``ttr_site/api_urls.py``)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("me/", apis.MeApi.as_view(), name="api-me"),
    path("users/<str:username>/", apis.ProfileApi.as_view(), name="api-user"),
]
