"""Profile, settings and notification pages."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.services.analysis import player_accuracy
from ladder import presenters

from .errors import AccountError
from .forms import ApiTokenForm, SettingsForm
from .models import User
from .services import api_token_create, api_token_revoke, notifications_mark_read


def profile(request, username):
    player = get_object_or_404(User, username=username, is_active=True)
    context = {
        "player": player,
        "ladders": presenters.profile_ratings(player, request.user),
        "games": presenters.profile_games(player, request.user),
        "accuracy": player_accuracy(player=player, viewer=request.user),
    }
    return render(request, "accounts/profile.html", context)


@login_required
def settings_view(request):
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings were saved."))
        return redirect("account_settings")
    return _settings_page(request, form=form)


def _settings_page(request, **context):
    context.setdefault("form", SettingsForm(instance=request.user))
    context.setdefault("token_form", ApiTokenForm())
    context["tokens"] = request.user.api_tokens.active()
    return render(request, "accounts/settings.html", context)


@never_cache  # Cache-Control: no-store: no browser or proxy keeps the secret
@login_required
@require_POST
def api_token_new(request):
    """Create a token and show its secret on this response only (it is never stored)."""
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, token_form=form)
    try:
        token, secret = api_token_create(user=request.user, name=form.cleaned_data["name"])
    except AccountError as exc:
        form.add_error(None, exc.message)
        return _settings_page(request, token_form=form)
    return _settings_page(request, new_token=token, new_secret=secret)


@login_required
@require_POST
def api_token_revoke_view(request, token_id):
    try:
        token = api_token_revoke(user=request.user, token_id=token_id)
    except AccountError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The token %(name)s is revoked.") % {"name": token.name})
    return redirect("account_settings")


@login_required
def notifications_view(request):
    """The player's notifications; seeing them marks them read (the page still shows which
    were new), so the header's badge clears as the page opens."""
    items = list(request.user.notifications.all()[:50])
    notifications_mark_read(user=request.user)
    return render(request, "accounts/notifications.html", {"items": items})


@login_required
@require_POST
def notifications_read(request):
    notifications_mark_read(user=request.user)
    return redirect("notifications")


@require_POST
def set_language(request):
    """The page's language switcher: Django's cookie, and for a signed-in player the account
    too, so the choice follows them to other devices and into e-mails and notifications."""
    response = i18n.set_language(request)
    language = request.POST.get("language")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        User.objects.filter(pk=request.user.pk).update(language=language)
    return response
