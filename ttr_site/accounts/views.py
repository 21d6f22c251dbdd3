"""Profile, settings and notification pages."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ladder import presenters

from .forms import SettingsForm
from .models import User
from .services import notifications_mark_read


def profile(request, username):
    player = get_object_or_404(User, username=username, is_active=True)
    context = {
        "player": player,
        "ladders": presenters.profile_ratings(player, request.user),
        "games": presenters.profile_games(player, request.user),
    }
    return render(request, "accounts/profile.html", context)


@login_required
def settings_view(request):
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings were saved."))
        return redirect("account_settings")
    return render(request, "accounts/settings.html", {"form": form})


@login_required
def notifications_view(request):
    items = list(request.user.notifications.all()[:50])
    return render(request, "accounts/notifications.html", {"items": items})


@login_required
@require_POST
def notifications_read(request):
    notifications_mark_read(user=request.user)
    return redirect("notifications")
