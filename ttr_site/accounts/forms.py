from allauth.account.adapter import get_adapter
from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.utils.translation import gettext_lazy as _

from .models import User


class SettingsForm(forms.ModelForm):
    """What a player may change about their public profile and preferences."""

    class Meta:
        model = User
        fields = ["display_name", "country", "bio", "language"]


class ApiTokenForm(forms.Form):
    """Name a new personal API token (what it is for: "my bot", "results site")."""

    name = forms.CharField(label=_("Token name"), max_length=60)


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's log-in, counted against the site log-in's failed-log-in limits (per account
    and per client address) through allauth: one lock for both doors."""

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            # Raises "Too many failed login attempts" while the account or address is locked.
            adapter = get_adapter(self.request)
            self.user_cache = adapter.authenticate(
                self.request, username=username, password=password
            )
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data
