"""Site-wide pages: the home page and How to play."""

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.template.loader import select_template
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import cache_page
from django.views.i18n import JavaScriptCatalog

from games.forms import TableForm
from ladder import rating, standings
from ttr_site import board_miniature

# How to play: slug -> title. Each page is written once per language (prose reads better
# than sentence-by-sentence catalogue entries): templates/rules/<language>/<slug>.html.
RULE_PAGES = {
    "europe": _("Europe"),
    "warehouses": _("Warehouses & Depots"),
    "new-york": _("New York"),
}


def home(request):
    return render(request, "pages/home.html", {"board": board_miniature.europe()})


def rules(request, page: str = "index"):
    """How to play, in the reader's language (English where a page is not translated)."""
    if page != "index" and page not in RULE_PAGES:
        raise Http404
    language = (translation.get_language() or "en").split("-")[0]
    name = page.replace("-", "_")
    template = select_template([f"rules/{language}/{name}.html", f"rules/en/{name}.html"])
    site = select_template([f"rules/{language}/_site.html", "rules/en/_site.html"])
    context = {
        "page": page,
        "pages": list(RULE_PAGES.items()),
        "title": RULE_PAGES.get(page, _("How to play")),
        "site_template": site.template.name,
        "facts": _facts(),
    }
    return render(request, template.template.name, context)


def _facts() -> dict:
    """The site's own numbers, so the rules pages never go stale."""
    clock = TableForm.base_fields  # what a new table's clock is unless its creator changes it
    return {
        "move_seconds": clock["move_seconds"].initial,
        "turn_hours": clock["turn_hours"].initial,
        "timeouts": settings.TIMEOUTS_BEFORE_ABANDON,
        "start_rating": int(rating.START),
        "k": int(rating.K),
        "k_provisional": int(rating.K_PROVISIONAL),
        "provisional_games": rating.PROVISIONAL_GAMES,
        "bye_points": int(standings.BYE_POINTS),
        # the default ("linear") placement points at a table of four and of three
        "points_4": [int(p) for p in standings.position_points(4)],
        "points_3": [int(p) for p in standings.position_points(3)],
    }


_catalog = JavaScriptCatalog.as_view()


@cache_page(3600)
def javascript_catalog(request, lang: str):
    """The client-side strings' translations in ``lang``. The language is in the address, so
    each language has its own (cached) copy: at one address for all, a browser or the page
    cache kept serving the language it first fetched after the player switched."""
    if lang not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(lang):
        return _catalog(request)
