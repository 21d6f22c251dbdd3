"""Site URL configuration."""

from django.contrib import admin
from django.urls import include, path

from . import views
from .accounts import views as account_views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("rules/<slug:page>/", views.rules, name="rules_page"),
    # "play/" and the table pages come from games.urls
    # "leagues/" and "tournaments/" with their pages
    path("", include("ladder.urls")),
    path("", include("games.urls")),
    # The public REST API (v1), its schema and docs; before games.urls' older /api/ alias.
    path("api/", include("ttr_site.api_urls")),
    path("accounts/", include("allauth.urls")),
    path("", include("ttr_site.accounts.urls")),
    # The language switcher also stores the choice on a signed-in player's account.
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    # The client-side strings' translations (gettext/ngettext/interpolate in the browser).
    path("jsi18n/<str:lang>/", views.javascript_catalog, name="javascript-catalog"),
    path("admin/", admin.site.urls),
]
