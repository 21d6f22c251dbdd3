"""Site URL configuration."""

from django.contrib import admin
from django.urls import include, path
from django.views.decorators.cache import cache_page
from django.views.i18n import JavaScriptCatalog

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    # "play/" and the table pages come from games.urls
    path("", include("ladder.urls")),  # "leagues/" (URL name "leagues") and the league pages
    path("tournaments/", views.coming_soon, {"section": "tournaments"}, name="tournaments"),
    path("", include("games.urls")),
    path("accounts/", include("allauth.urls")),
    path("", include("ttr_site.accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    # The client-side strings' translations (gettext/ngettext/interpolate in the browser).
    path("jsi18n/", cache_page(3600)(JavaScriptCatalog.as_view()), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]
