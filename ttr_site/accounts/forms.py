from django import forms
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
